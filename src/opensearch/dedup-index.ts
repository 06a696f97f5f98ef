import type { Client } from '@opensearch-project/opensearch';
import type { Candidate } from '../dedup/decide.js';
import type { CandidateLookup, LookupRequest, LookupResult } from '../dedup/ports.js';
import { BODY_BINS, validBodySignature } from '../fingerprint/body-minhash.js';
import { MINHASH_DIGITS, validSignature } from '../fingerprint/minhash.js';
import type { HostProfile } from '../soft404/profile.js';
import { contentDocumentId } from './content-doc.js';
import { hostProfilesOf, hostsSearch, saveHostProfile } from './hosts-index.js';
import { signatureOf } from './signature-field.js';

/** What a candidate's document is read for: its fingerprint, its canonical, its body's signature. */
const CANDIDATE_FIELDS = [
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
 * The same from doc values, with `canonical`: the document's id follows from the two
 * (contentDocumentId), so not even `_id`, a stored field, is read.
 */
const DOC_VALUE_FIELDS = [...CANDIDATE_FIELDS, 'canonical'];

/** The signatures, `binary` fields with doc values in mappings/content.json (signature-field.ts). */
const SIGNATURE_FIELDS = ['minhash', 'bodyMinhash'];

/**
 * How a lookup reads its candidates. `docValues`: from doc values only, no stored document opened:
 * OpenSearch decompresses a hit's whole stored document, the page's text and Markdown with it, to
 * read any stored field of it or its `_id`, and with `_source` also parses it. `source`: a content
 * index made before the signatures had doc values cannot be given them, so it is read from
 * `_source` as before.
 */
type ReadMode = 'docValues' | 'source';

/**
 * The near-duplicate and soft-404 lookups in OpenSearch: candidates in the content index (by the
 * fingerprint keys of a group of pages, by their exact signatures, and the pages' own documents by
 * id) and soft-404 profiles in the hosts index (src/opensearch/hosts-index.ts), both in one
 * `_msearch`; and writing a host's profile.
 */

interface ContentHit {
  _id?: string;
  _source?: Record<string, unknown>;
  fields?: Record<string, unknown[]>;
}

/** A hit's fields, from `_source` or from doc values (their first value: all are single). */
function hitFields(hit: ContentHit): Record<string, unknown> {
  if (hit._source) return hit._source;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(hit.fields ?? {})) if (v.length > 0) out[k] = v[0];
  return out;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** A hit as a candidate, or undefined when it has no fingerprint. */
function candidateOf(hit: ContentHit): Candidate | undefined {
  const s = hitFields(hit);
  const url = str(s.url);
  const simhash = str(s.simhash);
  const hash = simhash ?? str(s.simhashExact);
  if (!url || !hash) return undefined;
  const minhash = signatureOf(s.minhash, MINHASH_DIGITS);
  const bodyMinhash = signatureOf(s.bodyMinhash, BODY_BINS);
  const duplicateOf = str(s.duplicateOf);
  return {
    id: hit._id ?? contentDocumentId(url, str(s.canonical)),
    url,
    kind: simhash ? 'simhash' : 'exact',
    hash,
    tokens: typeof s.simhashTokens === 'number' ? s.simhashTokens : 0,
    ...(validSignature(minhash) ? { minhash } : {}),
    ...(duplicateOf ? { duplicateOf } : {}),
    ...(validBodySignature(bodyMinhash) && typeof s.bodyTokens === 'number'
      ? { bodyMinhash, bodyTokens: s.bodyTokens }
      : {}),
  };
}

export class DedupIndex implements CandidateLookup {
  constructor(
    private readonly client: Client,
    private readonly indices: { readonly content: string; readonly hosts: string },
    private readonly onLegacy: (index: string) => void = () => {},
  ) {}

  /** Settled once the content index's mapping was read; a failed read is tried again next time. */
  private mode: Promise<ReadMode> | undefined;

  /**
   * `docValues` when every index behind the content index's name has the signatures as doc values.
   * The mapping is read once (the index exists: the crawler creates it before it crawls).
   */
  private readMode(): Promise<ReadMode> {
    this.mode ??= this.client.indices
      .getFieldMapping({ index: this.indices.content, fields: SIGNATURE_FIELDS.join(',') })
      .then((res) => {
        const indices = Object.values(res.body as Record<string, { mappings?: Record<string, unknown> }>);
        const hasDocValues = (m: unknown, f: string): boolean => {
          const field = (
            m as { mapping?: Record<string, { type?: unknown; doc_values?: unknown }> } | undefined
          )?.mapping?.[f];
          return field?.type === 'binary' && (field.doc_values === true || field.doc_values === 'true');
        };
        const all =
          indices.length > 0 &&
          indices.every((i) => SIGNATURE_FIELDS.every((f) => hasDocValues(i.mappings?.[f], f)));
        if (!all) this.onLegacy(this.indices.content);
        return all ? ('docValues' as const) : ('source' as const);
      })
      .catch((e: unknown) => {
        this.mode = undefined;
        throw e;
      });
    return this.mode;
  }

  /** One round trip for a group of pages. Throws when OpenSearch (or one of the searches) fails. */
  async lookup(req: LookupRequest): Promise<LookupResult> {
    const body: object[] = [];
    const content = req.keys.length + req.exact.length + req.ids.length > 0;
    if (content) {
      const mode = await this.readMode();
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
          ...(mode === 'docValues'
            ? { stored_fields: '_none_', docvalue_fields: DOC_VALUE_FIELDS }
            : { _source: CANDIDATE_FIELDS }),
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
        const c = candidateOf(hit);
        if (c) candidates.push(c);
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
