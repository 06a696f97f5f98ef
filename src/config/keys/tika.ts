import { bool, duration, int, list, str } from '../define.js';

/** The document types sent to Tika by default: PDF, Word, Excel, PowerPoint, OpenDocument, RTF, EPUB. */
export const DOCUMENT_TYPES = [
  'application/pdf',
  'application/msword',
  'application/vnd\\.ms-(excel|powerpoint|word)(\\..+)?',
  'application/vnd\\.openxmlformats-officedocument\\..+',
  'application/vnd\\.oasis\\.opendocument\\..+',
  'application/(rtf|x-rtf)',
  'text/rtf',
  'application/epub\\+zip',
  // What the crawler's own sniffing calls an OLE2 or OOXML file it cannot name more precisely.
  'application/x-tika-(msoffice|ooxml)',
];

/**
 * Documents through Apache Tika (src/tika): which fetched types go to Tika, where Tika runs and
 * its bounds. Names follow StormCrawler's external/tika ParserBolt (`parser.mimetype.whitelist`,
 * `parser.tika.timeout`) where it has one; the server keys are ours (it embeds Tika in the JVM).
 */
export const tikaKeys = {
  'tika.enabled': bool(
    true,
    'documents of the types in parser.mimetype.whitelist go to Apache Tika; false = they end ERROR as other non-HTML content',
  ),
  'tika.server.url': str(
    '',
    'a running Tika server (e.g. http://tika:9998, the apache/tika image); empty = the embedded one, started on first need',
  ),
  'tika.max.concurrent': int(2, 'documents parsed by Tika at once; more wait (and the fetcher with them)', 1),
  'parser.tika.timeout': duration(
    60_000,
    'time Tika gets for one document before it ends FETCH_ERROR (tika.timeout)',
  ),
  'parser.mimetype.whitelist': list(
    DOCUMENT_TYPES,
    'media types (regular expressions matching the whole type) sent to Tika',
  ),
  'tika.embedded.port': int(9998, 'port of the embedded Tika server on 127.0.0.1', 1),
  'tika.embedded.heap': str('512m', 'heap of the embedded Tika server JVM (-Xmx)'),
} as const;
