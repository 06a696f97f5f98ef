import { MAX_DISTANCE } from './fingerprint.js';

/**
 * Lookup keys of a 64-bit fingerprint, such that any two fingerprints within MAX_DISTANCE (3) bits
 * share at least one key: the pigeonhole principle over 5 blocks (13, 13, 13, 13 and 12 bits). Three
 * differing bits touch at most three blocks, so two blocks are equal; a key is a pair of blocks with
 * its position, so there are C(5,2) = 10 keys of 25 or 26 bits. A random fingerprint shares one of
 * them with another with probability ~10 x 2^-25.5, about 0.2 random candidates per lookup at a
 * million documents (four 16-bit blocks, the obvious alternative, would give ~60).
 */

const BLOCKS: readonly (readonly [number, number])[] = [
  [0, 13],
  [13, 13],
  [26, 13],
  [39, 13],
  [52, 12],
];

export const KEY_COUNT = (BLOCKS.length * (BLOCKS.length - 1)) / 2;

// 5 blocks tolerate 3 differing bits with 2 blocks to spare.
if (BLOCKS.length - MAX_DISTANCE < 2) throw new Error('keys.ts: too few blocks for MAX_DISTANCE');

/** Bits [start, start + length) of the fingerprint (bit 0 is the lowest of the low half). */
function bits(hi: number, lo: number, start: number, length: number): number {
  const mask = 2 ** length - 1;
  if (start >= 32) return (hi >>> (start - 32)) & mask;
  if (start + length <= 32) return (lo >>> start) & mask;
  return ((lo >>> start) | (hi << (32 - start))) & mask;
}

/** The 10 keys of a fingerprint given as 16 hex digits: `<i><j><bits of block i and j in hex>`. */
export function fingerprintKeys(hash: string): string[] {
  const hi = Number.parseInt(hash.slice(0, 8), 16);
  const lo = Number.parseInt(hash.slice(8, 16), 16);
  const blocks = BLOCKS.map(([start, length]) => bits(hi, lo, start, length));
  const keys: string[] = [];
  for (let i = 0; i < BLOCKS.length; i++) {
    for (let j = i + 1; j < BLOCKS.length; j++) {
      const value = blocks[i]! * 2 ** BLOCKS[j]![1] + blocks[j]!;
      keys.push(`${i}${j}${value.toString(16).padStart(7, '0')}`);
    }
  }
  return keys;
}
