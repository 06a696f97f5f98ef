import { fmix } from './mix.js';

/**
 * A MinHash signature of a set of shingles, estimating the Jaccard similarity of two texts (the share
 * of shingles they have in common), with one permutation and optimal densification (Li, Owen and
 * Zhang 2012; Shrivastava 2017): each shingle goes to one of BINS bins by one hash and competes there
 * by another for the bin's minimum, so a text costs one hash per distinct shingle, not BINS. A bin no
 * shingle reached borrows the minimum of a bin chosen by a fixed sequence of hashes of its index,
 * the same in every text, so empty bins still agree exactly when the two texts agree.
 *
 * Each bin keeps the lowest 16 bits of its minimum (b-bit MinHash: two different minima agree by
 * chance once in 65,536), so a signature is BINS x 16 bits, written as 512 hex digits. Two texts'
 * estimate is the share of bins that agree; its standard error is sqrt(J(1 - J) / BINS), 0.044 at
 * J = 0.5 and 0.035 at J = 0.8.
 *
 * Candidates are found by bands (LSH): BANDS groups of ROWS consecutive bins, each a lookup key; two
 * texts share a key with probability 1 - (1 - J^ROWS)^BANDS: 0.998 at J = 0.75, 0.53 at 0.5, 0.06 at
 * 0.3 (ROWS and BANDS chosen with scripts/bench/dedup-quality.mjs).
 */

export const BINS = 128;
export const ROWS = 5;
export const BANDS = 24;
const EMPTY = 0xffffffff;
const HEX_PER_BIN = 4;

/** Collects the minima of one text's shingles; `signature` reads them. */
export class MinHasher {
  private readonly mins = new Uint32Array(BINS).fill(EMPTY);
  private count = 0;

  /** A distinct shingle's 32-bit hash (each shingle once: the set, not the bag). */
  add(shingle: number): void {
    const v = fmix((shingle ^ 0x5bd1e995) >>> 0);
    const bin = v >>> 25;
    const value = fmix((v + 0x9e3779b9) >>> 0);
    if (value < this.mins[bin]!) this.mins[bin] = value;
    this.count++;
  }

  /** 512 hex digits; undefined for an empty set. */
  signature(): string | undefined {
    if (this.count === 0) return undefined;
    let out = '';
    for (let i = 0; i < BINS; i++) {
      let m = this.mins[i]!;
      for (let attempt = 1; m === EMPTY; attempt++) {
        m = this.mins[fmix(Math.imul(i + 1, 0x9e3779b1) ^ Math.imul(attempt, 0x85ebca6b)) % BINS]!;
      }
      out += (m & 0xffff).toString(16).padStart(HEX_PER_BIN, '0');
    }
    return out;
  }
}

const SIGNATURE_RE = /^[0-9a-f]{512}$/;

/**
 * Whether a value read from outside (metadata, a stored document) is a signature of this kind: an
 * old or foreign document's may not be. Checked where it is read; past that, `isSignature` suffices.
 */
export function validSignature(s: string | undefined): s is string {
  return s !== undefined && SIGNATURE_RE.test(s);
}

/** Whether a fingerprint carries a signature (validated where it was read). */
export function isSignature(s: string | undefined): s is string {
  return s !== undefined && s.length === BINS * HEX_PER_BIN;
}

/** The estimated Jaccard similarity of the texts of two signatures: the share of equal bins. */
export function similarity(a: string, b: string): number {
  let equal = 0;
  for (let i = 0; i < BINS * HEX_PER_BIN; i += HEX_PER_BIN) {
    if (
      a.charCodeAt(i) === b.charCodeAt(i) &&
      a.charCodeAt(i + 1) === b.charCodeAt(i + 1) &&
      a.charCodeAt(i + 2) === b.charCodeAt(i + 2) &&
      a.charCodeAt(i + 3) === b.charCodeAt(i + 3)
    )
      equal++;
  }
  return equal / BINS;
}

/** The lookup keys of a signature: one per band, `m<band><its bins' hex digits>`. */
export function bandKeys(signature: string): string[] {
  const keys: string[] = [];
  const width = ROWS * HEX_PER_BIN;
  for (let b = 0; b < BANDS; b++) {
    keys.push(`m${b.toString(36)}${signature.slice(b * width, (b + 1) * width)}`);
  }
  return keys;
}
