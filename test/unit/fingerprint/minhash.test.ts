import { describe, expect, it } from 'vitest';
import { lookupKeys, memoryKeys, pageKeys } from '../../../src/dedup/keys.js';
import {
  BANDS,
  BINS,
  bandKeys,
  borrowOrder,
  densified,
  EMPTY,
  isSignature,
  MinHasher,
  similarity,
  validSignature,
} from '../../../src/fingerprint/minhash.js';
import { rng } from '../../support/articles.js';

/** The signature of a set of 32-bit shingle hashes. */
function signatureOf(set: Iterable<number>): string {
  const m = new MinHasher();
  for (const x of set) m.add(x);
  return m.signature()!;
}

/** Two sets of `size` elements whose Jaccard similarity is `j` (up to rounding). */
function pair(r: () => number, size: number, j: number): [number[], number[]] {
  // |A ∩ B| = c, |A| = |B| = size: J = c / (2 size - c).
  const common = Math.round((2 * size * j) / (1 + j));
  const fresh = () => (r() * 2 ** 32) >>> 0;
  const shared = Array.from({ length: common }, fresh);
  return [
    [...shared, ...Array.from({ length: size - common }, fresh)],
    [...shared, ...Array.from({ length: size - common }, fresh)],
  ];
}

describe('MinHash signatures', () => {
  it('are BINS bins of 8 bits, the same for the same set in any order', () => {
    const r = rng(1);
    const set = Array.from({ length: 500 }, () => (r() * 2 ** 32) >>> 0);
    const sig = signatureOf(set);
    expect(isSignature(sig)).toBe(true);
    expect(sig).toHaveLength(BINS * 2);
    expect(signatureOf([...set].reverse())).toBe(sig);
    expect(new MinHasher().signature()).toBeUndefined();
    expect(validSignature('abc')).toBe(false);
    expect(validSignature('g'.repeat(512))).toBe(false);
    // One character out of place anywhere: upper case, past the digits, outside ASCII.
    for (const bad of ['A', 'g', '/', ':', '\u0100', '\u00e9'])
      for (const at of [0, 255, 511])
        expect(validSignature(sig.slice(0, at) + bad + sig.slice(at + 1))).toBe(false);
    expect(validSignature(sig)).toBe(true);
  });

  it('estimate the Jaccard similarity within a few standard errors', () => {
    const r = rng(2);
    for (const j of [0, 0.2, 0.5, 0.74, 0.9, 1]) {
      for (const size of [80, 400, 3000]) {
        const [a, b] = pair(r, size, j);
        const est = similarity(signatureOf(a), signatureOf(b));
        const se = Math.sqrt((j * (1 - j)) / BINS);
        expect(Math.abs(est - j), `J ${j}, ${size} shingles: estimate ${est}`).toBeLessThanOrEqual(
          4 * se + 0.02,
        );
      }
    }
  });

  it('bands: near sets share a key almost always, distant ones almost never', () => {
    const r = rng(3);
    const shares = (j: number) => {
      let n = 0;
      for (let i = 0; i < 200; i++) {
        const [a, b] = pair(r, 600, j);
        const ka = new Set(bandKeys(signatureOf(a)));
        if (bandKeys(signatureOf(b)).some((k) => ka.has(k))) n++;
      }
      return n;
    };
    expect(shares(0.75)).toBeGreaterThanOrEqual(195);
    expect(shares(0.1)).toBeLessThanOrEqual(4);
  });

  it('lookup keys: bands of a long text, the exact signature of a short one, none without a signature', () => {
    const sig = signatureOf([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const keys = lookupKeys({ kind: 'simhash', hash: '0123456789abcdef', minhash: sig });
    expect(keys).toHaveLength(BANDS);
    expect(new Set(keys).size).toBe(BANDS);
    expect(lookupKeys({ kind: 'exact', hash: '0123456789abcdef' })).toEqual(['x0123456789abcdef']);
    expect(lookupKeys({ kind: 'simhash', hash: '0123456789abcdef' })).toEqual([]);
    // Short: a band's index and its 32-bit hash, 6 bits per character, all of them a keyword's own.
    for (const k of keys) expect(k).toMatch(/^[0-9a-zA-Z_-]{7}$/);
  });

  it('memory keys: one small integer per band, shared exactly where the stored keys are', () => {
    const r = rng(4);
    const [a, b] = pair(r, 600, 0.8);
    const [sa, sb] = [signatureOf(a), signatureOf(b)];
    const ma = memoryKeys({ kind: 'simhash', hash: '0', minhash: sa });
    const mb = memoryKeys({ kind: 'simhash', hash: '0', minhash: sb });
    expect(ma).toHaveLength(BANDS);
    for (const k of ma) expect(Number.isInteger(k) && k >= 0 && k < 2 ** 30).toBe(true);
    const stored = bandKeys(sa);
    const shared = bandKeys(sb).map((k, i) => k === stored[i]);
    expect(shared.some(Boolean)).toBe(true);
    expect(mb.map((k, i) => k === ma[i])).toEqual(shared);
    expect(memoryKeys({ kind: 'exact', hash: '0123456789abcdef' })).toEqual([0x01234567]);
    // Both forms from one hashing of the bands, the same as each alone.
    const page = { kind: 'simhash', hash: '0', minhash: sa };
    expect(pageKeys(page)).toEqual({ stored: lookupKeys(page), memory: ma });
  });
});

describe('densification', () => {
  it("borrows from the same bins with the precomputed order as with the sequence's hashes", () => {
    const r = rng(7);
    for (const bins of [BINS, 1024]) {
      for (const filled of [1, 3, 40, bins / 2, bins]) {
        const mins = new Int32Array(bins).fill(EMPTY);
        for (let k = 0; k < filled; k++) mins[Math.floor(r() * bins)] = (r() * 2 ** 31) | 0;
        const order = borrowOrder(bins);
        for (let i = 0; i < bins; i++) expect(densified(mins, i, order)).toBe(densified(mins, i));
      }
    }
  });
});
