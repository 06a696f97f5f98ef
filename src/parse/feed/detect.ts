import { MD } from '../../model/keys.js';
import type { Metadata } from '../../model/metadata.js';
import { mediaType } from '../mime.js';

/** Media types that name a feed: the document is parsed as one without looking at its bytes. */
const FEED_TYPES = new Set([
  'application/rss+xml',
  'application/atom+xml',
  'application/feed+json',
  'application/x-rss+xml',
  'application/rdf+xml+rss',
]);

/** Bytes searched for the root element: room for an XML declaration, stylesheets, comments, a DTD. */
export const FEED_SNIFF_BYTES = 2048;

const ATOM_NS = 'http://www.w3.org/2005/Atom';
const RSS1_NS = /purl\.org\/rss\/1\.0\/|my\.netscape\.com\/rdf\/simple\/0\.9\//;
const JSON_FEED = /"version"\s*:\s*"https?:\/\/jsonfeed\.org\/version\//i;

/**
 * Whether a fetched document goes to the feed parser (StormCrawler's FeedParserBolt):
 * - metadata `isFeed` "true" (any case), from a seed, an HTML page's `<link rel="alternate">` or an
 *   earlier fetch, decides;
 * - else, with `sniff` (`feed.sniffContent`), a feed media type (RSS, Atom, JSON Feed) decides, and
 *   a document served as XML, JSON, text or without a type is a feed when its root element is
 *   `<rss>`, an Atom `<feed>` or an RSS 1.0 `<rdf:RDF>`, or when it is JSON whose first bytes name a
 *   jsonfeed.org version. Documents served as HTML are never sniffed, so pages pay one string test.
 * DIFFERS FROM STORMCRAWLER: it sniffs only `rss+xml` types and `<rss ` in the first 100 bytes, so
 * Atom, RSS 1.0, JSON Feed and any `<rss>` after a long prolog are missed.
 */
export function isFeedDocument(
  md: Metadata,
  content: Buffer,
  contentType: string | undefined,
  sniff: boolean,
): boolean {
  if (md.getFirstValue(MD.isFeed)?.trim().toLowerCase() === 'true') return true;
  if (!sniff) return false;
  const type = mediaType(contentType);
  if (FEED_TYPES.has(type)) return true;
  if (!sniffable(type)) return false;
  return sniffFeedFormat(content) !== undefined;
}

function sniffable(type: string): boolean {
  if (type.includes('html')) return false;
  return (
    type === '' ||
    type === 'text/plain' ||
    type === 'application/octet-stream' ||
    type.endsWith('xml') ||
    type.endsWith('json')
  );
}

/** The feed format the first bytes show, or undefined. */
export function sniffFeedFormat(content: Buffer): 'xml' | 'json' | undefined {
  let i = content[0] === 0xef && content[1] === 0xbb && content[2] === 0xbf ? 3 : 0;
  while (i < content.length && (content[i] === 0x20 || (content[i]! >= 0x09 && content[i]! <= 0x0d))) i++;
  const first = content[i];
  if (first !== 0x3c /* < */ && first !== 0x7b /* { */) return undefined;
  const head = content.toString('latin1', i, Math.min(content.length, i + FEED_SNIFF_BYTES));
  if (first === 0x7b) return JSON_FEED.test(head) ? 'json' : undefined;
  const root = rootElement(head);
  if (root === undefined) return undefined;
  const local = root.slice(root.indexOf(':') + 1).toLowerCase();
  if (local === 'rss') return 'xml';
  if (local === 'feed') return head.includes(ATOM_NS) ? 'xml' : undefined;
  if (local === 'rdf') return RSS1_NS.test(head) ? 'xml' : undefined;
  return undefined;
}

/** The qualified name of the first element after the prolog (declaration, PIs, comments, DTD). */
export function rootElement(head: string): string | undefined {
  let at = 0;
  for (;;) {
    const lt = head.indexOf('<', at);
    if (lt < 0) return undefined;
    if (head.startsWith('<!--', lt)) {
      const end = head.indexOf('-->', lt + 4);
      if (end < 0) return undefined;
      at = end + 3;
    } else if (head[lt + 1] === '?' || head[lt + 1] === '!') {
      // A DOCTYPE's internal subset holds '>' of its own; it ends at "]>".
      const bracket = head.indexOf('[', lt);
      const close = head.indexOf('>', lt);
      const end = bracket >= 0 && bracket < close ? head.indexOf(']>', bracket) + 1 : close;
      if (end <= 0) return undefined;
      at = end + 1;
    } else {
      return /^<([A-Za-z_][\w.:-]*)/.exec(head.slice(lt, lt + 256))?.[1];
    }
  }
}
