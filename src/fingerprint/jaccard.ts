/**
 * The exact Jaccard similarity of two texts' word 3-shingles (fingerprint.ts's `shingleBag`): what a
 * near-duplicate verdict is settled by (src/dedup/decide.ts), the MinHash and simhash estimates
 * being only the filter that brings the candidates. Shingles are compared as 32-bit hashes: two
 * distinct shingles of two 10,000-word texts collide by chance about once in 40,000 pairs of texts,
 * which moves the similarity by 1/10,000.
 *
 * Two readings of one sorted bag (a shingle as often as it occurs):
 * - the bag's (weighted, multiset) Jaccard, the sum over shingles of the smaller count over the sum
 *   of the larger: each changed token removes its (up to) 3 shingles' occurrences whatever the
 *   text, so every 50th word changed gives about (1 - 3/50) / (1 + 3/50) = 0.89 on any text;
 * - the set's (distinct shingles): on a text whose shingles repeat (a table, code, a list) a
 *   changed token removes a larger share of the set, and the same 2% copy falls under 0.85.
 */
export interface Similarities {
  /** |A ∩ B| / |A ∪ B| of the bags (counts: min over max). */
  readonly bag: number;
  /** The same of the distinct shingles. */
  readonly set: number;
}

/** Both readings in one merge of two sorted bags; two empty bags are equal (1, 1). */
export function similarities(a: Int32Array, b: Int32Array): Similarities {
  if (a.length === 0 && b.length === 0) return { bag: 1, set: 1 };
  let i = 0;
  let j = 0;
  let bagBoth = 0;
  let setA = 0;
  let setB = 0;
  let setBoth = 0;
  while (i < a.length || j < b.length) {
    // The next value of either side and its count on each.
    const x = i < a.length ? a[i]! : undefined;
    const y = j < b.length ? b[j]! : undefined;
    const v = y === undefined || (x !== undefined && x <= y) ? x! : y;
    let ca = 0;
    let cb = 0;
    while (i < a.length && a[i] === v) {
      i++;
      ca++;
    }
    while (j < b.length && b[j] === v) {
      j++;
      cb++;
    }
    bagBoth += Math.min(ca, cb);
    if (ca > 0) setA++;
    if (cb > 0) setB++;
    if (ca > 0 && cb > 0) setBoth++;
  }
  return { bag: bagBoth / (a.length + b.length - bagBoth), set: setBoth / (setA + setB - setBoth) };
}
