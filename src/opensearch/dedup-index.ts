import type { Client } from '@opensearch-project/opensearch';
import type { Candidate } from '../dedup/decide.js';
import type { CandidateLookup, LookupRequest, LookupResult } from '../dedup/ports.js';
import { validBodySignature } from '../fingerprint/body-minhash.js';
import { validSignature } from '../fingerprint/minhash.js';
import type { HostProfile } from '../soft404/profile.js';
import { hostProfilesOf, hostsSearch, saveHostProfile } from './hosts-index.js';

/** What a candidate's document is read for: its fingerprint, its canonical, its body's signature. */
export const CANDIDATE_FIELDS = [
  'url',
  'simhash',
  'simhashExact',
  'simhashTokens',
  'minhash',
  'duplicateOf',
  'bodyMinhash',
  'bodyTokens',
];

/**
 * The near-duplicate and soft-404 lookups in OpenSearch: candidates in the content index (by the
 * fingerprint keys of a group of pages, by their exact signatures, and the pages' own documents by
 * id) and soft-404 profiles in the hosts index (src/opensearch/hosts-index.ts), both in one
 * `_msearch`; and writing a host's profile.
 */

interface ContentHit {
  _id: string;
  _source?: {
    url?: string;
    simhash?: string;
    simhashExact?: string;
    simhashTokens?: number;
    minhash?: string;
    duplicateOf?: string;
    bodyMinhash?: string;
    bodyTokens?: number;
  };
}

export class DedupIndex implements CandidateLookup {
  constructor(
    private readonly client: Client,
    private readonly indices: { readonly content: string; readonly hosts: string },
  ) {}

  /** One round trip for a group of pages. Throws when OpenSearch (or one of the searches) fails. */
  async lookup(req: LookupRequest): Promise<LookupResult> {
    const body: object[] = [];
    const content = req.keys.length + req.exact.length + req.ids.length > 0;
    if (content) {
      const should: object[] = [];
      if (req.keys.length > 0) should.push({ terms: { minhashKeys: req.keys } });
      if (req.exact.length > 0) should.push({ terms: { simhashExact: req.exact } });
      if (req.ids.length > 0) should.push({ ids: { values: req.ids } });
      body.push(
        { index: this.indices.content },
        {
          // The pages' own documents plus what shares a key with them: a few per page at most.
          size: Math.min(10_000, 50 + req.ids.length * 8 + req.exact.length * 4),
          track_total_hits: false,
          _source: CANDIDATE_FIELDS,
          // Filter context: nothing is scored (500 scored terms cost far more than a set lookup).
          query: { bool: { filter: [{ bool: { should, minimum_should_match: 1 } }] } },
        },
      );
    }
    if (req.hosts.length > 0) body.push(...hostsSearch(this.indices.hosts, req.hosts));
    if (body.length === 0) return { candidates: [], profiles: new Map() };
    const res = await this.client.msearch({ body: body as never });
    const responses = (
      res.body as unknown as { responses: { error?: unknown; hits?: { hits: unknown[] } }[] }
    ).responses;
    for (const r of responses) {
      if (r.error) throw new Error(`near-duplicate lookup failed: ${JSON.stringify(r.error).slice(0, 300)}`);
    }
    const candidates: Candidate[] = [];
    let next = 0;
    if (content) {
      for (const hit of (responses[next++]?.hits?.hits ?? []) as ContentHit[]) {
        const s = hit._source ?? {};
        const hash = s.simhash ?? s.simhashExact;
        if (!s.url || !hash) continue;
        candidates.push({
          id: hit._id,
          url: s.url,
          kind: s.simhash ? 'simhash' : 'exact',
          hash,
          tokens: s.simhashTokens ?? 0,
          ...(validSignature(s.minhash) ? { minhash: s.minhash } : {}),
          ...(s.duplicateOf ? { duplicateOf: s.duplicateOf } : {}),
          ...(validBodySignature(s.bodyMinhash) && typeof s.bodyTokens === 'number'
            ? { bodyMinhash: s.bodyMinhash, bodyTokens: s.bodyTokens }
            : {}),
        });
      }
    }
    const profiles = hostProfilesOf(req.hosts, req.hosts.length > 0 ? responses[next] : undefined);
    return { candidates, profiles };
  }

  /**
   * The `content` of the given documents: only the candidates that passed the estimates, only that
   * field (_source includes), by id (`_mget`, which reads a document written a moment ago too).
   */
  async texts(ids: readonly string[]): Promise<ReadonlyMap<string, string>> {
    const out = new Map<string, string>();
    if (ids.length === 0) return out;
    const res = await this.client.mget({
      index: this.indices.content,
      body: { ids: [...ids] },
      _source_includes: 'content',
    } as never);
    const docs = (
      res.body as unknown as { docs: { _id: string; found?: boolean; _source?: { content?: unknown } }[] }
    ).docs;
    for (const d of docs) {
      const content = d._source?.content;
      if (d.found && typeof content === 'string') out.set(d._id, content);
    }
    return out;
  }

  /** Stores a host's soft-404 profile in its document (other objects of the document are kept). */
  async saveProfile(host: string, profile: HostProfile): Promise<void> {
    await saveHostProfile(this.client, this.indices.hosts, host, profile);
  }

  /** A host's soft-404 profile (`crawler url`), or null. */
  async profile(host: string): Promise<HostProfile | null> {
    const r = await this.lookup({ keys: [], exact: [], ids: [], hosts: [host] });
    return r.profiles.get(host) ?? null;
  }
}
