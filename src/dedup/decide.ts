import { distance, type FingerprintKind, lengthRatio, MIN_LENGTH_RATIO } from '../fingerprint/fingerprint.js';
import { isSignature, similarity } from '../fingerprint/minhash.js';
import type { PageFingerprint } from '../fingerprint/page.js';

/**
 * A candidate is a near-duplicate when the MinHash estimate of the Jaccard similarity of the two
 * texts' shingles reaches this, and the simhash (an independent estimate, of their cosine) agrees
 * within MAX_SIMHASH_DISTANCE bits. Chosen with scripts/bench/dedup-quality.mjs on real pages: copies
 * with 5% of their words replaced have a Jaccard of about 0.74 and must be found; unrelated pages
 * stay far below.
 */
export const MIN_SIMILARITY = 0.6;
export const MAX_SIMHASH_DISTANCE = 20;

/** An indexed page (a content document) that may be the canonical of a page being judged. */
export interface Candidate {
  /** The content document's id. */
  readonly id: string;
  readonly url: string;
  readonly kind: FingerprintKind;
  readonly hash: string;
  readonly tokens: number;
  readonly minhash?: string;
  /** Set on a near-duplicate indexed with dedup.mode flag: never anyone's canonical. */
  readonly duplicateOf?: string;
}

/** How near two texts are: simhash distance and estimated Jaccard similarity (1 for exact). */
export interface Nearness {
  readonly distance: number;
  readonly similarity: number;
}

type Comparable = { kind: FingerprintKind; hash: string; tokens: number; minhash?: string | undefined };

/**
 * How near two fingerprints are, or undefined when they are not near-duplicates: the same kind, token
 * counts within MIN_LENGTH_RATIO, and then for short texts the same exact signature; for others both
 * MinHash signatures, an estimated Jaccard of MIN_SIMILARITY or more, and simhashes within
 * MAX_SIMHASH_DISTANCE. A fingerprint without a signature (a document from before them) is no
 * one's near-duplicate: nothing is left out on the simhash alone.
 */
export function nearness(a: Comparable, b: Comparable): Nearness | undefined {
  if (a.kind !== b.kind || lengthRatio(a.tokens, b.tokens) < MIN_LENGTH_RATIO) return undefined;
  if (a.kind === 'exact') return a.hash === b.hash ? { distance: 0, similarity: 1 } : undefined;
  if (!isSignature(a.minhash) || !isSignature(b.minhash)) return undefined;
  const sim = similarity(a.minhash, b.minhash);
  if (sim < MIN_SIMILARITY) return undefined;
  const d = distance(a.hash, b.hash);
  return d <= MAX_SIMHASH_DISTANCE ? { distance: d, similarity: sim } : undefined;
}

/** Shorter URLs first, then in code-unit order: the canonical of a group of equals. */
export function canonicalOrder(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

export type Decision =
  | { readonly kind: 'canonical' }
  | {
      readonly kind: 'duplicate';
      readonly of: string;
      readonly distance: number;
      readonly similarity: number;
    };

/**
 * Is the page a near-duplicate of an indexed page? Among the candidates within distance (same kind
 * of fingerprint, similar length), other than the page's own document (`selfId`), an existing
 * canonical wins over a page not indexed yet; when the page is indexed already and so is another
 * within distance (two canonicals, e.g. indexed at once by two processes), the one with the shorter
 * (then smaller) URL stays canonical, so both sides decide the same.
 */
export function decide(
  url: string,
  selfId: string,
  fp: PageFingerprint,
  candidates: Iterable<Candidate>,
): Decision {
  let self = false;
  let best: { url: string; distance: number; similarity: number } | undefined;
  for (const c of candidates) {
    if (c.duplicateOf !== undefined) continue;
    const d = nearness(fp, c);
    if (d === undefined) continue;
    if (c.id === selfId || c.url === url) {
      self = true;
      continue;
    }
    if (
      !best ||
      canonicalOrder(c.url, best.url) < 0 ||
      (c.url === best.url && d.similarity > best.similarity)
    )
      best = { url: c.url, ...d };
  }
  if (!best) return { kind: 'canonical' };
  if (self && canonicalOrder(url, best.url) < 0) return { kind: 'canonical' };
  return { kind: 'duplicate', of: best.url, distance: best.distance, similarity: best.similarity };
}
