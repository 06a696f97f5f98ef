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

/**
 * The fingerprint in the metadata, or undefined (no SimhashParseFilter, or not HTML/text). Read
 * twice a page (the judge, then the indexer): the second reading of the same metadata, whose
 * values are still the very strings the first one validated, returns the same object (validating
 * the signatures again and making a new object was 0.01-0.02 ms a page in a crawl's profile).
 */
export function readFingerprint(md: Metadata): PageFingerprint | undefined {
  const simhash = md.getFirstValue(MD.simhash);
  const exact = md.getFirstValue(MD.simhashExact);
  const hash = simhash ?? exact;
  if (hash === undefined) return undefined;
  const raw: Raw = [
    simhash,
    exact,
    md.getFirstValue(MD.simhashTokens),
    md.getFirstValue(MD.simhashUrlBlind),
    md.getFirstValue(MD.minhash),
    md.getFirstValue(MD.bodyMinhash),
    md.getFirstValue(MD.bodyTokens),
  ];
  const last = lastRead.get(md);
  if (last !== undefined && sameStrings(last.raw, raw)) return last.fp;
  const fp = fromValues(hash, raw);
  lastRead.set(md, { raw, fp });
  return fp;
}

/** The fingerprint's values as read from the metadata, in the order of `readFingerprint`. */
type Raw = readonly [
  simhash: string | undefined,
  exact: string | undefined,
  tokens: string | undefined,
  urlBlind: string | undefined,
  minhash: string | undefined,
  bodyMinhash: string | undefined,
  bodyTokens: string | undefined,
];

/** Each metadata's last reading: the values it was made of, and the fingerprint. */
const lastRead = new WeakMap<Metadata, { readonly raw: Raw; readonly fp: PageFingerprint }>();

/** Whether two readings are of the same strings (the same objects compare at once). */
function sameStrings(a: Raw, b: Raw): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function fromValues(hash: string, raw: Raw): PageFingerprint {
  const [simhash, , tokenValue, urlBlind, minhash, bodyMinhash, bodyTokenValue] = raw;
  const tokens = Number(tokenValue ?? 0);
  const bodyTokens = Number(bodyTokenValue);
  const body =
    validBodySignature(bodyMinhash) && Number.isFinite(bodyTokens)
      ? { body: { minhash: bodyMinhash, tokens: bodyTokens } }
      : {};
  return {
    kind: simhash !== undefined ? 'simhash' : 'exact',
    hash,
    tokens: Number.isFinite(tokens) ? tokens : 0,
    urlBlind: urlBlind ?? hash,
    ...(simhash !== undefined && validSignature(minhash) ? { minhash } : {}),
    ...body,
  };
}

/** Whether a page takes part in near-duplicate detection at all. */
export const dedupable = (fp: PageFingerprint | undefined): fp is PageFingerprint =>
  fp !== undefined && fp.tokens >= MIN_DEDUP_TOKENS;
