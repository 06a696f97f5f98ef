import type { Client } from '@opensearch-project/opensearch';
import type { FingerprintKind } from '../fingerprint/fingerprint.js';
import type { HostProfile, ProbeAnswer, StoredFingerprint, Verdict } from '../soft404/profile.js';

/**
 * The hosts index (`opensearch.hosts.index.name`, mappings/hosts.json): one document per host, id =
 * the host name. This module owns its `soft404` object; other features keep their own objects in
 * the same document, so writes are partial updates that leave the rest alone.
 */

interface StoredProfile {
  probedAt?: string;
  verdict?: Verdict;
  fingerprints?: string[];
  redirectTo?: string;
  answers?: ProbeAnswer[];
}

const encodeFingerprint = (f: StoredFingerprint) => `${f.kind}:${f.hash}:${f.tokens}`;

function decodeFingerprint(s: string): StoredFingerprint | undefined {
  const [kind, hash, tokens] = s.split(':');
  if ((kind !== 'simhash' && kind !== 'exact') || !hash || !/^[0-9a-f]{16}$/.test(hash)) return undefined;
  return { kind: kind as FingerprintKind, hash, tokens: Number(tokens) || 0 };
}

/** A stored profile back, or null when the document holds none that can be read. */
export function readProfile(stored: StoredProfile | undefined): HostProfile | null {
  const at = stored?.probedAt ? Date.parse(stored.probedAt) : Number.NaN;
  if (!stored || !Number.isFinite(at) || !stored.verdict) return null;
  return {
    probedAt: at,
    verdict: stored.verdict,
    fingerprints: (stored.fingerprints ?? []).flatMap((s) => decodeFingerprint(s) ?? []),
    ...(stored.redirectTo ? { redirectTo: stored.redirectTo } : {}),
    answers: stored.answers ?? [],
  };
}

export function storedProfile(p: HostProfile): StoredProfile {
  return {
    probedAt: new Date(p.probedAt).toISOString(),
    verdict: p.verdict,
    fingerprints: p.fingerprints.map(encodeFingerprint),
    ...(p.redirectTo ? { redirectTo: p.redirectTo } : {}),
    answers: [...p.answers],
  };
}

/** The `_msearch` header and body that fetch the soft-404 profiles of some hosts. */
export function hostsSearch(index: string, hosts: readonly string[]): object[] {
  return [{ index }, { size: hosts.length, _source: ['soft404'], query: { ids: { values: hosts } } }];
}

/** The profiles in the answer to hostsSearch: null for each host without a readable one. */
export function hostProfilesOf(
  hosts: readonly string[],
  response: { hits?: { hits: unknown[] } } | undefined,
): Map<string, HostProfile | null> {
  const profiles = new Map<string, HostProfile | null>(hosts.map((h) => [h, null]));
  const hits = (response?.hits?.hits ?? []) as { _id: string; _source?: { soft404?: StoredProfile } }[];
  for (const h of hits) profiles.set(h._id, readProfile(h._source?.soft404));
  return profiles;
}

/** Stores a host's soft-404 profile in its document (other objects of the document are kept). */
export async function saveHostProfile(
  client: Client,
  index: string,
  host: string,
  profile: HostProfile,
): Promise<void> {
  await client.update({
    index,
    id: host,
    retry_on_conflict: 3,
    body: { doc: { host, soft404: storedProfile(profile) }, doc_as_upsert: true } as never,
  });
}
