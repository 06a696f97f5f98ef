import { bool, int, list, str } from '../define.js';
import { feedKeys } from './feed.js';

/**
 * Keys of the parse stage: HTML parsing, text extraction, robots directives, sitemaps and parse
 * filters (StormCrawler's JSoupParserBolt, JSoupTextExtractor and SiteMapParserBolt keys).
 * `redirections.allowed` (rules), `protocol.md.prefix` (protocol) and `sitemap.discovery` (filters)
 * are read here too but declared by their owners.
 */
export const parseKeys = {
  'parsefilters.config.file': str(
    'parsefilters.json',
    'JSON file of parse filters; a relative path is tried in the working directory, then in the conf/ folder shipped with the crawler; empty = no parse filters',
  ),
  'jsoup.treat.non.html.as.error': bool(
    true,
    'content that is neither HTML nor text (text/*) ends ERROR; false = kept with empty text and no links',
  ),
  'jsoup.ignore.meta.redirections': bool(
    false,
    'ignore <meta http-equiv="refresh"> instead of turning the page into a REDIRECTION',
  ),
  'parser.threads': int(
    0,
    'parse pages on this many worker threads beside the event loop; 0 = parse on the event loop itself',
    0,
  ),
  'parser.emitOutlinks': bool(true, 'emit the links of parsed pages as DISCOVERED URLs'),
  'parser.emitOutlinks.max.per.page': int(-1, 'keep at most this many distinct links per page; -1 = all', -1),
  'track.anchors': bool(true, 'store the anchor texts of a link in its metadata under "anchors"'),
  'detect.charset.maxlength': int(
    10000,
    'bytes read to find a <meta> charset and to check UTF-8 validity; -1 = the whole page',
    -1,
  ),
  'textextractor.include.pattern': list(
    [],
    'selectors of the main content; the first one that matches gives the text (TAG, TAG[attr="value"], #id, .class and compounds of them)',
  ),
  'textextractor.exclude.tags': list([], 'elements whose text is left out (tag names)'),
  'textextractor.no.text': bool(false, 'extract no text at all'),
  'textextractor.whole.page': bool(
    false,
    'the text of the whole body (menus, sidebars, footers included) instead of the main content; no Markdown',
  ),
  'textextractor.markdown': bool(true, 'also write the main content as Markdown (the markdown field)'),
  'textextractor.skip.after': int(-1, 'keep at most this many characters of text; -1 = all', -1),
  'robots.noFollow.strict': bool(
    true,
    'nofollow pages give no links and rel=nofollow links are dropped; false = kept without anchors',
  ),
  'http.robots.meta.skip': bool(false, 'ignore <meta name="robots"> directives'),
  'http.robots.headers.skip': bool(false, 'ignore the X-Robots-Tag response header'),
  'sitemap.filter.hours.since.modified': int(
    -1,
    'drop sitemap entries whose lastmod is older than this many hours; -1 = keep all',
    -1,
  ),
  'sitemap.schedule.delay': int(
    -1,
    'minutes between the fetches of the sub-sitemaps of a sitemap index; -1 = no staggering',
    -1,
  ),
  'sitemap.extensions': list(
    [],
    'sitemap extensions whose attributes go into the metadata of the URLs: IMAGE, LINKS, MOBILE, NEWS, VIDEO',
  ),
  'sitemap.max.urls': int(
    50000,
    'entries kept per sitemap file (the sitemaps.org limit); the rest are dropped and counted; -1 = all',
    -1,
  ),
  'sitemap.offset.guess': int(
    1024,
    'bytes searched for the sitemaps.org namespace when the metadata does not say whether a document is a sitemap; 0 = never sniff',
    0,
  ),
  ...feedKeys,
} as const;
