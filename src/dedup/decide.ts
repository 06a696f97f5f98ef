import { bodySimilarity, isBodySignature } from '../fingerprint/body-minhash.js';
import { distance, type FingerprintKind, lengthRatio, MIN_LENGTH_RATIO } from '../fingerprint/fingerprint.js';
import type { Similarities } from '../fingerprint/jaccard.js';
import { isSignature, similarity } from '../fingerprint/minhash.js';
import type { PageFingerprint } from '../fingerprint/page.js';

/**
 * The filter in front of the exact check: a candidate is compared with the page's text only when
 * the MinHash estimate of the Jaccard similarity of the two texts' shingles reaches this, and the
 * simhash (an independent estimate, of their cosine) agrees within MAX_SIMHASH_DISTANCE bits.
 * Chosen with scripts/bench/dedup-quality.mjs on real pages: copies with 5% of their words replaced
 * have a Jaccard of about 0.74 and pass; unrelated pages stay far below and cost nothing more.
 */
export const MIN_SIMILARITY = 0.6;
export const MAX_SIMHASH_DISTANCE = 20;

/**
 * Verdicts, on the exact Jaccard similarity of the two main texts' word 3-shingles read as bags
 * (each occurrence counts: jaccard.ts): `duplicate` from `dedup.duplicate.similarity`
 * (DUPLICATE_SIMILARITY by default; every 50th word changed gives about 0.89 on any text, also one
 * whose shingles repeat, where the set's Jaccard of the same copy falls under 0.85) with the set's
 * Jaccard no more than SET_MARGIN under it and token counts within 10% (DUPLICATE_LENGTH_RATIO),
 * `similar` from SIMILAR_SIMILARITY. Pages generated from one template (two API classes, two man
 * pages) share 50-80% of their shingles and are still two documents: only the same document under
 * another URL is hidden.
 */
export const DUPLICATE_SIMILARITY = 0.85;
/**
 * How far under the threshold the set's reading may be when the bag's reaches it. A text whose
 * shingles repeat (a table, code, a list) loses more of its set to each changed word: of 1,430
 * real pages' copies with 2% of their words changed, 16 had a bag's Jaccard of 0.86-0.89 and a
 * set's of 0.56-0.84. But pages whose shared part repeats weigh it more in the bag than in the
 * set: in the pool of 12,228 pages, 16 pairs of rust-doc pages (15 iterator structs of different
 * types that list the whole `Iterator` trait, and the Rust book's two editions' print views) had a
 * bag's Jaccard of 0.85-0.89 and a set's of 0.71-0.82, and whole page texts under 0.8 (set). At
 * 0.03 none of those is a duplicate (at 0.035, 4; at 0.05, 13; the closest has a set's 0.819 and a
 * page text's 0.797: a thin margin, measured on every run of the bench), and 99.3% of the 2%
 * copies' main texts and 99.0% of their whole pages are (99.7% and 99.3% without the floor; with
 * the set itself at 0.85, 98.5% and 97.8%): scripts/bench/RESULTS.md, issue 43, 2026-12-07.
 */
export const SET_MARGIN = 0.03;
export const DUPLICATE_LENGTH_RATIO = 0.9;
export const SIMILAR_SIMILARITY = 0.6;

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
  /** A short text's: the whole body's MinHash signature and token count (fingerprint/body.ts). */
  readonly bodyMinhash?: string;
  readonly bodyTokens?: number;
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
    }
  | { readonly kind: 'similar'; readonly of: string; readonly similarity: number };

/**
 * The exact Jaccard similarity of the page's main text and the candidate's, as the content index
 * (or this process, for a page indexed a moment ago) holds it, in both readings (jaccard.ts);
 * undefined when that text cannot be had: the pair is then left undecided, never called a
 * duplicate on the estimates.
 */
export type Verify = (c: Candidate) => Similarities | undefined;

/** Two short texts with the same exact signature: equal. */
const EQUAL: Similarities = { bag: 1, set: 1 };

/**
 * How far under the threshold a long text's whole-body estimate may fall (body-minhash.ts: standard
 * error about 0.014 there). A necessary condition checked on an estimate against the threshold
 * itself refuses a true duplicate whenever the estimate errs low: with the 256 bins it had first,
 * one copy in ten with 2% of its words changed. 0.01 under 0.85 is still three standard errors
 * above the 0.8 of whole-page similarity under which no page may be left out; a short text (its
 * main text equal, fewer than 80 tokens) gets no tolerance: there the body is all that differs.
 */
export const BODY_TOLERANCE = 0.01;

/**
 * Whether the whole pages are alike too: both carry a whole-body signature, the bodies' token counts
 * are within 10%, and either what the main texts' exact Jaccard (`mainBag`) proves of the bodies
 * reaches the threshold (bodyBound: a body that is its main text and little more) or their
 * estimated Jaccard does (less BODY_TOLERANCE for a long text, whose main text was measured
 * exactly). A necessary condition of a duplicate, never a sufficient one: without it a main text
 * the extraction shrank to a shared part (every API page's "Documentation for ..." line, an
 * information-schema page without its table) would hide the pages it stood for.
 */
export function bodiesAlike(fp: PageFingerprint, c: Candidate, threshold: number, mainBag = 0): boolean {
  const body = fp.body;
  if (!body || !isBodySignature(c.bodyMinhash) || c.bodyTokens === undefined) return false;
  if (lengthRatio(body.tokens, c.bodyTokens) < DUPLICATE_LENGTH_RATIO) return false;
  if (bodyBound(mainBag, [fp.tokens, c.tokens], [body.tokens, c.bodyTokens]) >= threshold) return true;
  const bar = fp.kind === 'exact' ? threshold : threshold - BODY_TOLERANCE;
  return bodySimilarity(body.minhash, c.bodyMinhash) >= bar;
}

/**
 * Shingles of the main text a token of the body outside it can break (a token inserted between
 * two of the text's breaks the 2 shingles that spanned the gap; one the reading splits in two, such
 * as an entity left as written, the 3 that held it).
 */
const BROKEN_PER_TOKEN = 3;

/**
 * A lower bound of the whole bodies' bag Jaccard from what is known exactly: the main texts' bag
 * Jaccard `mainBag` and the four token counts (main texts `[ta, tb]`; bodies `[ba, bb]`). Each body
 * holds its main text's tokens in order plus `ba - ta` others, each of which breaks at most
 * BROKEN_PER_TOKEN of the text's shingles, so the bodies share at least the texts' shared shingles
 * less those; over the bodies' union. 0 when a main text has more tokens than its body (then it is
 * not inside it: text the extraction took from elsewhere, or a body read cut short). Where the main
 * text is nearly all of the page this settles the body check exactly, instead of the signature's
 * estimate, whose error (about 0.013) turned down short pages' true copies (scripts/bench/RESULTS.md,
 * issue 43, 2026-12-07); where the body holds more it is 0 and the estimate decides.
 */
export function bodyBound(
  mainBag: number,
  [ta, tb]: readonly [number, number],
  [ba, bb]: readonly [number, number],
): number {
  if (mainBag <= 0 || ta > ba || tb > bb) return 0;
  const shingles = (t: number) => Math.max(0, t - 2);
  const shared =
    (mainBag * (shingles(ta) + shingles(tb))) / (1 + mainBag) - BROKEN_PER_TOKEN * (ba - ta + (bb - tb));
  return shared <= 0 ? 0 : shared / (shingles(ba) + shingles(bb) - shared);
}

/**
 * What the page is to the indexed pages that the estimates brought (`candidates`), other than its own
 * document (`selfId`). Each candidate past the estimates (`nearness`) is settled on the texts
 * (`verify`): a `duplicate` at `threshold` or more with token counts within 10% (short texts: equal)
 * and whole pages alike (bodiesAlike), else `similar` from SIMILAR_SIMILARITY (the most similar one
 * named; its similarity may reach the threshold when only the whole pages differ). Of several
 * duplicates' canonicals, the shortest (then smallest) URL; when the page is indexed already and so
 * is a duplicate of it (two canonicals, e.g. indexed at once by two processes), the one with the
 * shorter URL stays canonical, so both sides decide the same.
 */
export function decide(
  page: { readonly url: string; readonly selfId: string; readonly fp: PageFingerprint },
  candidates: Iterable<Candidate>,
  verify: Verify,
  threshold: number = DUPLICATE_SIMILARITY,
): Decision {
  const { url, selfId, fp } = page;
  let self = false;
  let best: { url: string; distance: number; similarity: number } | undefined;
  let near: { url: string; similarity: number } | undefined;
  for (const c of candidates) {
    if (c.duplicateOf !== undefined) continue;
    const d = nearness(fp, c);
    if (d === undefined) continue;
    if (c.id === selfId || c.url === url) {
      self = true;
      continue;
    }
    // A short text is equal (its exact signature) or nothing; a longer one is measured.
    const sims = fp.kind === 'exact' ? EQUAL : verify(c);
    if (sims === undefined) continue;
    const sim = sims.bag;
    // Alike words in lengths 10% apart: one page holds more than the other, both are kept; so are
    // pages whose main texts match but whose whole pages do not (the extraction lost what differs).
    const same =
      sim >= threshold &&
      sims.set >= threshold - SET_MARGIN &&
      lengthRatio(fp.tokens, c.tokens) >= DUPLICATE_LENGTH_RATIO &&
      bodiesAlike(fp, c, threshold, sim);
    if (same) {
      if (!best || canonicalOrder(c.url, best.url) < 0 || (c.url === best.url && sim > best.similarity))
        best = { url: c.url, distance: d.distance, similarity: sim };
    } else if (fp.kind !== 'exact' && sim >= SIMILAR_SIMILARITY && (!near || sim > near.similarity)) {
      near = { url: c.url, similarity: sim };
    }
  }
  if (best && !(self && canonicalOrder(url, best.url) < 0))
    return { kind: 'duplicate', of: best.url, distance: best.distance, similarity: best.similarity };
  if (near) return { kind: 'similar', of: near.url, similarity: near.similarity };
  return { kind: 'canonical' };
}
