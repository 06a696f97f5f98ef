import { ERROR_SOURCE, MD } from '../../model/keys.js';
import type { Metadata } from '../../model/metadata.js';
import type { Clock } from '../../util/clock.js';
import { canonicalCharset, charsetOfContentType, decode } from '../charset.js';
import type { ParserDeps } from '../html/page.js';
import { OutlinkCollector } from '../outlinks.js';
import { failed, runFilters, simpleContext } from '../results.js';
import { detachMetadata } from '../strings.js';
import type { ParseInput, ParseStatus, SitemapStats } from '../types.js';
import { w3cDate } from './dates.js';
import { inflateSitemap } from './detect.js';
import { parseSitemapText, parseSitemapXml, type SitemapEntry, type SitemapType } from './xml.js';

export interface SitemapDeps extends ParserDeps {
  /** For `sitemap.filter.hours.since.modified`. */
  readonly clock: Clock;
}

/** Set by the fetcher when it cut the body at http.content.limit. */

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
  const md = input.metadata.copy();
  md.setValue(MD.isSitemap, 'true');
  try {
    return parse(input, md, deps);
  } catch (e) {
    return broken(input.url, md, e);
  }
}

function broken(url: string, md: Metadata, e: unknown): ParseStatus {
  md.remove(MD.isSitemap);
  const why = e instanceof Error ? e.message : String(e);
  return failed(url, md, 'FETCH_ERROR', ERROR_SOURCE.sitemap, `Exception while parsing ${url}: ${why}`);
}

function parse(input: ParseInput, md: Metadata, deps: SitemapDeps): ParseStatus {
  const s = deps.settings;
  const sm = s.sitemap;
  const base = new URL(input.url);
  const collector = new OutlinkCollector(input.url, input.metadata, deps.transfer, deps.urlFilter, {
    max: -1,
    trackAnchors: false,
  });
  const oldest =
    sm.filterHoursSinceModified >= 0 ? deps.clock.now() - sm.filterHoursSinceModified * 3_600_000 : -Infinity;
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
  let content: Buffer;
  try {
    content = inflateSitemap(input.content, sm.maxDecompressedBytes);
    const text = decodeSitemap(content, md.getFirstValue(s.protocolPrefix + 'content-type'));
    if (/^\s*</.test(text)) {
      const trimmed = input.metadata.getFirstValue(MD.trimmed) === 'true';
      type = sniffType(text);
      type = parseSitemapXml(text, sm.extensions, onEntry, trimmed);
    } else {
      type = 'text';
      parseSitemapText(text, onEntry);
    }
  } catch (e) {
    return broken(input.url, md, e);
  }
  const stats: SitemapStats = { type, ...counts, rejected: collector.rejected };
  const context = simpleContext(md, content, '', () => collector.outlinks());
  context.addOutlink = (href) => collector.add(href, base);
  const failure = runFilters(deps.filters, input.url, null, context);
  if (failure) return failure;
  detachMetadata(md);
  return {
    kind: 'status',
    url: input.url,
    status: 'FETCHED',
    metadata: md,
    outlinks: collector.outlinks(),
    sitemap: stats,
  };
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

/** XML sitemaps and feeds: BOM, then the XML declaration, then the header charset, else UTF-8. */
export function decodeSitemap(content: Buffer, contentType: string | undefined): string {
  let charset = 'utf-8';
  let bomLength = 0;
  if (content[0] === 0xef && content[1] === 0xbb && content[2] === 0xbf) bomLength = 3;
  else if (content[0] === 0xff && content[1] === 0xfe) [charset, bomLength] = ['utf-16le', 2];
  else if (content[0] === 0xfe && content[1] === 0xff) [charset, bomLength] = ['utf-16be', 2];
  else {
    const decl = /^\s*<\?xml[^>]*encoding\s*=\s*["']([-\w.:]+)/.exec(content.toString('latin1', 0, 200))?.[1];
    charset = canonicalCharset(decl) ?? canonicalCharset(charsetOfContentType(contentType)) ?? 'utf-8';
  }
  return decode(content, { charset, source: 'default', bomLength });
}
