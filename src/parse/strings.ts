import type { Metadata } from '../model/metadata.js';

/**
 * A copy of `s` that shares no memory with the string it was cut from. V8 represents `slice`,
 * `substring`, `trim` and single-element `join` results as views of their parent, so one title kept
 * from a 1 MB page would keep the whole page alive. Concatenating forces a fresh flat string; the
 * slice is then a view of that small string only. Measured (Node 20): ~16 ns for a 50-char string,
 * 30x faster than a Buffer round trip, and 200 kept 40-char slices of 1 MB pages retain 4 MB instead
 * of 250 MB.
 */
export function detach(s: string): string {
  // V8 copies what it would cut shorter than 13 characters (SlicedString::kMinLength), so a short
  // string is never a view: most metadata values need no copy.
  return s.length < VIEW_MIN_LENGTH ? s : (' ' + s).slice(1);
}

const VIEW_MIN_LENGTH = 13;

/** Detaches every value of the metadata in place: done once per page before results leave. */
export function detachMetadata(md: Metadata): void {
  for (const [key, values] of [...md.entries()]) {
    if (values.length > 0) md.setValues(key, values.map(detach));
  }
}

// JSoup's notion of whitespace in text: space, tab, LF, FF, CR and the no-break space. Only runs
// that are not already one space are matched, so most text needs no replacement at all.
const SPACES = /[\t\n\f\r \u00a0]{2,}|[\t\n\f\r\u00a0]/g;

/** Whitespace runs to one space, trimmed: how titles, anchors and meta values are stored. */
export function collapseSpace(s: string): string {
  return s.replace(SPACES, ' ').trim();
}

/** True for the empty string and whitespace only, as StormCrawler's `isBlank`. */
export function isBlank(s: string | undefined | null): boolean {
  return s === undefined || s === null || s.trim().length === 0;
}

/** The characters of `\s` from U+00A0 on. */
export const isOtherSpace = (c: number): boolean =>
  c === 0xa0 ||
  c === 0x1680 ||
  (c >= 0x2000 && c <= 0x200a) ||
  c === 0x2028 ||
  c === 0x2029 ||
  c === 0x202f ||
  c === 0x205f ||
  c === 0x3000 ||
  c === 0xfeff;

/** Whether a character code is one of `\s` (JavaScript's: the text's whitespace). */
export const isSpaceCode = (c: number): boolean =>
  c <= 32 ? c === 32 || (c >= 9 && c <= 13) : c >= 0xa0 && isOtherSpace(c);
