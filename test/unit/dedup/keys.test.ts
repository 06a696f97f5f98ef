import { describe, expect, it } from 'vitest';
import { distance, hex } from '../../../src/dedup/fingerprint.js';
import { fingerprintKeys, KEY_COUNT } from '../../../src/dedup/keys.js';

function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const r = rng(42);
const random64 = () => hex((r() * 2 ** 32) >>> 0, (r() * 2 ** 32) >>> 0);

/** `h` with `n` distinct random bits flipped. */
function flip(h: string, n: number): string {
  let hi = Number.parseInt(h.slice(0, 8), 16);
  let lo = Number.parseInt(h.slice(8), 16);
  const bits = new Set<number>();
  while (bits.size < n) bits.add(Math.floor(r() * 64));
  for (const b of bits) {
    if (b < 32) lo ^= 1 << b;
    else hi ^= 1 << (b - 32);
  }
  return hex(hi, lo);
}

const share = (a: string, b: string) => {
  const ka = new Set(fingerprintKeys(a));
  return fingerprintKeys(b).some((k) => ka.has(k));
};

describe('fingerprint keys (pigeonhole over 5 blocks, taken in pairs)', () => {
  it('are 10 distinct keys per fingerprint', () => {
    const keys = fingerprintKeys('0123456789abcdef');
    expect(keys).toHaveLength(KEY_COUNT);
    expect(KEY_COUNT).toBe(10);
    expect(new Set(keys).size).toBe(10);
    expect(fingerprintKeys('0123456789abcdef')).toEqual(keys);
  });

  it('miss no pair within distance 3 over many random pairs', () => {
    const missed: string[] = [];
    for (let i = 0; i < 10_000; i++) {
      const a = random64();
      const b = flip(a, 1 + (i % 3));
      if (distance(a, b) !== 1 + (i % 3) || !share(a, b)) missed.push(`${a} ${b}`);
    }
    expect(missed).toEqual([]);
  });

  it('miss no pair within 3 bits that fall in the fewest blocks (a block boundary)', () => {
    // Every choice of 3 bits among the 64: the worst case is exhaustive, not random.
    const a = 'f0f0f0f0a5a5a5a5';
    const v = BigInt(`0x${a}`);
    for (let x = 0; x < 64; x++)
      for (let y = x + 1; y < 64; y++)
        for (let z = y + 1; z < 64; z++) {
          const b = (v ^ (1n << BigInt(x)) ^ (1n << BigInt(y)) ^ (1n << BigInt(z)))
            .toString(16)
            .padStart(16, '0');
          if (!share(a, b)) throw new Error(`bits ${x} ${y} ${z}: no shared key`);
        }
  });

  it('rarely match unrelated fingerprints', () => {
    const stored = new Set<string>();
    for (let i = 0; i < 20_000; i++) for (const k of fingerprintKeys(random64())) stored.add(k);
    let hits = 0;
    for (let i = 0; i < 2_000; i++) if (fingerprintKeys(random64()).some((k) => stored.has(k))) hits++;
    // Expected ~10 x 2^-25.5 x 20,000 = 0.4% of lookups.
    expect(hits / 2_000).toBeLessThan(0.02);
  });
});
