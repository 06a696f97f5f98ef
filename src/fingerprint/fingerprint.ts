/**
 * A page's text fingerprint for near-duplicate detection: Charikar's simhash, 64 bits, as Manku, Jain
 * and Das Sarma used it on 8 billion pages (near-duplicate at Hamming distance <= 3).
 *
 * Tokens as tokens.ts reads them (NFKC, lower case, runs of letters, marks and digits; character
 * bigrams for scripts written without spaces). Features are the
 * *distinct* shingles of `shingle` consecutive tokens (3 by default), each hashed to 64 bits and
 * counted once, however often it occurs: the set of shingles is what the Jaccard similarity of two
 * texts is measured on, and a feature counted per occurrence let one frequent shingle outweigh all
 * others. (Until December 2026 every run of digits was folded to `0` and counted per occurrence: on
 * pages full of numbers the shingle `0 0 0` decided most bits, and 14 unrelated pages of the Python
 * and PostgreSQL manuals got one identical simhash; test/unit/dedup/fingerprint.test.ts keeps them.)
 *
 * In the same pass, the set of shingles gets a MinHash signature (minhash.ts: one permutation, 256
 * bins of 8 bits) for texts of `shortTokens` tokens or more: near-duplicate candidates are found by
 * its bands and verified by its estimate of the Jaccard similarity, and the simhash must agree
 * (decide.ts). The simhash stays the soft-404 comparison (distance <= 3 to a host's not-found page).
 *
 * Texts of fewer than `shortTokens` tokens get an exact signature instead (a 64-bit hash of the token
 * sequence): a few words changed move a short text's simhash too far for the distance to mean
 * anything. Near-duplicate detection leaves texts under MIN_DEDUP_TOKENS alone (an empty or
 * near-empty page is no one's duplicate); soft-404 detection compares them too ("Not found").
 *
 * `exclude`: tokens (already normalised) whose features are left out of a second, "URL-blind"
 * fingerprint computed in the same pass; a not-found page that echoes the URL asked for then
 * compares equal whatever the URL (soft-404 detection).
 *
 * Hand-written because the simhash packages on npm are 32-bit or lose precision in doubles (the
 * bit-sliced counters are in simhash.ts). About 0.06 ms for the 5.5 KB texts of
 * the bench's small web in a loop (simhash, MinHash, URL-blind simhash together; 0.085 before the
 * per-character normalisation, the counts in registers and the smaller shingle table), about twice
 * that in a crawl, where the caches are cold; 0.09 with the URL's words on a machine at load 6-12
 * (`node scripts/bench/dedup-cost.mjs --base DIR` compares two builds in one process).
 */

import { MinHasher } from './minhash.js';
import { fmix, fmixInt } from './mix.js';
import { ShingleSet } from './shingle-set.js';
import { BATCH, Counters, distance, hex, simhashOf } from './simhash.js';
import { FNV_OFFSET, FNV_PRIME, scanned, scanTokens, tokenHash } from './tokens.js';

// The parts' names most callers know from here.
export { distance, hex } from './simhash.js';
export { normaliseText, tokenise, urlTokens } from './tokens.js';

export type FingerprintKind = 'simhash' | 'exact';

export interface Fingerprint {
  readonly kind: FingerprintKind;
  /** 16 lowercase hex digits. */
  readonly hash: string;
  /** Tokens of the text (for the length ratio). */
  readonly tokens: number;
  /** The same without the features of the excluded tokens; undefined when none occurred. */
  readonly urlBlind?: string;
  /** For a simhash: the MinHash signature of the same shingles (minhash.ts), 512 hex digits. */
  readonly minhash?: string;
}

export interface FingerprintOptions {
  /** Tokens per shingle: 1 = words. */
  readonly shingle: number;
  /** Below this many tokens: an exact signature. */
  readonly shortTokens: number;
}

export const DEFAULT_FINGERPRINT: FingerprintOptions = { shingle: 3, shortTokens: 80 };

/** Pages with fewer tokens are never near-duplicates (nor canonicals) of anything. */
export const MIN_DEDUP_TOKENS = 10;

/** A page this near its host's not-found page is a soft 404 (soft404/profile.ts). */
export const MAX_DISTANCE = 3;

/** One set for every call: fingerprints are computed one at a time, and it keeps its room. */
const shingleSet = new ShingleSet();

// One of each for every call: fingerprints are computed one at a time (no allocation per text).
const allCounters = new Counters();
const minusCounters = new Counters();
const minHasher = new MinHasher();

/**
 * The fingerprint of a text (an empty text too: the exact signature of no tokens). Deterministic:
 * the same text gives the same fingerprint in every process and version of Node.js.
 *
 * Two passes: the characters into token hashes, then the tokens into shingles. Hashes stay 32-bit
 * signed integers throughout (`| 0`, fmixInt), which V8 keeps unboxed; the values are the same bits
 * as the unsigned ones stored fingerprints were made of.
 */
export function fingerprint(
  text: string,
  options: FingerprintOptions = DEFAULT_FINGERPRINT,
  exclude: readonly string[] = [],
): Fingerprint {
  const k = Math.max(1, options.shingle);
  const excluded = exclude.map((t) => tokenHash(t) | 0);
  const n = scanTokens(text, excluded);
  const { toks, ex } = scanned;
  if (n < options.shortTokens) return exactSignature(n, excluded.length > 0);

  const all = allCounters.reset();
  const seen = shingleSet.reset(n - k + 1);
  const mins = minHasher.reset();
  const minus = excluded.length > 0 ? minusCounters.reset() : undefined;
  // The simhash's counts, bit-sliced: the last few features' in these locals (four planes per half),
  // the rest in `all`. Kept in registers, an addition is a few word operations and no loads.
  let h0 = 0;
  let h1 = 0;
  let h2 = 0;
  let h3 = 0;
  let l0 = 0;
  let l1 = 0;
  let l2 = 0;
  let l3 = 0;
  let pending = 0;
  for (let t = k - 1; t < n; t++) {
    // The shingle of tokens t-k+1..t, oldest first.
    let f = 0;
    let anyEx = 0;
    if (k === 3) {
      // The default's three tokens without the loop (the same value as the loop's).
      f = (Math.imul((Math.imul(toks[t - 2]!, 0x9e3779b1) + toks[t - 1]!) | 0, 0x9e3779b1) + toks[t]!) | 0;
      anyEx = ex[t - 2]! | ex[t - 1]! | ex[t]!;
    } else {
      for (let j = t - k + 1; j <= t; j++) {
        f = (Math.imul(f, 0x9e3779b1) + toks[j]!) | 0;
        anyEx |= ex[j]!;
      }
    }
    // One mix of the shingle serves three ends: fmix is a bijection of 32 bits, so `v` is as
    // distinct as the shingle (the set), and it is the simhash's upper half; the lower half and the
    // MinHash value are mixes of it with other constants.
    const v = fmixInt(f ^ 0x2545f491);
    // Each distinct shingle once: the texts' shingle sets are what is compared.
    if (!seen.add(v)) continue;
    const lo = fmixInt(v ^ 0x6a09e667);
    let c = h0 & v;
    h0 ^= v;
    let d = h1 & c;
    h1 ^= c;
    c = h2 & d;
    h2 ^= d;
    h3 ^= c;
    c = l0 & lo;
    l0 ^= lo;
    d = l1 & c;
    l1 ^= c;
    c = l2 & d;
    l2 ^= d;
    l3 ^= c;
    if (++pending === BATCH) {
      all.addCount(pending);
      all.addUpper(h0, h1, h2, h3);
      all.addLower(l0, l1, l2, l3);
      h0 = h1 = h2 = h3 = l0 = l1 = l2 = l3 = pending = 0;
    }
    if (anyEx !== 0 && minus) minus.add(v, lo);
    mins.add(v);
  }
  all.addCount(pending);
  all.addUpper(h0, h1, h2, h3);
  all.addLower(l0, l1, l2, l3);
  const hash = simhashOf(all);
  const blind = minus && minus.total > 0 ? simhashOf(all, minus) : undefined;
  const minhash = mins.signature();
  return blind === undefined || blind === hash
    ? { kind: 'simhash', hash, tokens: n, minhash }
    : { kind: 'simhash', hash, tokens: n, urlBlind: blind, minhash };
}

/**
 * The word `shingle`-shingles of a text as sorted 32-bit hashes, the same values the fingerprint's
 * shingle set holds, each as often as it occurs (the bag): what the exact similarity of two texts is
 * measured on (jaccard.ts reads both the bag's and the set's Jaccard from it). A text of fewer tokens
 * than `shingle` has one shingle of all of them (two such texts compare equal only when their
 * tokens are). A new array per call: the caller keeps it.
 */
export function shingleBag(text: string, shingle = DEFAULT_FINGERPRINT.shingle): Int32Array {
  const k = Math.max(1, shingle);
  const n = scanTokens(text, []);
  const toks = scanned.toks;
  if (n === 0) return new Int32Array(0);
  const w = Math.min(k, n);
  const out = new Int32Array(n - w + 1);
  for (let t = w - 1; t < n; t++) {
    let f = 0;
    for (let j = t - w + 1; j <= t; j++) f = (Math.imul(f, 0x9e3779b1) + toks[j]!) | 0;
    out[t - w + 1] = fmixInt(f ^ 0x2545f491);
  }
  return out.sort();
}

/** The distinct shingles of `shingleBag`, sorted: the set. */
export function shingleHashes(text: string, shingle = DEFAULT_FINGERPRINT.shingle): Int32Array {
  const out = shingleBag(text, shingle);
  let m = 0;
  for (let i = 0; i < out.length; i++) if (i === 0 || out[i] !== out[m - 1]) out[m++] = out[i]!;
  return out.subarray(0, m);
}

/**
 * A short text's exact signature: two independent running hashes over its token sequence (and over
 * it without the excluded tokens, for the URL-blind one).
 */
function exactSignature(n: number, withExcluded: boolean): Fingerprint {
  const { toks, ex } = scanned;
  let e1 = FNV_OFFSET | 0;
  let e2 = 0x9747b28c | 0;
  let b1 = e1;
  let b2 = e2;
  let blindDiffers = false;
  for (let t = 0; t < n; t++) {
    const x = toks[t]!;
    const m = fmixInt(x);
    e1 = Math.imul(e1 ^ x, FNV_PRIME);
    e2 = Math.imul(e2 ^ m, 0x5bd1e995) ^ (e2 >>> 15);
    if (withExcluded && ex[t] === 1) blindDiffers = true;
    else {
      b1 = Math.imul(b1 ^ x, FNV_PRIME);
      b2 = Math.imul(b2 ^ m, 0x5bd1e995) ^ (b2 >>> 15);
    }
  }
  const hash = hex(e1 ^ (e2 >>> 7), fmix(e2 ^ e1));
  const blind = blindDiffers ? hex(b1 ^ (b2 >>> 7), fmix(b2 ^ b1)) : undefined;
  return blind === undefined || blind === hash
    ? { kind: 'exact', hash, tokens: n }
    : { kind: 'exact', hash, tokens: n, urlBlind: blind };
}

/** min/max of two token counts: near-duplicates have texts of about the same length. */
export function lengthRatio(a: number, b: number): number {
  return a <= 0 || b <= 0 ? 0 : Math.min(a, b) / Math.max(a, b);
}

/** Texts whose token counts are further apart than this are never near-duplicates. */
export const MIN_LENGTH_RATIO = 0.8;

/**
 * The simhash distance of two fingerprints when they are the same kind, of similar length and
 * within MAX_DISTANCE (exact signatures: equal, distance 0); else undefined. The soft-404 check: a
 * page against its host's not-found page.
 */
export function closeTo(
  a: { kind: FingerprintKind; hash: string; tokens: number },
  b: { kind: FingerprintKind; hash: string; tokens: number },
): number | undefined {
  if (a.kind !== b.kind || lengthRatio(a.tokens, b.tokens) < MIN_LENGTH_RATIO) return undefined;
  if (a.kind === 'exact') return a.hash === b.hash ? 0 : undefined;
  const d = distance(a.hash, b.hash);
  return d <= MAX_DISTANCE ? d : undefined;
}
