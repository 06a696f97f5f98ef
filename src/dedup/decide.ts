import { MD } from '../model/keys.js';
import type { Metadata } from '../model/metadata.js';
import {
  distance,
  type FingerprintKind,
  lengthRatio,
  MAX_DISTANCE,
  MIN_DEDUP_TOKENS,
  MIN_LENGTH_RATIO,
} from './fingerprint.js';

/** A page's fingerprint as SimhashParseFilter left it in the metadata. */
export interface PageFingerprint {
  readonly kind: FingerprintKind;
  readonly hash: string;
  readonly tokens: number;
  /** Without the words of the page's URL (soft 404s); the hash when the text has none. */
  readonly urlBlind: string;
}

/** The fingerprint in the metadata, or undefined (no SimhashParseFilter, or not HTML/text). */
export function readFingerprint(md: Metadata): PageFingerprint | undefined {
  const simhash = md.getFirstValue(MD.simhash);
  const exact = md.getFirstValue(MD.simhashExact);
  const hash = simhash ?? exact;
  if (hash === undefined) return undefined;
  const tokens = Number(md.getFirstValue(MD.simhashTokens) ?? 0);
  return {
    kind: simhash !== undefined ? 'simhash' : 'exact',
    hash,
    tokens: Number.isFinite(tokens) ? tokens : 0,
    urlBlind: md.getFirstValue(MD.simhashUrlBlind) ?? hash,
  };
}

/** Whether a page takes part in near-duplicate detection at all. */
export const dedupable = (fp: PageFingerprint | undefined): fp is PageFingerprint =>
  fp !== undefined && fp.tokens >= MIN_DEDUP_TOKENS;

/** An indexed page (a content document) that may be the canonical of a page being judged. */
export interface Candidate {
  /** The content document's id. */
  readonly id: string;
  readonly url: string;
  readonly kind: FingerprintKind;
  readonly hash: string;
  readonly tokens: number;
  /** Set on a near-duplicate indexed with dedup.mode flag: never anyone's canonical. */
  readonly duplicateOf?: string;
}

/** How far two fingerprints are, or undefined when they are not near-duplicates. */
export function nearness(
  a: { kind: FingerprintKind; hash: string; tokens: number },
  b: { kind: FingerprintKind; hash: string; tokens: number },
): number | undefined {
  if (a.kind !== b.kind || lengthRatio(a.tokens, b.tokens) < MIN_LENGTH_RATIO) return undefined;
  if (a.kind === 'exact') return a.hash === b.hash ? 0 : undefined;
  const d = distance(a.hash, b.hash);
  return d <= MAX_DISTANCE ? d : undefined;
}

/** Shorter URLs first, then in code-unit order: the canonical of a group of equals. */
export function canonicalOrder(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

export type Decision =
  | { readonly kind: 'canonical' }
  | { readonly kind: 'duplicate'; readonly of: string; readonly distance: number };

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
  let best: { url: string; distance: number } | undefined;
  for (const c of candidates) {
    if (c.duplicateOf !== undefined) continue;
    const d = nearness(fp, c);
    if (d === undefined) continue;
    if (c.id === selfId || c.url === url) {
      self = true;
      continue;
    }
    if (!best || canonicalOrder(c.url, best.url) < 0 || (c.url === best.url && d < best.distance))
      best = { url: c.url, distance: d };
  }
  if (!best) return { kind: 'canonical' };
  if (self && canonicalOrder(url, best.url) < 0) return { kind: 'canonical' };
  return { kind: 'duplicate', of: best.url, distance: best.distance };
}
