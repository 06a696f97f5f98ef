import { constants, gunzipSync } from 'node:zlib';
import { MD } from '../../model/keys.js';
import type { Metadata } from '../../model/metadata.js';
import { mediaType } from '../mime.js';

/** Found in the first bytes of every sitemaps.org sitemap and index (http and https spellings). */
const NAMESPACE_CLUE = '://www.sitemaps.org/schemas/sitemap/';

export const isGzip = (b: Uint8Array) => b.length >= 2 && b[0] === 0x1f && b[1] === 0x8b;

/**
 * Whether a fetched document is a sitemap (StormCrawler's SiteMapParserBolt):
 * - metadata `isSitemap` decides when present ("true", any case, is a sitemap; anything else is not);
 * - when absent, the first `sniffLength` bytes are searched for the sitemaps.org namespace, unless
 *   the Content-Type names a page (HTML, XHTML) or something that cannot be a sitemap (as newer
 *   StormCrawler, a page is never promoted to a sitemap because its text mentions the namespace).
 *   Gzip content is sniffed after inflating its first few KB.
 * DIFFERS FROM STORMCRAWLER: `sitemap.offset.guess` defaults to 1024 instead of 300 bytes, since an
 * XML declaration, a stylesheet instruction and a comment often push the namespace past 300.
 */
export function isSitemapDocument(
  md: Metadata,
  content: Buffer,
  contentType: string | undefined,
  sniffLength: number,
): boolean {
  const flag = md.getFirstValue(MD.isSitemap);
  if (flag !== undefined) return flag.trim().toLowerCase() === 'true';
  if (!sniffableType(mediaType(contentType)) || sniffLength <= 0) return false;
  const head = isGzip(content) ? inflateHead(content) : content;
  if (!head) return false;
  return head.toString('latin1', 0, Math.min(sniffLength, head.length)).includes(NAMESPACE_CLUE);
}

function sniffableType(type: string): boolean {
  if (type === '' || type === 'text/plain' || type === 'application/octet-stream') return true;
  if (type.includes('html')) return false;
  return type.endsWith('xml') || type.includes('gzip');
}

/** The first KBs of a gzip stream, or undefined when it is not one. */
function inflateHead(content: Buffer): Buffer | undefined {
  try {
    return gunzipSync(content.subarray(0, 4096), { finishFlush: constants.Z_SYNC_FLUSH });
  } catch {
    return undefined;
  }
}

/**
 * The content of a sitemap, inflated when it is gzip (by its magic bytes; a `.gz` URL or a gzip
 * Content-Type whose body the HTTP layer already inflated is read as is). Throws when the stream is
 * corrupt, truncated or inflates beyond `maxBytes`.
 */
export function inflateSitemap(content: Buffer, maxBytes: number): Buffer {
  if (!isGzip(content)) return content;
  try {
    return gunzipSync(content, { maxOutputLength: maxBytes });
  } catch (e) {
    if (e instanceof RangeError || (e as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE')
      throw new Error(`gzip sitemap inflates beyond ${maxBytes} bytes`);
    throw new Error(`corrupt gzip sitemap: ${(e as Error).message}`);
  }
}
