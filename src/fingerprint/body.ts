import { BodyHasher } from './body-minhash.js';
import { fmixInt } from './mix.js';
import { ShingleCounts } from './shingle-set.js';

/**
 * The whole body's text of an HTML page, read straight from its bytes, for the whole-page signature
 * every fingerprinted page carries (`minhash.body`). A page is a duplicate only when its main text
 * is (nearly) the other's *and* so is its whole page (src/dedup/decide.ts): two pages that the
 * main-content extraction shrank to one shared text (a description, a table's caption without the
 * table) differ in the rest of their bodies, and this is where that shows. A scan of the bytes, no
 * second HTML parse (the parser collects no whole-body text when it extracts the main content).
 *
 * What it keeps: the characters outside tags, comments, `<script>`, `<style>`, `<template>` and
 * `<noscript>`, from `<body` on (the whole document when there is none). Entities are left as
 * written and bytes read as Latin-1: both pages compared are read the same way, which is all a
 * similarity needs.
 */
export function bodyText(html: Buffer | string): string {
  const s = typeof html === 'string' ? html : html.toString('latin1');
  let i = s.indexOf('<body');
  if (i < 0) i = s.indexOf('<BODY');
  if (i < 0) i = 0;
  const parts: string[] = [];
  let from = i;
  for (;;) {
    const lt = s.indexOf('<', i);
    if (lt < 0) break;
    // Adjacent tags give no text: one separator between two runs of text is enough.
    if (lt > from) parts.push(s.slice(from, lt), ' ');
    let end: number;
    if (s.charCodeAt(lt + 1) === BANG && s.startsWith('--', lt + 2)) end = after(s, '-->', lt + 4);
    else {
      end = after(s, '>', lt + 1);
      // Only a name starting with s, t or n can be a raw element (most tags are not looked at twice).
      const c = s.charCodeAt(lt + 1) | 0x20;
      const raw =
        c === 0x73 || c === 0x74 || c === 0x6e ? RAW.find((name) => nameAt(s, lt + 1, name)) : undefined;
      if (raw !== undefined) end = closeOf(s, raw, end);
    }
    i = from = end;
  }
  if (from < s.length) parts.push(s.slice(from));
  return parts.join('');
}

/** Elements whose content is no text. */
const RAW = ['script', 'style', 'template', 'noscript'];
const BANG = 0x21;

/** Whether the tag name at `at` is `name` (lower case), in any case, and ends there. */
function nameAt(s: string, at: number, name: string): boolean {
  for (let j = 0; j < name.length; j++)
    if ((s.charCodeAt(at + j) | 0x20) !== name.charCodeAt(j)) return false;
  const next = s.charCodeAt(at + name.length) | 0x20;
  return !((next >= 0x61 && next <= 0x7a) || (next >= 0x30 && next <= 0x39) || next === 0x2d);
}

/** Just past the first `close` at or after `from`, or the end of `s`. */
function after(s: string, close: string, from: number): number {
  const k = s.indexOf(close, from);
  return k < 0 ? s.length : k + close.length;
}

/** Just past the end tag of raw element `name` whose content starts at `from`. */
function closeOf(s: string, name: string, from: number): number {
  for (let k = s.indexOf('</', from); k >= 0; k = s.indexOf('</', k + 2))
    if (nameAt(s, k + 2, name)) return after(s, '>', k + 2);
  return s.length;
}

const LT = 0x3c;
const GT = 0x3e;
const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;
/**
 * The body signature is of the bag of shingles: the k-th occurrence of a shingle is a value of its
 * own, so the estimate is of the bag's Jaccard, as the main texts' exact check reads it (jaccard.ts).
 * Read as a set, a copy with 2% of its words changed of a page whose shingles repeat (tables, code)
 * fell under the threshold. A body without repeated shingles has the same signature either way; a
 * bag signature compared with a set one (a document indexed before) reads lower than both.
 */
export const BODY_BAG = true;
const hasher = new BodyHasher();
const counts = new ShingleCounts();
const BODY_OPEN = Buffer.from('<body');
const BODY_OPEN_UPPER = Buffer.from('<BODY');
const COMMENT_END = Buffer.from('-->');

/**
 * Word bytes: ASCII letters (folded to lower case) and digits, and every byte from 0x80 (a UTF-8
 * sequence, or a Latin-1 letter, is part of a word: both pages are read alike). The value is the
 * byte as hashed, 0 for a separator.
 */
const WORD = (() => {
  const t = new Uint8Array(256);
  for (let c = 0x30; c <= 0x39; c++) t[c] = c;
  for (let c = 0x61; c <= 0x7a; c++) t[c] = c;
  for (let c = 0x41; c <= 0x5a; c++) t[c] = c | 0x20;
  for (let c = 0x80; c <= 0xff; c++) t[c] = c;
  return t;
})();

/**
 * The whole body's signature (body-minhash.ts) and token count: the same text as `bodyText`, but
 * read in one pass over the bytes, its words hashed and cut into word 3-shingles as they are
 * read, with no string made (no Latin-1 copy of the page, no text, no token array): a third of the
 * cost of `bodyText` then the fingerprint's tokeniser. Its words are runs of ASCII letters and
 * digits and of bytes from 0x80 (no Unicode folding, which only the main text's fingerprint needs:
 * both pages compared are read the same way).
 *
 * Two steps: the bytes into shingle hashes (`scanBody`, into a buffer kept between calls), then
 * the shingles into the signature, the bag's counts in a table sized once from their number (sized
 * from the page's bytes before, it grew once on most pages: a tenth of the signature's cost).
 */
export function bodyFingerprint(html: Buffer | string, bag = BODY_BAG): { tokens: number; minhash?: string } {
  const b = typeof html === 'string' ? Buffer.from(html) : html;
  const n = scanBody(b);
  const vals = shingles.vals;
  const m = shingles.count;
  const mins = hasher.reset();
  if (bag) {
    const seen = counts.reset(m);
    for (let s = 0; s < m; s++) {
      const v = vals[s]!;
      const k = seen.bump(v);
      // The k-th occurrence of a shingle is a value of its own (the bag).
      mins.add(k === 1 ? v : fmixInt(v ^ Math.imul(k, 0x9e3779b1)));
    }
  } else for (let s = 0; s < m; s++) mins.add(vals[s]!);
  // Room for a page of about 512 KB is kept; a larger page's (sized from its bytes) goes with it,
  // and so does the count table grown for its shingles.
  if (vals.length > KEPT_SHINGLES) shingles.vals = new Int32Array(4096);
  counts.release(KEPT_SHINGLES);
  const minhash = mins.signature();
  return minhash === undefined ? { tokens: n } : { tokens: n, minhash };
}

/** The shingle hashes of the body last scanned: kept between calls, grown when a body needs more. */
const shingles = { vals: new Int32Array(4096), count: 0 };
const KEPT_SHINGLES = 1 << 18;

/**
 * The hashes of the body's word 3-shingles into `shingles` (a body of one or two words: one
 * shingle of them); returns the number of words.
 */
function scanBody(b: Buffer): number {
  // A body has fewer words than half its bytes, plus one.
  if (shingles.vals.length < (b.length >>> 1) + 2) shingles.vals = new Int32Array((b.length >>> 1) + 2);
  const vals = shingles.vals;
  let m = 0;
  let i = b.indexOf(BODY_OPEN);
  if (i < 0) i = b.indexOf(BODY_OPEN_UPPER);
  if (i < 0) i = 0;
  const end = b.length;
  let n = 0;
  let t1 = 0;
  let t2 = 0;
  while (i < end) {
    let c = b[i]!;
    let w = WORD[c]!;
    if (w !== 0) {
      // A word, hashed in a loop of its own; then its shingle with the two words before.
      let h = FNV_OFFSET;
      do {
        h = Math.imul(h ^ w, FNV_PRIME);
        if (++i >= end) break;
        c = b[i]!;
        w = WORD[c]!;
      } while (w !== 0);
      const t = fmixInt(h);
      n++;
      if (n >= 3)
        vals[m++] = fmixInt((Math.imul(Math.imul(t2, 0x9e3779b1) + t1, 0x9e3779b1) + t) ^ 0x2545f491);
      if (i >= end) {
        // The last word, at the end of the bytes: as the scan always read it (only the last kept).
        t1 = t;
        break;
      }
      t2 = t1;
      t1 = t;
    }
    if (c !== LT) {
      i++;
      continue;
    }
    // A tag, a comment or a raw element's content: no text, and a word ends before it.
    if (b[i + 1] === BANG && b[i + 2] === 0x2d && b[i + 3] === 0x2d) {
      const k = b.indexOf(COMMENT_END, i + 4);
      i = k < 0 ? end : k + 3;
      continue;
    }
    // The tag's end: its first bytes read here (a short tag ends sooner than a call of indexOf
    // returns), the rest of a long one (attributes: most tags of real pages) by indexOf, 40% of
    // the scan's time on WCXB's pages.
    let gt = i + 1;
    const near = Math.min(end, i + 16);
    while (gt < near && b[gt] !== GT) gt++;
    if (gt === near && near < end) {
      gt = b.indexOf(GT, near);
      if (gt < 0) gt = end;
    }
    let next = gt < end ? gt + 1 : end;
    const raw = rawAt(b, i + 1);
    if (raw !== undefined) next = byteCloseOf(b, raw, next);
    i = next;
  }
  if (n > 0 && n < 3) vals[m++] = fmixInt((Math.imul(t2, 0x9e3779b1) + t1) ^ 0x2545f491);
  shingles.count = m;
  return n;
}

const RAW_BYTES = RAW.map((name) => Buffer.from(name));
const [SCRIPT, STYLE, TEMPLATE, NOSCRIPT] = RAW_BYTES as [Buffer, Buffer, Buffer, Buffer];

/** The raw element whose start tag's name is at `at`, if any (only s, t and n can start one). */
function rawAt(b: Buffer, at: number): Buffer | undefined {
  const first = b[at]! | 0x20;
  if (first === 0x73)
    return byteNameAt(b, at, SCRIPT) ? SCRIPT : byteNameAt(b, at, STYLE) ? STYLE : undefined;
  if (first === 0x74) return byteNameAt(b, at, TEMPLATE) ? TEMPLATE : undefined;
  if (first === 0x6e) return byteNameAt(b, at, NOSCRIPT) ? NOSCRIPT : undefined;
  return undefined;
}

/** Whether the tag name at `at` is `name` (lower case), in any case, and ends there. */
function byteNameAt(b: Buffer, at: number, name: Buffer): boolean {
  for (let j = 0; j < name.length; j++) if ((b[at + j]! | 0x20) !== name[j]) return false;
  const next = (b[at + name.length] ?? 0) | 0x20;
  return !((next >= 0x61 && next <= 0x7a) || (next >= 0x30 && next <= 0x39) || next === 0x2d);
}

/** Just past the end tag of raw element `name` whose content starts at `from`. */
function byteCloseOf(b: Buffer, name: Buffer, from: number): number {
  for (let k = b.indexOf('</', from); k >= 0; k = b.indexOf('</', k + 2)) {
    if (byteNameAt(b, k + 2, name)) {
      const gt = b.indexOf(GT, k + 2);
      return gt < 0 ? b.length : gt + 1;
    }
  }
  return b.length;
}
