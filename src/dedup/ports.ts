import type { HostProfile } from '../soft404/profile.js';
import type { Candidate } from './decide.js';

/** What the judge asks of the index for a group of pages, in one round trip. */
export interface LookupRequest {
  /** Fingerprint keys (keys.ts) of the pages' simhashes. */
  readonly keys: readonly string[];
  /** Exact signatures of the pages' short texts. */
  readonly exact: readonly string[];
  /** The pages' own content document ids (their previous fingerprint). */
  readonly ids: readonly string[];
  /** Hosts whose soft-404 profile is wanted. */
  readonly hosts: readonly string[];
}

export interface LookupResult {
  readonly candidates: readonly Candidate[];
  /** Every host asked for: its profile, or null when it has none. */
  readonly profiles: ReadonlyMap<string, HostProfile | null>;
}

/** The content and hosts indices as the judge sees them (OpenSearch's DedupIndex fits). */
export interface CandidateLookup {
  /** Rejects when the index cannot answer; the judge retries, then judges without it. */
  lookup(request: LookupRequest): Promise<LookupResult>;
  /**
   * The main texts (`content`) of the given content documents, for the exact check of the candidates
   * that passed the estimates; a document without text is missing from the map. Rejects when the
   * index cannot answer (the judge then decides those pages without the candidates' texts).
   */
  texts(ids: readonly string[]): Promise<ReadonlyMap<string, string>>;
}
