import { ERROR_SOURCE, MD } from '../../model/keys.js';
import type { Metadata } from '../../model/metadata.js';
import { type LinkList, type LinkListDeps, parseLinkList } from '../link-list.js';
import { failed } from '../results.js';
import type { ParseInput, ParseStatus, SitemapStats } from '../types.js';
import { decodeXml } from '../xml/decode.js';
import { w3cDate } from './dates.js';
import { inflateSitemap } from './detect.js';
import { parseSitemapText, parseSitemapXml, type SitemapEntry, type SitemapType } from './xml.js';

/** What the parser of a sitemap (or a feed) needs. */
export type SitemapDeps = LinkListDeps;

/**
 * Parses a document known to be a sitemap (StormCrawler's SiteMapParserBolt). Never throws.
 * - index → each sub-sitemap an outlink with `isSitemap=true`, `sitemap.lastModified`, and with
 *   `sitemap.schedule.delay` > 0 the n-th one `scheduler.delay.mins` = (n-1) × delay;
 * - urlset, text, RSS, Atom → each URL an outlink with `isSitemap=false`, `sitemap.lastModified`
 *   and the attributes of the enabled extensions;
 * - entries past `sitemap.max.urls` are dropped and counted, as are entries older than
 *   `sitemap.filter.hours.since.modified` and entries the URL filters reject;
 * - the sitemap itself ends FETCHED (never indexed), after the parse filters ran with no DOM;
 * - a broken sitemap (not XML nor a URL list, wrong root, truncated, corrupt gzip) ends
 *   FETCH_ERROR with `error.source` "sitemap parsing" and loses its `isSitemap` mark, so that a page
 *   wrongly marked as a sitemap is parsed as a page on its next fetch, as newer StormCrawler does.
 *   DIFFERS FROM STORMCRAWLER 3.4 (ERROR, which never comes back): a sitemap may be fixed tomorrow.
 *   A truncated sitemap whose body the fetcher cut (`http.trimmed`) keeps the entries read so far.
 * DIFFERS FROM STORMCRAWLER: `sitemap.lastModified` is ISO-8601, not Java's `Date.toString()`.
 */
export function parseSitemap(input: ParseInput, deps: SitemapDeps): ParseStatus {
  return parseLinkList(input, deps, {
    mark: MD.isSitemap,
    hours: (s) => s.sitemap.filterHoursSinceModified,
    read: (input, md, list) => readEntries(input, md, list, deps),
    broken: (input, md, message) => {
      md.remove(MD.isSitemap);
      return failed(input.url, md, 'FETCH_ERROR', { source: ERROR_SOURCE.sitemap, message });
    },
  });
}

function readEntries(
  input: ParseInput,
  md: Metadata,
  list: LinkList,
  deps: SitemapDeps,
): { content: Buffer; sitemap: SitemapStats } {
  const s = deps.settings;
  const sm = s.sitemap;
  const { collector, base, oldest } = list;
  const counts = { entries: 0, overLimit: 0, tooOld: 0 };
  let type: SitemapType = 'urlset';
  let kept = 0;
  const onEntry = (e: SitemapEntry) => {
    counts.entries++;
    if (sm.maxUrls >= 0 && counts.entries > sm.maxUrls) {
      counts.overLimit++;
      return;
    }
    const modified = w3cDate(e.lastmod);
    if (modified !== undefined && modified < oldest) {
      counts.tooOld++;
      return;
    }
    // Locations should be absolute (sitemaps.org); relative ones are resolved, as browsers would.
    const out = collector.add(e.loc, base, undefined, { sitemap: type === 'sitemapindex' });
    if (!out) return;
    const index = type === 'sitemapindex';
    out.setValue(MD.isSitemap, String(index));
    if (modified !== undefined) out.setValue(MD.sitemapLastModified, new Date(modified).toISOString());
    if (index && sm.scheduleDelayMinutes > 0 && kept > 0)
      out.setValue(MD.delayMins, String(kept * sm.scheduleDelayMinutes));
    for (const [key, values] of e.extensions) out.addValues(key, values);
    kept++;
  };
  const content = inflateSitemap(input.content, sm.maxDecompressedBytes);
  const text = decodeXml(content, md.getFirstValue(s.protocolPrefix + 'content-type'));
  if (/^\s*</.test(text)) {
    const trimmed = input.metadata.getFirstValue(MD.trimmed) === 'true';
    type = sniffType(text);
    type = parseSitemapXml(text, sm.extensions, onEntry, trimmed);
  } else {
    type = 'text';
    parseSitemapText(text, onEntry);
  }
  return { content, sitemap: { type, ...counts, rejected: collector.rejected } };
}

/** The root element decides how entries are read; the XML parser checks it again. */
function sniffType(xml: string): SitemapType {
  const m = /<(?![?!])(?:[\w.-]+:)?([\w.-]+)/.exec(xml);
  const root = m?.[1]?.toLowerCase();
  return root === 'sitemapindex'
    ? 'sitemapindex'
    : root === 'rss' || root === 'rdf'
      ? 'rss'
      : root === 'feed'
        ? 'atom'
        : 'urlset';
}
