import { borrowOrder, densified, EMPTY, FLIP, HEX_DIGITS, isHexOfLength } from './minhash.js';

/**
 * The whole body's MinHash signature (body.ts), apart from the main text's (minhash.ts): it only
 * settles whether two pages whose main texts matched exactly are alike as whole pages too, so it
 * needs precision near the duplicate threshold, not lookup keys. One permutation with
 * densification as in minhash.ts, but BODY_BINS = 1024 bins of 4 bits (1,024 hex digits): a shingle
 * still costs one hash and one comparison, and the estimate's standard error near 0.8 is about
 * sqrt((J(1 - J) + (1 - J) / 16) / 1024) / (15 / 16) = 0.014, against 0.026 for the 256 bins of 8
 * bits it had first, whose error (about 0.02 at 0.88) made one copy in ten with 2% of its words
 * changed miss the threshold (scripts/bench/RESULTS.md, issue 43).
 */
export const BODY_BINS = 1024;
/** The bin is the hash's top 10 bits. */
const BIN_SHIFT = 22;
const BIN_VALUES = 16;

const ORDER = borrowOrder(BODY_BINS);

/** Collects the minima of one body's shingles (one at a time: fingerprints are made one by one). */
export class BodyHasher {
  private readonly mins = new Int32Array(BODY_BINS).fill(EMPTY);
  private readonly out = Buffer.alloc(BODY_BINS);
  private count = 0;

  reset(): this {
    this.mins.fill(EMPTY);
    this.count = 0;
    return this;
  }

  /** A shingle's mixed 32-bit hash (a repeated shingle changes nothing: the set, not the bag). */
  add(value: number): void {
    const bin = value >>> BIN_SHIFT;
    const stored = value ^ FLIP;
    if (stored < this.mins[bin]!) this.mins[bin] = stored;
    this.count++;
  }

  /** BODY_BINS hex digits (each bin's lowest 4 bits); undefined for an empty set. */
  signature(): string | undefined {
    if (this.count === 0) return undefined;
    const out = this.out;
    for (let i = 0; i < BODY_BINS; i++) {
      out[i] = HEX_DIGITS.charCodeAt(densified(this.mins, i, ORDER) & 15);
    }
    return out.toString('latin1');
  }
}

/** Whether a value read from outside (metadata, a stored document) is a body signature of this kind. */
export function validBodySignature(s: string | undefined): s is string {
  return isHexOfLength(s, BODY_BINS);
}

/** Whether a fingerprint's body signature is of this kind (validated where it was read). */
export function isBodySignature(s: string | undefined): s is string {
  return s !== undefined && s.length === BODY_BINS;
}

/** The estimated Jaccard similarity of two bodies: equal bins less the chance agreements (1 in 16). */
export function bodySimilarity(a: string, b: string): number {
  let equal = 0;
  for (let i = 0; i < BODY_BINS; i++) if (a.charCodeAt(i) === b.charCodeAt(i)) equal++;
  const chance = 1 / BIN_VALUES;
  return Math.max(0, (equal / BODY_BINS - chance) / (1 - chance));
}
