import { CrawlerError } from '../../util/errors.js';
import type { SitemapStats } from '../types.js';
import { streamXml } from '../xml/stream.js';
import {
  attributeValues,
  CONTAINER,
  extensionOf,
  linkAttributes,
  type SitemapExtension,
} from './extensions.js';

/** One `<url>` of a urlset, `<sitemap>` of an index, line of a text sitemap, or feed item. */
export interface SitemapEntry {
  readonly loc: string;
  readonly lastmod: string | undefined;
  /** `<EXT>.<attr>` → values, in document order. */
  readonly extensions: readonly [string, string[]][];
}

export type SitemapType = SitemapStats['type'];

/** The document is not a sitemap, or not a whole one. */
export class SitemapFormatError extends CrawlerError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('SITEMAP_FORMAT', message, options);
  }
}

const ROOTS: Record<string, SitemapType> = {
  urlset: 'urlset',
  sitemapindex: 'sitemapindex',
  rss: 'rss',
  rdf: 'rss',
  feed: 'atom',
};
/** The element of one entry and the elements of its location and date, by document type. */
const ENTRY: Record<SitemapType, { entry: string; loc: string; date: readonly string[] }> = {
  urlset: { entry: 'url', loc: 'loc', date: ['lastmod'] },
  sitemapindex: { entry: 'sitemap', loc: 'loc', date: ['lastmod'] },
  rss: { entry: 'item', loc: 'link', date: ['pubdate', 'date'] },
  atom: { entry: 'entry', loc: 'link', date: ['updated', 'published'] },
  text: { entry: '', loc: '', date: [] },
};

const collapse = (s: string) => s.replace(/\s+/g, ' ').trim();

/**
 * Streams an XML sitemap, index, RSS or Atom feed (lenient like crawler-commons' non-strict
 * parser: any namespace or none is accepted for the sitemap elements) and calls `onEntry` for each
 * entry with a location, as soon as it closes. Extension attributes are collected for the enabled
 * extensions only, by namespace. Throws SitemapFormatError when the root element is not one of
 * urlset, sitemapindex, rss, rdf:RDF or feed, or when the document ends before its root element
 * closes (truncated) and `acceptTruncated` is false.
 */
export function parseSitemapXml(
  xml: string,
  extensions: readonly SitemapExtension[],
  onEntry: (entry: SitemapEntry) => void,
  acceptTruncated = false,
): SitemapType {
  let type: SitemapType | undefined;
  let spec = ENTRY.text;
  // Every prefix declared so far, wherever (lenient: a prefix out of scope still names its extension).
  const namespaces = new Map<string, string>();
  const declare = (declared: ReadonlyMap<string, string> | undefined) => {
    for (const [prefix, uri] of declared ?? []) namespaces.set(prefix, uri);
  };
  let entryDepth = -1;
  let loc: string | undefined;
  let lastmod: string | undefined;
  let ext: [string, string[]][] = [];
  let container: { ext: SitemapExtension; depth: number } | undefined;

  const complete = streamXml(xml, {
    root(el) {
      declare(el.declared);
      type = ROOTS[el.local];
      if (!type) throw new SitemapFormatError(`not a sitemap: root element <${el.name}>`);
      spec = ENTRY[type];
    },
    open(el, depth) {
      declare(el.declared);
      const { local, attribs } = el;
      if (local === spec.entry && entryDepth < 0) {
        entryDepth = depth;
        loc = lastmod = undefined;
        ext = [];
      } else if (entryDepth > 0 && !container && extensions.length > 0) {
        const e = extensionOf(namespaces.get(el.prefix), extensions);
        if (e && CONTAINER[e] === local) {
          container = { ext: e, depth };
          if (e === 'LINKS') for (const [k, v] of linkAttributes(attribs)) ext.push([`LINKS.${k}`, v]);
        }
      }
      if (type === 'atom' && local === 'link' && depth === entryDepth + 1 && loc === undefined) {
        const rel = attribs.rel?.trim().toLowerCase();
        if ((rel === undefined || rel === 'alternate') && attribs.href) loc = attribs.href.trim();
      }
      // Only text inside an entry matters; the whitespace between entries is not kept.
      if (entryDepth > 0) el.text = [];
    },
    close(el, depth, implied) {
      const text = () => collapse(el.text?.join('') ?? '');
      if (container && depth > container.depth) {
        for (const [k, v] of attributeValues(container.ext, el.local, el.attribs, text()))
          ext.push([`${container.ext}.${k}`, v]);
      } else if (container && depth === container.depth) {
        container = undefined;
      } else if (depth === entryDepth + 1 && el.local === spec.loc && type !== 'atom') {
        loc = text();
      } else if (depth === entryDepth + 1 && spec.date.includes(el.local)) {
        lastmod ??= text();
      } else if (depth === entryDepth) {
        entryDepth = -1;
        // An entry closed only because the document ended is cut: its location may be too.
        if (loc && !implied) onEntry({ loc, lastmod: lastmod || undefined, extensions: ext });
      }
    },
  });
  if (!type) throw new SitemapFormatError('not a sitemap: no XML root element');
  if (!complete && !acceptTruncated)
    throw new SitemapFormatError(`truncated ${type}: the document ends before </${type}>`);
  return type;
}

const URL_LINE = /^https?:\/\/\S+$/i;

/**
 * A text sitemap: one absolute http(s) URL per line (sitemaps.org), blank and other lines ignored.
 * Throws SitemapFormatError when no line is a URL and the content is not empty of text.
 */
export function parseSitemapText(text: string, onEntry: (entry: SitemapEntry) => void): SitemapType {
  let found = 0;
  for (const raw of text.split(/\r\n|\r|\n/)) {
    const line = raw.trim();
    if (!URL_LINE.test(line)) continue;
    found++;
    onEntry({ loc: line, lastmod: undefined, extensions: [] });
  }
  if (found === 0) throw new SitemapFormatError('not a sitemap: no XML and no URL lines');
  return 'text';
}
