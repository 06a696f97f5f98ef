/**
 * The simhash's counting (Charikar): for each of the 64 bits, how many of a text's features have
 * it set. The counters are bit-sliced (one 32-bit word per bit of the count, per half of the hash),
 * so adding a feature costs a few word operations instead of 64 additions (fingerprint.ts adds its
 * features in batches of BATCH counted in registers). Also the Hamming distance of two simhashes.
 */

const PLANES = 32;

/**
 * Bit-sliced counters: `planes[k]` holds bit k of the 32 counts of one half of the hash. Adding a
 * mask increments the counts of its set bits with a ripple carry that rarely goes past two planes.
 */
export class Counters {
  readonly hi = new Int32Array(PLANES);
  readonly lo = new Int32Array(PLANES);
  total = 0;

  /** Empties the counters (for the next text) and returns them. */
  reset(): this {
    this.hi.fill(0);
    this.lo.fill(0);
    this.total = 0;
    return this;
  }

  add(hi: number, lo: number): void {
    this.total++;
    rippleAdd(this.hi, hi, 0);
    rippleAdd(this.lo, lo, 0);
  }

  /**
   * Adds `n` features counted apart in four planes per half: `addUpper` takes bits 0-3 of the counts
   * of the upper half, `addLower` of the lower (three calls, no object: the caller keeps its counts
   * in locals).
   */
  addCount(n: number): void {
    this.total += n;
  }

  addUpper(p0: number, p1: number, p2: number, p3: number): void {
    rippleAdd(this.hi, p0, 0);
    rippleAdd(this.hi, p1, 1);
    rippleAdd(this.hi, p2, 2);
    rippleAdd(this.hi, p3, 3);
  }

  addLower(p0: number, p1: number, p2: number, p3: number): void {
    rippleAdd(this.lo, p0, 0);
    rippleAdd(this.lo, p1, 1);
    rippleAdd(this.lo, p2, 2);
    rippleAdd(this.lo, p3, 3);
  }
}

/** Adds 2^`from` to the counts of the set bits of `mask`. */
function rippleAdd(planes: Int32Array, mask: number, from: number): void {
  let carry = mask;
  for (let k = from; carry !== 0 && k < PLANES; k++) {
    const t = planes[k]! & carry;
    planes[k]! ^= carry;
    carry = t;
  }
}

/** Features counted in locals before they go to `all`: at most 15, so four planes hold the counts. */
export const BATCH = 15;

/** The count of bit `bit` in the `used` lowest planes (the planes above the total's width are 0). */
function count(planes: Int32Array, bit: number, used: number): number {
  let n = 0;
  for (let k = 0; k < used; k++) n += ((planes[k]! >>> bit) & 1) << k;
  return n;
}

/** The simhash of `all` minus `minus`: bit b set when more features have it set than not. */
export function simhashOf(all: Counters, minus?: Counters): string {
  const total = all.total - (minus?.total ?? 0);
  const used = 32 - Math.clz32(all.total);
  let hi = 0;
  let lo = 0;
  for (let b = 0; b < 32; b++) {
    const onesHi = count(all.hi, b, used) - (minus ? count(minus.hi, b, used) : 0);
    const onesLo = count(all.lo, b, used) - (minus ? count(minus.lo, b, used) : 0);
    if (2 * onesHi > total) hi |= 1 << b;
    if (2 * onesLo > total) lo |= 1 << b;
  }
  return hex(hi, lo);
}

export function hex(hi: number, lo: number): string {
  return (hi >>> 0).toString(16).padStart(8, '0') + (lo >>> 0).toString(16).padStart(8, '0');
}

const POP = new Uint8Array(256);
for (let i = 1; i < 256; i++) POP[i] = (i & 1) + POP[i >> 1]!;

function popcount32(x: number): number {
  return POP[x & 0xff]! + POP[(x >>> 8) & 0xff]! + POP[(x >>> 16) & 0xff]! + POP[x >>> 24]!;
}

/** Hamming distance of two 16-hex-digit fingerprints. */
export function distance(a: string, b: string): number {
  const ahi = Number.parseInt(a.slice(0, 8), 16);
  const alo = Number.parseInt(a.slice(8), 16);
  const bhi = Number.parseInt(b.slice(0, 8), 16);
  const blo = Number.parseInt(b.slice(8), 16);
  return popcount32((ahi ^ bhi) >>> 0) + popcount32((alo ^ blo) >>> 0);
}
