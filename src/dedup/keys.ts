import { bandKeys, isSignature } from '../fingerprint/minhash.js';

/**
 * What a page is found by as a near-duplicate candidate, and finds others by: the MinHash band keys
 * of a long text (fingerprint/minhash.ts: texts that share a band are likely to share most of their
 * shingles), `x<signature>` for a short text's exact signature. A long text without a signature (a
 * document from before them) has none: it is no one's candidate until it is fetched again.
 */
export function lookupKeys(f: { kind: string; hash: string; minhash?: string | undefined }): string[] {
  if (f.kind !== 'simhash') return [`x${f.hash}`];
  return isSignature(f.minhash) ? bandKeys(f.minhash) : [];
}
