import { MD } from '../model/keys.js';
import type { Metadata } from '../model/metadata.js';
import type { MetadataTransfer } from '../model/metadata-transfer.js';
import { resolveCached } from './resolve.js';
import { detach } from './strings.js';
import type { Outlink, OutlinkFilter } from './types.js';

export interface OutlinkOptions {
  /** Distinct kept links at most; -1 = no limit. */
  readonly max: number;
  readonly trackAnchors: boolean;
}

/** Only these schemes can be fetched; the rest (javascript:, mailto:, data:, tel:) are dropped early. */
const WEB = /^https?:$/;
/** One distinct link of the page; its metadata is built only when someone asks for it. */
interface Entry {
  readonly url: string;
  /** Distinct anchor texts, detached from the page, in the order seen. */
  anchors: string[] | undefined;
  metadata: Metadata | undefined;
}

/**
 * An outlink whose metadata (the page's transfer template plus its anchors) is built on first read
 * and then kept: most outlinks of a crawl are known URLs that the status store skips by URL alone,
 * and those never need one.
 */
class LazyOutlink implements Outlink {
  constructor(
    private readonly entry: Entry,
    private readonly collector: OutlinkCollector,
  ) {}

  get url(): string {
    return this.entry.url;
  }

  get metadata(): Metadata {
    return this.collector.metadataOf(this.entry);
  }
}

/**
 * Resolves, filters, deduplicates and decorates the links of one page or sitemap (StormCrawler's
 * `toOutlinks` + `filterOutlink`):
 * 1. resolved against the base URL; what is not http(s) after resolution is dropped (Java's URL
 *    throws for unknown schemes, so StormCrawler drops javascript: and friends the same way);
 * 2. the URL filter chain decides and normalises (with the page as source);
 * 3. links equal after filtering are one outlink, their anchors merged (each distinct anchor once);
 * 4. metadata from `MetadataTransfer.forOutlink`, computed once per page and copied per link when
 *    the link's metadata is first read;
 * 5. at most `max` distinct links; later new targets are dropped and counted.
 * Everything stored is a copy (`detach`), so outlinks never keep the page alive.
 */
export class OutlinkCollector {
  private readonly byUrl = new Map<string, Entry>();
  private readonly decided = new Map<string, string | null>();
  private readonly source: URL;
  private template: Metadata | undefined;
  private lastAdded: Entry | undefined;
  /** Targets refused because `max` was reached. */
  overLimit = 0;
  /** Links that did not resolve to http(s) or that the URL filters rejected. */
  rejected = 0;

  readonly pageUrl: string;
  private readonly pageMetadata: Metadata;
  private readonly transfer: MetadataTransfer;
  private readonly urlFilter: OutlinkFilter;

  /** `page`: the page the links are on; `deps`: what an outlink's metadata and verdict come from. */
  constructor(
    page: { readonly url: string; readonly metadata: Metadata },
    deps: { readonly transfer: MetadataTransfer; readonly urlFilter: OutlinkFilter },
    private readonly options: OutlinkOptions,
  ) {
    this.pageUrl = page.url;
    this.pageMetadata = page.metadata;
    this.transfer = deps.transfer;
    this.urlFilter = deps.urlFilter;
    this.source = new URL(page.url);
  }

  /** Resolves `href` against `base`; undefined when it is not an http(s) URL. */
  static resolve(href: string, base: URL | string): string | undefined {
    try {
      const u = new URL(href, base);
      return WEB.test(u.protocol) ? u.href : undefined;
    } catch {
      return undefined;
    }
  }

  /** `resolve` through the shared cache (src/parse/resolve.ts). */
  private resolveCached(href: string, base: URL): string | undefined {
    const u = resolveCached(href, base);
    return u !== undefined && (u.startsWith('http:') || u.startsWith('https:')) ? u : undefined;
  }

  get size(): number {
    return this.byUrl.size;
  }

  /**
   * Adds a link of the page (absolute, or relative to `base`) with its anchor text; true when it
   * is a new outlink. Its metadata is built only if read later.
   */
  addLink(href: string, base: URL, anchor?: string, hints?: { readonly sitemap?: boolean }): boolean {
    const resolved = this.resolveCached(href, base);
    if (resolved === undefined) {
      this.rejected++;
      return false;
    }
    let target = hints?.sitemap ? undefined : this.decided.get(resolved);
    if (target === undefined) {
      // URLs come from the URL parser (`href`) or a normaliser, never from the page's string.
      target = this.urlFilter.filter(this.source, this.pageMetadata, resolved, hints);
      if (!hints?.sitemap) this.decided.set(resolved, target);
    }
    if (target === null) {
      this.rejected++;
      return false;
    }
    const existing = this.byUrl.get(target);
    if (existing) {
      this.addAnchor(existing, anchor);
      return false;
    }
    if (this.options.max >= 0 && this.byUrl.size >= this.options.max) {
      this.overLimit++;
      return false;
    }
    const entry: Entry = { url: target, anchors: undefined, metadata: undefined };
    this.byUrl.set(target, entry);
    this.lastAdded = entry;
    this.addAnchor(entry, anchor);
    return true;
  }

  /**
   * Adds a link like `addLink`, and returns the new outlink's metadata for the caller to decorate
   * (sitemap entries, parse filters); undefined when the link was dropped or merged into another.
   */
  add(
    href: string,
    base: URL,
    anchor?: string,
    hints?: { readonly sitemap?: boolean },
  ): Metadata | undefined {
    return this.addLink(href, base, anchor, hints) ? this.metadataOf(this.lastAdded!) : undefined;
  }

  /** True if the (filtered) URL is already an outlink. */
  has(url: string): boolean {
    return this.byUrl.has(url);
  }

  /** The entry's metadata, built on first use from the page's template and the anchors so far. */
  metadataOf(entry: Entry): Metadata {
    if (entry.metadata) return entry.metadata;
    this.template ??= this.transfer.forOutlink(this.pageUrl, this.pageMetadata);
    const md = this.template.copy();
    if (entry.anchors) md.addValues(MD.anchors, entry.anchors);
    entry.metadata = md;
    return md;
  }

  private addAnchor(entry: Entry, anchor?: string): void {
    if (!this.options.trackAnchors || anchor === undefined || anchor.trim() === '') return;
    if (entry.anchors?.includes(anchor)) return;
    const copy = detach(anchor);
    if (entry.anchors) entry.anchors.push(copy);
    else entry.anchors = [copy];
    entry.metadata?.addValue(MD.anchors, copy);
  }

  /** The outlinks, in the order first seen. */
  outlinks(): Outlink[] {
    const out: Outlink[] = [];
    for (const e of this.byUrl.values()) out.push(new LazyOutlink(e, this));
    return out;
  }
}
