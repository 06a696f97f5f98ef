/**
 * Deterministic prose for the near-duplicate tests: sentences of pseudo-words from a vocabulary of
 * 4,000 (Zipf-like frequencies, as in real text), so that two articles share common words but not
 * their phrases, as two real articles do.
 */

/** mulberry32: the same seed gives the same numbers (shared by the tests that need random input). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYLLABLES =
  'ka to ri mu se na lo ve chi pa dor fen gal hin jus kel mor nis pol quar rus sel tam ub vin wes yor zan'.split(
    ' ',
  );
const VOCABULARY = (() => {
  const r = rng(1);
  const words = new Set<string>();
  while (words.size < 4000) {
    const n = 1 + Math.floor(r() * 3);
    let w = '';
    for (let i = 0; i < n; i++) w += SYLLABLES[Math.floor(r() * SYLLABLES.length)];
    words.add(w);
  }
  return [...words];
})();

/** The words of article `seed`, `count` of them. */
export function articleWords(seed: number, count: number): string[] {
  const r = rng(1000 + seed);
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    // Zipf-like: low ranks (common words) far more often than high ones.
    const rank = Math.floor(VOCABULARY.length ** r()) - 1;
    out.push(VOCABULARY[rank]!);
  }
  return out;
}

/** Article `seed` as sentences of 8 to 20 words, `count` words in all. */
export function article(seed: number, count: number): string {
  const words = articleWords(seed, count);
  const r = rng(2000 + seed);
  let out = '';
  let left = 0;
  for (const [i, w] of words.entries()) {
    if (left === 0) {
      left = 8 + Math.floor(r() * 13);
      out += i === 0 ? w[0]!.toUpperCase() + w.slice(1) : ` ${w[0]!.toUpperCase()}${w.slice(1)}`;
    } else out += ` ${w}`;
    left--;
    if (left === 0 || i === words.length - 1) out += '.';
  }
  return out;
}
