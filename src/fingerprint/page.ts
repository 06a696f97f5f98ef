import { MD } from '../model/keys.js';
import type { Metadata } from '../model/metadata.js';
import { validBodySignature } from './body-minhash.js';
import { type FingerprintKind, MIN_DEDUP_TOKENS } from './fingerprint.js';
import { validSignature } from './minhash.js';

/** A page's fingerprint as SimhashParseFilter left it in the metadata. */
export interface PageFingerprint {
  readonly kind: FingerprintKind;
  readonly hash: string;
  readonly tokens: number;
  /** Without the words of the page's URL (soft 404s); the hash when the text has none. */
  readonly urlBlind: string;
  /** For a simhash: the MinHash signature (minhash.ts); an old document's may be missing. */
  readonly minhash?: string;
  /** The whole body's signature and token count (body.ts); an old document's may be missing. */
  readonly body?: { readonly minhash: string; readonly tokens: number };
}

/** The fingerprint in the metadata, or undefined (no SimhashParseFilter, or not HTML/text). */
export function readFingerprint(md: Metadata): PageFingerprint | undefined {
  const simhash = md.getFirstValue(MD.simhash);
  const exact = md.getFirstValue(MD.simhashExact);
  const hash = simhash ?? exact;
  if (hash === undefined) return undefined;
  const tokens = Number(md.getFirstValue(MD.simhashTokens) ?? 0);
  const minhash = md.getFirstValue(MD.minhash);
  const bodyMinhash = md.getFirstValue(MD.bodyMinhash);
  const bodyTokens = Number(md.getFirstValue(MD.bodyTokens));
  const body =
    validBodySignature(bodyMinhash) && Number.isFinite(bodyTokens)
      ? { body: { minhash: bodyMinhash, tokens: bodyTokens } }
      : {};
  return {
    kind: simhash !== undefined ? 'simhash' : 'exact',
    hash,
    tokens: Number.isFinite(tokens) ? tokens : 0,
    urlBlind: md.getFirstValue(MD.simhashUrlBlind) ?? hash,
    ...(simhash !== undefined && validSignature(minhash) ? { minhash } : {}),
    ...body,
  };
}

/** Whether a page takes part in near-duplicate detection at all. */
export const dedupable = (fp: PageFingerprint | undefined): fp is PageFingerprint =>
  fp !== undefined && fp.tokens >= MIN_DEDUP_TOKENS;
