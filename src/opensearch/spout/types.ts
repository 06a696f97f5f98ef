import type { Metadata } from '../../model/metadata.js';
import type { Status } from '../../model/status.js';
import type { QueryForm } from './query.js';

/*
 * The spout's contract with the crawl loop: what it hands out (`SpoutItem`), how it is set up
 * (`SpoutOptions`), what the fetch side tells it (`FetchDemand`) and what it reports (`SpoutStats`).
 */

export interface SpoutItem {
  readonly url: string;
  readonly metadata: Metadata;
  readonly status: Status | undefined;
  readonly key: string;
}

export interface SpoutOptions {
  readonly index: string;
  readonly form: QueryForm;
  readonly maxBuckets: number;
  readonly maxUrlsPerBucket: number;
  readonly filterQueries: readonly string[];
  readonly queryTimeoutSecs: number;
  readonly minDelayMs: number;
  readonly maxDelayMs: number;
  /** ms; negative = never. */
  readonly resetFetchDateAfterMs: number;
  readonly purgatoryMs: number;
  /** The status shards this instance reads; undefined = all (one instance). */
  readonly shards?: readonly number[];
  /** Told each query's duration in ms, answered or not (metrics). */
  readonly onQuery?: (ms: number) => void;
}

export type PollResult = SpoutItem | 'empty' | 'wait';

/**
 * What the fetch side can take, by key: the crawl loop answers (`Spout.serve`). Without it the
 * spout knows no bounds but its budget.
 */
export interface FetchDemand {
  /** URLs of the key handed out and not fetched yet (in its fetch queue, or about to be). */
  waiting(key: string): number;
  /** URLs of the key its host may fetch within `ms` at its politeness; Infinity without a delay. */
  pace(key: string, ms: number): number;
  /** URLs the fetch queues can still take (fetcher.max.urls.in.queues); Infinity when unbounded. */
  room(): number;
}

export interface SpoutStats {
  readonly queries: number;
  readonly lastQueryMs: number;
  /** Over the last 1024 queries, in ms (NaN before the first). */
  readonly queryMsP50: number;
  readonly queryMsP95: number;
  readonly buffered: number;
  readonly inFlight: number;
  readonly inPurgatory: number;
  /** URLs taken in flight by `adopt` rather than from a query. */
  readonly adopted: number;
  /** Per-key queries: a host's queue ran short, or a URL settled back came due. */
  readonly keyQueries: number;
  /** Host-ms a key's fetch queue sat idle while due URLs of it were known (see KeyWork). */
  readonly idleWithWorkMs: number;
}
