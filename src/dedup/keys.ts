import { bandHashes, bandKeys, isSignature } from '../fingerprint/minhash.js';

type Keyed = { kind: string; hash: string; minhash?: string | undefined };

/**
 * What a page is found by as a near-duplicate candidate in the content index, and finds others by:
 * the MinHash band keys of a long text (fingerprint/minhash.ts: texts that share a band are likely to
 * share most of their shingles), `x<signature>` for a short text's exact signature. A long text
 * without a signature (a document from before them) has none: it is no one's candidate until it is
 * fetched again.
 */
export function lookupKeys(f: Keyed): string[] {
  if (f.kind !== 'simhash') return [`x${f.hash}`];
  return isSignature(f.minhash) ? bandKeys(f.minhash) : [];
}

/**
 * The same keys as small integers, for the sets a process keeps in memory (candidates.ts, a typed
 * table: no string per key). Two keys may collide (30 bits); a collision only brings a
 * candidate that the comparison of the fingerprints turns down.
 */
export function memoryKeys(f: Keyed): number[] {
  if (f.kind !== 'simhash') return [Number.parseInt(f.hash.slice(0, 8), 16) & SMI];
  return isSignature(f.minhash) ? bandHashes(f.minhash).map(toMemory) : [];
}

/**
 * Both forms of a page's keys from one hashing of its bands: `stored` (lookupKeys of a long text,
 * what a lookup asks the content index for; empty for a short text, which is looked up by its exact
 * signature) and `memory` (memoryKeys).
 */
export function pageKeys(f: Keyed): { stored: string[]; memory: number[] } {
  if (f.kind !== 'simhash' || !isSignature(f.minhash)) return { stored: [], memory: memoryKeys(f) };
  const hashes = bandHashes(f.minhash);
  return { stored: bandKeys(hashes), memory: hashes.map(toMemory) };
}

const toMemory = (h: number): number => h & SMI;

// Non-negative 30-bit integers: V8's small integers, stored as they are in the key table's Int32Array.
const SMI = 0x3fffffff;
