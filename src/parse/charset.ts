import { isAscii, isUtf8 } from 'node:buffer';
import { TextDecoder } from 'node:util';

/**
 * Which character set a page is in, and decoding with it.
 *
 * Order (DIFFERS FROM STORMCRAWLER, which has ICU4J's statistical detector and takes the BOM, then
 * the header and `<meta>` charsets when they agree, else ICU's guess hinted by either, else UTF-8):
 * 1. a byte order mark (UTF-8, UTF-16LE/BE) decides;
 * 2. the declarations, HTTP header first (as browsers do), then the first `<meta charset>` or
 *    `<meta http-equiv="content-type">` in the first `detect.charset.maxlength` bytes; labels that
 *    TextDecoder does not know are ignored;
 * 3. the bytes are checked as UTF-8 over the same window, which replaces the one thing ICU got right
 *    most often: bytes that are valid UTF-8 and not plain ASCII are UTF-8 when nothing was declared,
 *    when either declaration says UTF-8, or when the declaration is the Latin-1 family (the classic
 *    mislabel); bytes that are not valid UTF-8 are never decoded as UTF-8 when another declaration
 *    or windows-1252 is available;
 * 4. otherwise the first declaration, else UTF-8 for ASCII and valid UTF-8, else windows-1252.
 * Labels follow the WHATWG Encoding standard: "iso-8859-1" and "us-ascii" mean windows-1252.
 */

/** How the charset was chosen, for tests and debugging. */
export type CharsetSource = 'bom' | 'header' | 'meta' | 'bytes' | 'default';

export interface CharsetChoice {
  /** The WHATWG name, as TextDecoder reports it (e.g. "utf-8", "shift_jis"). */
  readonly charset: string;
  readonly source: CharsetSource;
  /** Bytes of BOM to skip. */
  readonly bomLength: number;
}

const decoders = new Map<string, TextDecoder | null>();

/** TextDecoder for a label, or null if unknown; cached, since decoders are reusable. */
function decoderFor(label: string): TextDecoder | null {
  const key = label.trim().toLowerCase();
  let d = decoders.get(key);
  if (d === undefined) {
    try {
      d = new TextDecoder(key, { ignoreBOM: true });
    } catch {
      d = null;
    }
    if (decoders.size < 200) decoders.set(key, d);
  }
  return d;
}

/** The WHATWG name of a charset label, or undefined when TextDecoder does not support it. */
export function canonicalCharset(label: string | undefined): string | undefined {
  if (!label) return undefined;
  // A page cannot be UTF-16 and contain an ASCII-readable <meta>: the HTML standard reads it as UTF-8.
  const name = decoderFor(label)?.encoding;
  return name === 'utf-16le' || name === 'utf-16be' ? 'utf-8' : name;
}

/** The `charset` parameter of a Content-Type header value. */
export function charsetOfContentType(contentType: string | undefined): string | undefined {
  if (!contentType) return undefined;
  const m = /;\s*charset\s*=\s*["']?([^"';,\s]+)/i.exec(contentType);
  return m?.[1];
}

const META_CHARSET = /<meta\b[^>]*?[\s"';]charset\s*=\s*["']?\s*([-\w.:]+)/i;

/** The charset declared by the first `<meta>` that declares one, in the given bytes. */
export function sniffMetaCharset(head: Buffer): string | undefined {
  // A native search for the word first: most pages declare nothing or declare it near the top, and
  // decoding 10 KB to run a regex over it on every page is measurable.
  const lower = head.indexOf('harset');
  const upper = head.indexOf('HARSET');
  const at = lower < 0 ? upper : upper < 0 ? lower : Math.min(lower, upper);
  if (at < 0) return undefined;
  // latin1 maps bytes 1:1, so ASCII markup reads the same whatever the real encoding.
  const from = Math.max(0, head.lastIndexOf('<', at));
  const near = META_CHARSET.exec(head.toString('latin1', from, Math.min(head.length, from + 2048)))?.[1];
  if (near !== undefined || from + 2048 >= head.length) return near;
  return META_CHARSET.exec(head.toString('latin1', from + 2048 - 512, head.length))?.[1];
}

/** The charset a byte-order mark at the start of `b` names (UTF-8, UTF-16 LE or BE), if any. */
export function bomOf(b: Buffer): CharsetChoice | undefined {
  if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf)
    return { charset: 'utf-8', source: 'bom', bomLength: 3 };
  if (b[0] === 0xff && b[1] === 0xfe) return { charset: 'utf-16le', source: 'bom', bomLength: 2 };
  if (b[0] === 0xfe && b[1] === 0xff) return { charset: 'utf-16be', source: 'bom', bomLength: 2 };
  return undefined;
}

export type Utf8Evidence = 'ascii' | 'utf8' | 'invalid';

/**
 * Whether the bytes are ASCII, valid UTF-8 with multi-byte sequences, or not UTF-8. A sequence cut
 * by the end of the window counts as valid. Uses Node's native checks (the window is scanned on
 * every page).
 */
export function utf8Evidence(b: Uint8Array, end = b.length): Utf8Evidence {
  let window = b.subarray(0, end);
  if (isAscii(window)) return 'ascii';
  // Leave out a multi-byte sequence cut by the end of the window: up to 3 bytes back to its lead.
  for (let back = 1; back <= 3 && back <= window.length; back++) {
    const c = window[window.length - back]!;
    if (c < 0x80) break;
    if (c >= 0xc0) {
      const need = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;
      if (need > back) window = window.subarray(0, window.length - back);
      break;
    }
  }
  if (isAscii(window)) return 'ascii';
  return isUtf8(window) ? 'utf8' : 'invalid';
}

const LATIN1_FAMILY = new Set(['windows-1252']);

/**
 * Chooses the charset of `content`; see the file comment for the order. `maxLength` bounds the
 * bytes examined (-1 or 0 = all of them).
 */
export function detectCharset(
  content: Buffer,
  headerContentType: string | undefined,
  maxLength: number,
): CharsetChoice {
  const bom = bomOf(content);
  if (bom) return bom;
  const end = maxLength > 0 ? Math.min(maxLength, content.length) : content.length;
  const header = canonicalCharset(charsetOfContentType(headerContentType));
  const meta = canonicalCharset(sniffMetaCharset(content.subarray(0, end)));
  const evidence = utf8Evidence(content, end);
  const first = header ?? meta;
  const firstSource: CharsetSource = header ? 'header' : 'meta';
  if (evidence === 'utf8') {
    if (first === undefined) return { charset: 'utf-8', source: 'bytes', bomLength: 0 };
    if (header === 'utf-8' || meta === 'utf-8' || LATIN1_FAMILY.has(first)) {
      const source: CharsetSource = header === 'utf-8' ? 'header' : meta === 'utf-8' ? 'meta' : 'bytes';
      return { charset: 'utf-8', source, bomLength: 0 };
    }
  }
  if (evidence === 'invalid' && first === 'utf-8') {
    if (header === 'utf-8' && meta !== undefined && meta !== 'utf-8')
      return { charset: meta, source: 'meta', bomLength: 0 };
    return { charset: 'windows-1252', source: 'bytes', bomLength: 0 };
  }
  if (first !== undefined) return { charset: first, source: firstSource, bomLength: 0 };
  return evidence === 'invalid'
    ? { charset: 'windows-1252', source: 'bytes', bomLength: 0 }
    : { charset: 'utf-8', source: 'default', bomLength: 0 };
}

// windows-1252 at 0x80-0x9F (WHATWG table; the five unassigned bytes map to the C1 controls).
const CP1252_C1 =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';
const C1 = /[\u0080-\u009f]/g;
const HAS_C1 = /[\u0080-\u009f]/;

/**
 * windows-1252 by hand: Node 20's TextDecoder decodes this label (and its aliases iso-8859-1,
 * latin1, us-ascii) as ISO-8859-1, turning "€", "–" and curly quotes into control characters.
 */
function decodeWindows1252(body: Buffer): string {
  const latin1 = body.toString('latin1');
  return HAS_C1.test(latin1) ? latin1.replace(C1, (c) => CP1252_C1[c.charCodeAt(0) - 0x80]!) : latin1;
}

/** Decodes with the chosen charset; malformed bytes become U+FFFD, never an exception. */
export function decode(content: Buffer, choice: CharsetChoice): string {
  const body = choice.bomLength > 0 ? content.subarray(choice.bomLength) : content;
  if (choice.charset === 'utf-8') return body.toString('utf8');
  if (choice.charset === 'windows-1252') return decodeWindows1252(body);
  const decoder = decoderFor(choice.charset);
  return decoder ? decoder.decode(body) : body.toString('utf8');
}

const DISPLAY: Record<string, string> = {
  'utf-8': 'UTF-8',
  'utf-16le': 'UTF-16LE',
  'utf-16be': 'UTF-16BE',
  shift_jis: 'Shift_JIS',
  gb18030: 'GB18030',
  gbk: 'GBK',
  big5: 'Big5',
  'euc-jp': 'EUC-JP',
  'euc-kr': 'EUC-KR',
  'iso-2022-jp': 'ISO-2022-JP',
  'koi8-r': 'KOI8-R',
  'koi8-u': 'KOI8-U',
};

/** The IANA spelling of a WHATWG charset name, as StormCrawler (Java) writes `parse.Content-Encoding`. */
export function charsetDisplayName(charset: string): string {
  return DISPLAY[charset] ?? (charset.startsWith('iso-') ? charset.toUpperCase() : charset);
}
