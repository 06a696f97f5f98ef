import type {
  AdoptItem,
  FetchDemand,
  PollResult as PortPollResult,
  SourceStats,
} from '../../pipeline/ports.js';
import type { QueryForm } from './query.js';

/*
 * The spout's side of the crawl loop's UrlSource port (pipeline/ports.ts defines the items, the
 * poll's answer and FetchDemand): how it is set up (`SpoutOptions`) and what it reports beyond the
 * port's stats (`SpoutStats`).
 */

/** A URL the spout hands out: always with its key (the document's routing). */
export type SpoutItem = AdoptItem;

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

/** The source's stats (queries over the last 1024), and what only the spout has. */
export interface SpoutStats extends SourceStats {
  readonly lastQueryMs: number;
  readonly buffered: number;
  readonly inPurgatory: number;
  /** URLs taken in flight by `adopt` rather than from a query. */
  readonly adopted: number;
  /** Per-key queries: a host's queue ran short, or a URL settled back came due. */
  readonly keyQueries: number;
  /** Host-ms a key's fetch queue sat idle while due URLs of it were known (see KeyWork). */
  readonly idleWithWorkMs: number;
}

export type { FetchDemand };
/** What `Spout.poll` answers: the port's answer, its URLs always with their key. */
export type PollResult = PortPollResult<SpoutItem>;
