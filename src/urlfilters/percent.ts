/**
 * Percent-encoding normalisation for the path and query of a URL (RFC 3986 §2 and §6.2.2), as
 * StormCrawler's BasicURLNormalizer does it, made idempotent:
 * - `%uXXXX` (a non-standard IIS encoding) becomes the UTF-8 escapes of that character;
 * - escapes of unreserved characters (`A-Z a-z 0-9 - . _ ~`) are decoded, other escapes uppercased;
 * - a `%` that starts no escape becomes `%25`;
 * - any character that may not appear raw in that component (space, controls, non-ASCII,
 *   `" < > [ \ ] ^ \` { | }`) is escaped as UTF-8.
 *
 * Characters the WHATWG URL parser leaves alone are never produced raw unless it also leaves them
 * alone, so a normalised URL reparses to itself.
 */

const HEX = '0123456789ABCDEF';

function table(chars: string): Uint8Array {
  const t = new Uint8Array(128);
  for (let c = 0; c < 128; c++) {
    const ch = String.fromCharCode(c);
    if (/[A-Za-z0-9\-._~]/.test(ch) || chars.includes(ch)) t[c] = 1;
  }
  return t;
}

const UNRESERVED = table('');
/** Raw characters kept in a path: unreserved, sub-delims, ":", "@" and "/". */
export const PATH_CHARS = table("!$&'()*+,;=:@/");
/** Raw characters kept in a user name or password: what the WHATWG parser leaves raw there. */
export const USERINFO_CHARS = table("!$&'()*+,");
/**
 * Raw characters kept in a query: as in a path plus "?", but not "'", which the WHATWG parser
 * escapes in the query of http(s) URLs.
 */
export const QUERY_CHARS = table('!$&()*+,;=:@/?');

function hexValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 65 && c <= 70) return c - 55;
  if (c >= 97 && c <= 102) return c - 87;
  return -1;
}

function isHex4(s: string, at: number): boolean {
  return at + 4 <= s.length && /^[0-9A-Fa-f]{4}$/.test(s.slice(at, at + 4));
}

function escapeByte(b: number): string {
  return b < 128 && UNRESERVED[b] === 1 ? String.fromCharCode(b) : `%${HEX[b >> 4]}${HEX[b & 15]}`;
}

/** The UTF-8 escapes of one code point, treated as data (so "/" from `%u002F` stays escaped). */
function escapeCodePoint(cp: number): string {
  if (cp < 0x80) return escapeByte(cp);
  if (cp < 0x800) return escapeByte(0xc0 | (cp >> 6)) + escapeByte(0x80 | (cp & 63));
  if (cp < 0x10000) {
    return escapeByte(0xe0 | (cp >> 12)) + escapeByte(0x80 | ((cp >> 6) & 63)) + escapeByte(0x80 | (cp & 63));
  }
  return (
    escapeByte(0xf0 | (cp >> 18)) +
    escapeByte(0x80 | ((cp >> 12) & 63)) +
    escapeByte(0x80 | ((cp >> 6) & 63)) +
    escapeByte(0x80 | (cp & 63))
  );
}

const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;

/** Reads `%uXXXX` at `at` (and a following low surrogate); returns the code point and its length. */
function readPercentU(s: string, at: number): [number, number] {
  const unit = Number.parseInt(s.slice(at + 2, at + 6), 16);
  if (isHigh(unit) && s.startsWith('%u', at + 6) && isHex4(s, at + 8)) {
    const low = Number.parseInt(s.slice(at + 8, at + 12), 16);
    if (isLow(low)) return [0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00), 12];
  }
  // A lone surrogate has no UTF-8 form; U+FFFD is what a UTF-8 encoder writes for it.
  return [isHigh(unit) || isLow(unit) ? 0xfffd : unit, 6];
}

/** Normalises the escapes of a path (`PATH_CHARS`) or a query (`QUERY_CHARS`); see the file comment. */
export function normalizeEscapes(s: string, allowed: Uint8Array): string {
  const n = s.length;
  let i = 0;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c === 37 || c >= 128 || allowed[c] === 0) break;
  }
  if (i === n) return s;
  let out = '';
  // Start of the run of characters copied as they are, appended in one slice.
  let run = 0;
  while (i < n) {
    const c = s.charCodeAt(i);
    if (c < 128 && c !== 37 && allowed[c] === 1) {
      i++;
      continue;
    }
    out += s.slice(run, i);
    if (c === 37) {
      const hi = hexValue(s.charCodeAt(i + 1));
      const lo = hexValue(s.charCodeAt(i + 2));
      if (s.charCodeAt(i + 1) === 117 && isHex4(s, i + 2)) {
        const [cp, len] = readPercentU(s, i);
        out += escapeCodePoint(cp);
        i += len;
      } else if (hi >= 0 && lo >= 0) {
        out += escapeByte(hi * 16 + lo);
        i += 3;
      } else {
        out += '%25';
        i += 1;
      }
    } else if (isHigh(c) && isLow(s.charCodeAt(i + 1))) {
      out += escapeCodePoint(0x10000 + ((c - 0xd800) << 10) + (s.charCodeAt(i + 1) - 0xdc00));
      i += 2;
    } else {
      out += escapeCodePoint(isHigh(c) || isLow(c) ? 0xfffd : c);
      i += 1;
    }
    run = i;
  }
  return out + s.slice(run);
}

/**
 * Decodes a query name or value as an HTML form does ("+" is a space), leniently: escapes that are
 * not valid UTF-8 become U+FFFD and a stray "%" stays as it is. Used to compare, never to rebuild.
 */
export function formDecode(s: string): string {
  const t = s.includes('+') ? s.replaceAll('+', ' ') : s;
  if (!t.includes('%')) return t;
  try {
    return decodeURIComponent(t);
  } catch {
    const bytes: number[] = [];
    for (let i = 0; i < t.length; i++) {
      const hi = t[i] === '%' ? hexValue(t.charCodeAt(i + 1)) : -1;
      const lo = hi >= 0 ? hexValue(t.charCodeAt(i + 2)) : -1;
      if (lo >= 0) {
        bytes.push(hi * 16 + lo);
        i += 2;
      } else {
        bytes.push(...Buffer.from(t[i]!, 'utf8'));
      }
    }
    return Buffer.from(bytes).toString('utf8');
  }
}
