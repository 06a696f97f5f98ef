import { fmix, fmixInt } from './mix.js';

/**
 * A MinHash signature of a set of shingles, estimating the Jaccard similarity of two texts (the share
 * of shingles they have in common), with one permutation and optimal densification (Li, Owen and
 * Zhang 2012; Shrivastava 2017): each shingle goes to one of BINS bins by one hash and competes there
 * by another for the bin's minimum, so a text costs one hash per distinct shingle, not BINS. A bin no
 * shingle reached borrows the minimum of a bin chosen by a fixed sequence of hashes of its index,
 * the same in every text, so empty bins still agree exactly when the two texts agree.
 *
 * Each bin keeps the lowest 8 bits of its minimum (b-bit MinHash, Li and Koenig 2010: two different
 * minima agree by chance once in 256, which the estimate takes out), so a signature is BINS x 8
 * bits, written as 512 hex digits. Two texts' estimate is the share of bins that agree, less the
 * chance agreements; its standard error is about sqrt(J(1 - J) / BINS): 0.031 at J = 0.5 (0.044
 * with the 128 bins of 16 bits this had first, for the same 512 digits: on 6,960 real pages one
 * pair of true Jaccard 0.48 was estimated at 0.60 then).
 *
 * Candidates are found by bands (LSH): BANDS groups of ROWS consecutive bins (the first
 * BANDS x ROWS bins), each a lookup key; two texts share a key with probability
 * 1 - (1 - J^ROWS)^BANDS: 0.997 at J = 0.75, 0.38 at 0.5, 0.02 at 0.3 (ROWS and BANDS chosen with
 * scripts/bench/dedup-quality.mjs for recall, and on the bench's small web for cost: there pages
 * share filler and a small vocabulary, J 0.2-0.4 between most, and 5 rows x 24 bands brought 6.3
 * candidates per page that the comparison then turned down, 6 x 30 brings 1.7).
 */

export const BINS = 256;
export const ROWS = 6;
export const BANDS = 30;
/**
 * The minima are stored with their top bit flipped, in an Int32Array: the signed order of stored
 * values is the unsigned order of the hashes, and V8 keeps them unboxed (a Uint32Array's values past
 * 2^31 are doubles to it, which made `add` the costliest step of a shingle). The low bits, which the
 * signature keeps, are the hash's own.
 */
export const FLIP = 0x80000000 | 0;
/** No shingle yet: the flipped largest hash (which, as before the flip, never wins a bin). */
export const EMPTY = 0xffffffff ^ FLIP;
const HEX_PER_BIN = 2;
/** A signature's length in hex digits (512). */
export const MINHASH_DIGITS = BINS * HEX_PER_BIN;
const BIN_VALUES = 256;

export const HEX_DIGITS = '0123456789abcdef';

/** Collects the minima of one text's shingles; `signature` reads them. */
export class MinHasher {
  private readonly mins = new Int32Array(BINS).fill(EMPTY);
  private count = 0;
  /** The signature's characters, written in place and read as one string. */
  private readonly out = Buffer.alloc(BINS * HEX_PER_BIN);

  /** Empties it (for the next text) and returns it. */
  reset(): this {
    this.mins.fill(EMPTY);
    this.count = 0;
    return this;
  }

  /**
   * A distinct shingle's 32-bit hash (each shingle once: the set, not the bag). Its mix is the
   * permutation: the top bits choose the bin, and the lowest value wins it.
   */
  add(shingle: number): void {
    const value = fmixInt((shingle + 0x9e3779b9) | 0);
    const bin = value >>> 24;
    const stored = value ^ FLIP;
    if (stored < this.mins[bin]!) this.mins[bin] = stored;
    this.count++;
  }

  /** 512 hex digits; undefined for an empty set. */
  signature(): string | undefined {
    if (this.count === 0) return undefined;
    const out = this.out;
    for (let i = 0; i < BINS; i++) {
      const m = densified(this.mins, i, ORDER);
      out[2 * i] = HEX_DIGITS.charCodeAt((m >>> 4) & 15);
      out[2 * i + 1] = HEX_DIGITS.charCodeAt(m & 15);
    }
    // One flat string at once (256 concatenations made 256 intermediate strings per page).
    return out.toString('latin1');
  }
}

/**
 * Bin `i`'s minimum, or for a bin no shingle reached the minimum of a bin chosen by a fixed sequence
 * of hashes of its index: the same in every text (at least one bin is filled). `order`
 * (`borrowOrder`) holds the sequence's first steps for every bin, made once.
 */
export function densified(mins: Int32Array, i: number, order?: Uint16Array): number {
  let m = mins[i]!;
  if (m !== EMPTY) return m;
  let attempt = 1;
  if (order !== undefined) {
    for (let a = i * BORROW_DEPTH; attempt <= BORROW_DEPTH; a++, attempt++) {
      m = mins[order[a]!]!;
      if (m !== EMPTY) return m;
    }
  }
  for (; m === EMPTY; attempt++) m = mins[borrowedBin(i, attempt, mins.length)]!;
  return m;
}

/** The bin that empty bin `i` borrows from at its `attempt`-th try (1, 2, ...). */
const borrowedBin = (i: number, attempt: number, bins: number): number =>
  fmix(Math.imul(i + 1, 0x9e3779b1) ^ Math.imul(attempt, 0x85ebca6b)) % bins;

/** How many steps of each bin's sequence `borrowOrder` holds: all 8 empty is rare past a few shingles. */
const BORROW_DEPTH = 8;

/**
 * The first BORROW_DEPTH bins each of `bins` bins borrows from, in order: the same for every text,
 * so made once, not hashed again for every empty bin of every signature (a third of the body's
 * 1,024 bins are empty on a page of 1,100 shingles).
 */
export function borrowOrder(bins: number): Uint16Array {
  const order = new Uint16Array(bins * BORROW_DEPTH);
  for (let i = 0; i < bins; i++)
    for (let a = 1; a <= BORROW_DEPTH; a++) order[i * BORROW_DEPTH + a - 1] = borrowedBin(i, a, bins);
  return order;
}

/** The main text signature's sequences (made after BORROW_DEPTH, which `borrowOrder` reads). */
const ORDER = borrowOrder(BINS);

/**
 * Whether `s` is `length` lowercase hex digits. It runs twice for every page (the judge's and the
 * indexer's reading of its fingerprint) and for every candidate, on 512 and 1,024 digits: 16 us a
 * page in a CPU profile of the bench's crawl with a regular expression (`/^[0-9a-f]*$/`, 3.1 us
 * for 1,024 digits on Node 20.20), two thirds of that with a loop over a table (2.0 us).
 */
export function isHexOfLength(s: string | undefined, length: number): s is string {
  if (s === undefined || s.length !== length) return false;
  for (let i = 0; i < length; i++) {
    const c = s.charCodeAt(i);
    if (c > 0x7f || IS_HEX[c] === 0) return false;
  }
  return true;
}

/** 1 for the lowercase hex digits' codes. */
const IS_HEX = (() => {
  const t = new Uint8Array(128);
  for (const c of HEX_DIGITS) t[c.charCodeAt(0)] = 1;
  return t;
})();

/**
 * Whether a value read from outside (metadata, a stored document) is a signature of this kind: an
 * old or foreign document's may not be. Checked where it is read; past that, `isSignature` suffices.
 */
export function validSignature(s: string | undefined): s is string {
  return isHexOfLength(s, MINHASH_DIGITS);
}

/** Whether a fingerprint carries a signature (validated where it was read). */
export function isSignature(s: string | undefined): s is string {
  return s !== undefined && s.length === MINHASH_DIGITS;
}

/**
 * The estimated Jaccard similarity of the texts of two signatures: the share of equal bins, less
 * the share that agree by chance (1 in BIN_VALUES), at least 0.
 */
export function similarity(a: string, b: string): number {
  let equal = 0;
  for (let i = 0; i < BINS * HEX_PER_BIN; i += HEX_PER_BIN) {
    if (a.charCodeAt(i) === b.charCodeAt(i) && a.charCodeAt(i + 1) === b.charCodeAt(i + 1)) equal++;
  }
  const chance = 1 / BIN_VALUES;
  return Math.max(0, (equal / BINS - chance) / (1 - chance));
}

/**
 * The bands of a signature, each hashed with its index to 32 bits: two texts that share a band share
 * its hash, and two different bands collide by chance once in 2^32 (a candidate too many, which the
 * signatures' comparison then turns down). One number per band, so a page's keys cost no strings.
 */
export function bandHashes(signature: string): number[] {
  const out: number[] = [];
  const width = ROWS * HEX_PER_BIN;
  for (let b = 0; b < BANDS; b++) {
    // FNV-1a over the band's hex digits, seeded by its index, then one finalising mix: a band is 12
    // characters, and a mix per bin cost more than the rest of a candidate's handling.
    let h = Math.imul(0x811c9dc5 ^ (b + 1), 0x01000193);
    for (let i = b * width; i < (b + 1) * width; i++) h = Math.imul(h ^ signature.charCodeAt(i), 0x01000193);
    out.push(fmix(h >>> 0));
  }
  return out;
}

// 64 characters a keyword keeps as they are (and a URL too): 6 bits each.
const KEY_DIGITS = Array.from('0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_', (c) =>
  c.charCodeAt(0),
);

/**
 * The lookup keys of a signature as the content index stores them (`minhashKeys`): per band, its
 * index and its hash, 6 bits per character: 7 characters, so the keys of a document and of a
 * lookup's terms are short. (Written by a table, not `toString(36)`: V8's radix conversion cost
 * more than the band hashing, for the two sets of keys each page makes.) Takes the signature, or its
 * bandHashes already made.
 */
export function bandKeys(signature: string | readonly number[]): string[] {
  const hashes = typeof signature === 'string' ? bandHashes(signature) : signature;
  const d = KEY_DIGITS;
  return hashes.map((h, b) =>
    String.fromCharCode(
      d[b & 63]!,
      d[(h >>> 26) & 63]!,
      d[(h >>> 20) & 63]!,
      d[(h >>> 14) & 63]!,
      d[(h >>> 8) & 63]!,
      d[(h >>> 2) & 63]!,
      d[h & 3]!,
    ),
  );
}
