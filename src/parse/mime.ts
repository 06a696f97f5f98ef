/**
 * The media type of fetched content, for `parse.Content-Type` and the HTML check.
 *
 * DIFFERS FROM STORMCRAWLER: it asks Apache Tika, which weighs magic bytes, the URL and the header.
 * We sniff a few strong signatures instead: binary formats (PDF, images, archives) win over a
 * generic, text or markup header, since servers often send them as text/html; markup (`<!doctype html`,
 * `<html`, `<?xml`) wins only over a missing or generic header (application/octet-stream,
 * text/plain, application/unknown); otherwise the header's media type is used as sent (lowercased,
 * without parameters). Nothing sniffed and no header gives "" (treated as HTML, as StormCrawler
 * treats a blank type).
 */

/** The media type of a Content-Type value: lowercased, without parameters. */
export function mediaType(contentType: string | undefined): string {
  if (!contentType) return '';
  const semi = contentType.indexOf(';');
  return (semi < 0 ? contentType : contentType.slice(0, semi)).trim().toLowerCase();
}

const GENERIC = new Set([
  '',
  'application/octet-stream',
  'text/plain',
  'application/unknown',
  'unknown/unknown',
]);

const startsWith = (b: Buffer, at: number, sig: readonly number[]) => sig.every((x, i) => b[at + i] === x);

/** Strong binary signatures, checked at offset 0. */
const MAGIC: readonly (readonly [readonly number[], string])[] = [
  [[0x25, 0x50, 0x44, 0x46, 0x2d], 'application/pdf'],
  [[0x89, 0x50, 0x4e, 0x47], 'image/png'],
  [[0xff, 0xd8, 0xff], 'image/jpeg'],
  [[0x47, 0x49, 0x46, 0x38], 'image/gif'],
  [[0x1f, 0x8b], 'application/gzip'],
  [[0x50, 0x4b, 0x03, 0x04], 'application/zip'],
  [[0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1], 'application/x-tika-msoffice'],
  [[0x49, 0x44, 0x33], 'audio/mpeg'],
  [[0x4f, 0x67, 0x67, 0x53], 'application/ogg'],
];

/**
 * Markup type from the first bytes (after a BOM and whitespace): "text/html", "application/xhtml+xml",
 * "application/xml" or undefined.
 */
export function sniffMarkup(content: Buffer): string | undefined {
  let i = 0;
  if (content[0] === 0xef && content[1] === 0xbb && content[2] === 0xbf) i = 3;
  while (i < content.length && (content[i] === 0x20 || (content[i]! >= 0x09 && content[i]! <= 0x0d))) i++;
  if (content[i] !== 0x3c) return undefined;
  const head = content.toString('latin1', i, Math.min(content.length, i + 512)).toLowerCase();
  if (head.startsWith('<?xml'))
    return /<(!doctype\s+)?html[\s>]/.test(head) ? 'application/xhtml+xml' : 'application/xml';
  if (/^<(!doctype\s+html|html|head|body|title|!--)[\s>]/.test(head)) return 'text/html';
  return undefined;
}

function sniffMagic(content: Buffer): string | undefined {
  for (const [sig, type] of MAGIC) if (startsWith(content, 0, sig)) return type;
  if (content.length >= 12 && startsWith(content, 0, [0x52, 0x49, 0x46, 0x46])) {
    const kind = content.toString('latin1', 8, 12);
    if (kind === 'WEBP') return 'image/webp';
    if (kind === 'WAVE') return 'audio/wav';
    if (kind === 'AVI ') return 'video/x-msvideo';
  }
  return undefined;
}

// A binary signature overrides these declarations, but not a specific one such as a .docx type
// (itself a zip file) or application/msword.
const OVERRIDABLE = (declared: string) =>
  GENERIC.has(declared) ||
  declared.startsWith('text/') ||
  declared.includes('html') ||
  declared.endsWith('xml');

/** The media type to use for `content` sent with this Content-Type header (see the file comment). */
export function detectMediaType(content: Buffer, headerContentType: string | undefined): string {
  const declared = mediaType(headerContentType);
  const magic = sniffMagic(content);
  if (magic && OVERRIDABLE(declared)) return magic;
  if (GENERIC.has(declared)) return sniffMarkup(content) ?? declared;
  return declared;
}

/** HTML for the parser: any type mentioning "html", or a blank one (as StormCrawler). */
export function isHtmlType(type: string): boolean {
  return type === '' || type.includes('html');
}

/**
 * Text stored as it is (its decoded characters, cut at the text limits): every text/* type but
 * HTML and RTF (markup Tika reads, parser.mimetype.whitelist): text/plain, text/markdown, text/csv,
 * text/x-python, text/xml that is neither a sitemap nor a feed...
 */
export function isPlainText(type: string): boolean {
  return type.startsWith('text/') && !isHtmlType(type) && type !== 'text/rtf';
}
