import type { Metadata } from '../model/metadata.js';
import type { Clock } from '../util/clock.js';
import type { ParserDeps } from './html/page.js';
import { OutlinkCollector } from './outlinks.js';
import { runFilters, simpleContext } from './results.js';
import type { ParseSettings } from './settings.js';
import { detachMetadata } from './strings.js';
import type { ParseInput, ParseStatus, SitemapStats } from './types.js';

/*
 * The one page of a list of links: a feed or a sitemap. Its entries become outlinks (filtered,
 * never the page's own text); the document ends FETCHED after the parse filters ran with no DOM,
 * or as its kind says when it cannot be read. Each kind says only how it reads its entries.
 */

export interface LinkListDeps extends ParserDeps {
  /** For the `*.filter.hours.since.*` settings. */
  readonly clock: Clock;
}

/** What a kind's reader gets: where outlinks go, what they resolve against, the oldest date kept. */
export interface LinkList {
  readonly collector: OutlinkCollector;
  /** The document's URL. */
  readonly base: URL;
  /** Entries dated before this (ms) are dropped; -Infinity keeps them all. */
  readonly oldest: number;
}

/** One kind of link list (feed, sitemap). */
export interface LinkListKind {
  /** The metadata key that marks the document (isFeed, isSitemap): "true" on its result. */
  readonly mark: string;
  /** Hours since an entry's date beyond which it is dropped; < 0 keeps all. */
  hours(settings: ParseSettings): number;
  /** Reads the entries into `list`; the bytes the parse filters see, and what the result adds. */
  read(input: ParseInput, md: Metadata, list: LinkList): { content: Buffer; sitemap?: SitemapStats };
  /**
   * The result of a document that cannot be read; `message` says why ("Exception while parsing URL:
   * " and what `read` or a parse filter threw).
   */
  broken(input: ParseInput, md: Metadata, message: string): ParseStatus;
}

/** Parses a document known to be of `kind`. Synchronous, never throws. */
export function parseLinkList(input: ParseInput, deps: LinkListDeps, kind: LinkListKind): ParseStatus {
  const md = input.metadata.copy();
  md.setValue(kind.mark, 'true');
  try {
    const hours = kind.hours(deps.settings);
    const list: LinkList = {
      base: new URL(input.url),
      collector: new OutlinkCollector(input, deps, {
        max: -1,
        trackAnchors: false,
      }),
      oldest: hours >= 0 ? deps.clock.now() - hours * 3_600_000 : -Infinity,
    };
    const { content, ...extra } = kind.read(input, md, list);
    const context = simpleContext(md, content, '', () => list.collector.outlinks());
    context.addOutlink = (href) => list.collector.add(href, list.base);
    const failure = runFilters(deps.filters, input.url, null, context);
    if (failure) return failure;
    detachMetadata(md);
    const outlinks = list.collector.outlinks();
    return { kind: 'status', url: input.url, status: 'FETCHED', metadata: md, outlinks, ...extra };
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    return kind.broken(input, md, `Exception while parsing ${input.url}: ${why}`);
  }
}
