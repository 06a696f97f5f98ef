/**
 * The tokens a fingerprint is made of (fingerprint.ts), read in one pass over the text.
 *
 * Normalisation, in one pass over `text.normalize('NFKC').toLowerCase()`: a token is a run of
 * letters, marks and digits, digits kept as they are; scripts written without spaces (Han, Hiragana,
 * Katakana, Thai, Lao, Khmer, Myanmar) give one token per character bigram. Each token is hashed
 * with FNV-1a (32 bits); the hashes go to one buffer kept between calls (`scanned`), since
 * fingerprints are computed one at a time and the scan is the hot path.
 */

// Character classes, filled lazily per UTF-16 code unit.
const UNKNOWN = 255;
const SEP = 0;
const WORD = 1;
const DIGIT = 2;
const BIGRAM = 3;
const classes = new Uint8Array(65536).fill(UNKNOWN);
const WORD_RE = /[\p{L}\p{M}\p{N}]/u;
const DIGIT_RE = /\p{Nd}/u;
const BIGRAM_RE =
  /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Thai}\p{sc=Lao}\p{sc=Khmer}\p{sc=Myanmar}]/u;

function classify(c: number): number {
  // Surrogates: characters beyond the BMP (rare scripts, emoji) are parts of words.
  if (c >= 0xd800 && c <= 0xdfff) return WORD;
  const ch = String.fromCharCode(c);
  if (DIGIT_RE.test(ch)) return DIGIT;
  if (BIGRAM_RE.test(ch)) return BIGRAM;
  return WORD_RE.test(ch) ? WORD : SEP;
}
for (let c = 0; c < 128; c++) classes[c] = classify(c);

function classOf(c: number): number {
  let cls = classes[c]!;
  if (cls === UNKNOWN) {
    cls = classify(c);
    classes[c] = cls;
  }
  return cls;
}

/** The same normalisation as fingerprints: NFKC, lower case. */
export function normaliseText(text: string): string {
  return text.normalize('NFKC').toLowerCase();
}

const NOT_FOLDED = 0xffff;

/**
 * Characters whose normalisation can be done one at a time, and to what: for most pages the text's
 * normalisation (two copies of it, about a fifth of a fingerprint's cost) is only a lower-casing,
 * done here as the characters are read. A character qualifies when it is no mark and no character
 * of a bigram script, and NFKC and lower case make it one character that is neither (`é`, `µ`,
 * `²`, an en space) or only separators (`…`); it is then no part of a composition either, NFKC's
 * only rule across characters (a following mark would not qualify). Only Latin (U+0000-024F) and
 * general punctuation and currency (U+2000-20CF) are tried: beyond them, context rules such as
 * Greek's final sigma would break the one-at-a-time reading. A text with any other character is
 * normalised whole first (test/unit/fingerprint checks that both ways agree for every character
 * tried and on real pages).
 */
const FOLD = (() => {
  const fold = new Uint16Array(65536).fill(NOT_FOLDED);
  const mark = /\p{M}/u;
  const ranges = [
    [0x0000, 0x024f],
    [0x2000, 0x20cf],
  ] as const;
  for (const [from, to] of ranges) {
    for (let c = from; c <= to; c++) {
      const ch = String.fromCharCode(c);
      if (classOf(c) === BIGRAM || mark.test(ch)) continue;
      const n = normaliseText(ch);
      if (n.length === 1 && !mark.test(n) && classOf(n.charCodeAt(0)) !== BIGRAM) fold[c] = n.charCodeAt(0);
      else if ([...n].every((x) => classOf(x.charCodeAt(0)) === SEP)) fold[c] = 0x20;
    }
  }
  return fold;
})();

export const FNV_OFFSET = 0x811c9dc5;
export const FNV_PRIME = 0x01000193;

/** The normalised tokens of a URL's path and query, for `fingerprint`'s `exclude`. */
export function urlTokens(url: string): string[] {
  let path: string;
  try {
    const u = new URL(url);
    path = decodeURIComponent(u.pathname + u.search);
  } catch {
    path = url;
  }
  const out = new Set<string>();
  for (const t of tokenise(path)) out.add(t);
  return [...out];
}

/** The tokens of a text as the fingerprint sees them (for tests and `urlTokens`; not the hot path). */
export function tokenise(text: string): string[] {
  const s = normaliseText(text);
  const out: string[] = [];
  let cur = '';
  let prevBigram = -1;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const cls = classOf(c);
    if (cls === WORD || cls === DIGIT) cur += s[i];
    else {
      if (cur) out.push(cur);
      cur = '';
      if (cls === BIGRAM) {
        if (prevBigram >= 0) out.push(String.fromCharCode(prevBigram, c));
        else if (i + 1 >= s.length || classOf(s.charCodeAt(i + 1)) !== BIGRAM) out.push(s[i]!);
        prevBigram = c;
        continue;
      }
    }
    prevBigram = -1;
  }
  if (cur) out.push(cur);
  return out;
}

/** FNV-1a of a token, as the fingerprint hashes it. */
export function tokenHash(token: string): number {
  let h = FNV_OFFSET;
  for (let i = 0; i < token.length; i++) h = Math.imul(h ^ token.charCodeAt(i), FNV_PRIME);
  return h >>> 0;
}

/**
 * The token hashes of the text last scanned (and whether each is one of the excluded): kept between
 * calls, grown when a text needs more room. Read `scanned.toks` after `scanTokens`, not before.
 */
export const scanned = { toks: new Int32Array(4096), ex: new Uint8Array(4096) };

/**
 * The hashes of the normalised text's tokens into `scanned` (excluded: hashes of tokens to mark);
 * returns how many. The characters are folded one at a time when the table can (FOLDED_WORD), else
 * the text is normalised whole first.
 */
export function scanTokens(text: string, excluded: readonly number[]): number {
  let n = foldedTokenHashes(text);
  if (n < 0) n = tokenHashes(normaliseText(text));
  markExcluded(n, excluded);
  return n;
}

/**
 * FOLD as the one-at-a-time reading uses it: 0 for a separator, the folded character of a word's
 * character, NOT_FOLDED when the table cannot fold it. One load a character tells all three (with
 * FOLD and the class table it took two loads and two tests): no character of a bigram script is
 * folded (FOLD leaves them out), so this reading meets none.
 */
const FOLDED_WORD = (() => {
  const t = new Uint16Array(65536).fill(NOT_FOLDED);
  for (let c = 0; c < 65536; c++) {
    const f = FOLD[c]!;
    if (f !== NOT_FOLDED) t[c] = classOf(f) === WORD || classOf(f) === DIGIT ? f : 0;
  }
  return t;
})();

/** Room kept between texts: a larger text's buffers go with the next smaller text (bounded memory). */
const KEPT_TOKENS = 1 << 19;

/** Makes room in `scanned` for a text of `chars` characters: it has fewer tokens, plus one for the last. */
function roomFor(chars: number): void {
  const need = chars + 1;
  const have = scanned.toks.length;
  if (have >= need && (have <= KEPT_TOKENS || need > KEPT_TOKENS)) return;
  const size = Math.max(need, 4096);
  scanned.toks = new Int32Array(size);
  scanned.ex = new Uint8Array(size);
}

/**
 * `tokenHashes` of the text folded one character at a time by FOLDED_WORD, the same hashes as of
 * the normalised text; -1 at the first character the table cannot fold.
 */
function foldedTokenHashes(s: string): number {
  roomFor(s.length);
  const toks = scanned.toks;
  const fold = FOLDED_WORD;
  let n = 0;
  const offset = FNV_OFFSET | 0;
  let h = offset;
  let inToken = false;
  for (let i = 0; i < s.length; i++) {
    const c = fold[s.charCodeAt(i)]!;
    if (c !== 0) {
      if (c === NOT_FOLDED) return -1;
      h = Math.imul(h ^ c, FNV_PRIME);
      inToken = true;
    } else if (inToken) {
      toks[n++] = h;
      h = offset;
      inToken = false;
    }
  }
  if (inToken) toks[n++] = h;
  return n;
}

/**
 * Marks in `scanned.ex` which of the first `n` tokens are among `excluded`. A token is first
 * tested against a 32-bit mask of the excluded hashes' low bits: most are none of them, and are
 * then told so without a search of the list.
 */
function markExcluded(n: number, excluded: readonly number[]): void {
  const { toks, ex } = scanned;
  if (excluded.length === 0) {
    ex.fill(0, 0, n);
    return;
  }
  let mask = 0;
  for (const x of excluded) mask |= 1 << (x & 31);
  for (let t = 0; t < n; t++) {
    const x = toks[t]!;
    ex[t] = (mask & (1 << (x & 31))) !== 0 && excluded.includes(x) ? 1 : 0;
  }
}

/**
 * The hashes of the normalised text's tokens into `scanned.toks`; returns how many (the reading of
 * a text FOLDED_WORD cannot fold, normalised whole first).
 */
function tokenHashes(s: string): number {
  roomFor(s.length);
  const toks = scanned.toks;
  let n = 0;
  const offset = FNV_OFFSET | 0;
  let h = offset;
  let inToken = false;
  let prevBigram = -1;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let cls = classes[c]!;
    if (cls === UNKNOWN) cls = classOf(c);
    if (cls === WORD || cls === DIGIT) {
      h = Math.imul(h ^ c, FNV_PRIME);
      inToken = true;
    } else {
      if (inToken) toks[n++] = h;
      h = offset;
      inToken = false;
      if (cls === BIGRAM) {
        // A character bigram is hashed as the two-character token it is.
        if (prevBigram >= 0) toks[n++] = Math.imul(Math.imul(offset ^ prevBigram, FNV_PRIME) ^ c, FNV_PRIME);
        else if (i + 1 >= s.length || classOf(s.charCodeAt(i + 1)) !== BIGRAM)
          toks[n++] = Math.imul(offset ^ c, FNV_PRIME);
        prevBigram = c;
        continue;
      }
    }
    prevBigram = -1;
  }
  if (inToken) toks[n++] = h;
  return n;
}
