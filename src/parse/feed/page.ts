import { ERROR_SOURCE, MD } from '../../model/keys.js';
import type { Metadata } from '../../model/metadata.js';
import { type LinkList, type LinkListDeps, parseLinkList } from '../link-list.js';
import { mediaType } from '../mime.js';
import { failed } from '../results.js';
import { w3cDate } from '../sitemap/dates.js';
import type { ParseInput, ParseStatus } from '../types.js';
import { decodeXml } from '../xml/decode.js';
import { FEED_SNIFF_BYTES, rootElement, sniffFeedFormat } from './detect.js';
import type { FeedEntry } from './entry.js';
import { readJsonFeed } from './json.js';
import { cutText, htmlToText } from './text.js';
import { readXmlFeed } from './xml.js';

/** Titles are kept whole up to this many characters (a title longer than that is not one). */
const TITLE_MAX = 1024;

/**
 * Parses a document known to be a feed (StormCrawler's FeedParserBolt). Synchronous, never throws.
 * - each entry with a link (else a permalink guid or an http(s) id) becomes an outlink, resolved
 *   against the feed URL (Atom: its xml:base) and passed through the URL filters, with
 *   `feed.title`, `feed.publishedDate` (ISO-8601) and `feed.description` (its text, cut at
 *   `feed.description.maxlength`); entries published before now minus
 *   `feed.filter.hours.since.published` hours are dropped (entries without a date never are);
 * - the feed ends FETCHED with `isFeed=true` after the parse filters ran with no DOM; it is never
 *   indexed;
 * - a feed that cannot be read (not XML nor JSON, a root that is no feed, cut short, not a JSON
 *   Feed) ends ERROR with `error.source` "feed parsing" and the reason; it keeps `isFeed`, so
 *   `fetchInterval.ERROR.isFeed=true` rules apply, unless it turned out to be an HTML page: then
 *   the mark goes, and the next fetch (after reset-errors) parses it as a page. A feed the fetcher
 *   cut at http.content.limit (`http.trimmed`) keeps the entries read so far.
 * DIFFERS FROM STORMCRAWLER: `feed.publishedDate` is ISO-8601, not Java's Date.toString();
 * `feed.description` is text, not raw HTML, and bounded; duplicate entries give one outlink; a guid
 * or id that is not a URL is not resolved into a bogus one.
 */
export function parseFeed(input: ParseInput, deps: LinkListDeps): ParseStatus {
  return parseLinkList(input, deps, {
    mark: MD.isFeed,
    hours: (s) => s.feed.filterHoursSincePublished,
    read: (input, md, list) => {
      readEntries(input, md, list, deps);
      return { content: input.content };
    },
    broken,
  });
}

function broken(input: ParseInput, md: Metadata, message: string): ParseStatus {
  if (rootElement(input.content.toString('latin1', 0, FEED_SNIFF_BYTES))?.toLowerCase() === 'html')
    md.remove(MD.isFeed);
  return failed(input.url, md, 'ERROR', { source: ERROR_SOURCE.feed, message });
}

function readEntries(input: ParseInput, md: Metadata, list: LinkList, deps: LinkListDeps): void {
  const s = deps.settings;
  const f = s.feed;
  const { collector, base: feedUrl, oldest } = list;
  const bases = new Map<string, URL>();
  const baseOf = (b: string | undefined) => {
    if (b === undefined) return feedUrl;
    let u = bases.get(b);
    if (!u) {
      u = new URL(b, feedUrl);
      bases.set(b, u);
    }
    return u;
  };
  const onEntry = (e: FeedEntry) => {
    const published = w3cDate(e.published);
    if (published !== undefined && published < oldest) return;
    const out = collector.add(e.link, baseOf(e.base));
    if (!out) return;
    const title = e.title === undefined ? '' : e.titleIsMarkup ? htmlToText(e.title) : e.title;
    if (title !== '') out.setValue(MD.feedTitle, cutText(title, TITLE_MAX));
    if (published !== undefined) out.setValue(MD.feedPublishedDate, new Date(published).toISOString());
    if (e.description !== undefined && f.descriptionMaxLength > 0) {
      const text = e.descriptionIsMarkup ? htmlToText(e.description) : e.description;
      if (text !== '') out.setValue(MD.feedDescription, cutText(text, f.descriptionMaxLength));
    }
  };
  const contentType = md.getFirstValue(s.protocolPrefix + 'content-type');
  const text = decodeXml(input.content, contentType);
  if (isJson(input.content, contentType)) readJsonFeed(text, onEntry);
  else readXmlFeed(text, onEntry, input.metadata.getFirstValue(MD.trimmed) === 'true');
}

/** JSON by its media type, or by its first byte when the type says neither JSON nor XML. */
function isJson(content: Buffer, contentType: string | undefined): boolean {
  const type = mediaType(contentType);
  if (type.endsWith('json')) return true;
  if (type.endsWith('xml')) return false;
  return sniffFeedFormat(content) === 'json' || /^\s*\{/.test(content.toString('latin1', 0, 64));
}
