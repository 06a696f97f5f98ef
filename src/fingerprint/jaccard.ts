/**
 * The exact Jaccard similarity of two texts' distinct word 3-shingles (fingerprint.ts's
 * `shingleHashes`): what a near-duplicate verdict is settled by (src/dedup/decide.ts), the MinHash
 * and simhash estimates being only the filter that brings the candidates. Shingles are compared as
 * 32-bit hashes: two distinct shingles of two 10,000-word texts collide by chance about once in
 * 40,000 pairs of texts, which moves the similarity by 1/10,000.
 */

/** |A ∩ B| / |A ∪ B| of two sorted sets of distinct hashes; two empty sets are equal (1). */
export function jaccard(a: Int32Array, b: Int32Array): number {
  if (a.length === 0 && b.length === 0) return 1;
  let i = 0;
  let j = 0;
  let both = 0;
  while (i < a.length && j < b.length) {
    const x = a[i]!;
    const y = b[j]!;
    if (x === y) {
      both++;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return both / (a.length + b.length - both);
}
