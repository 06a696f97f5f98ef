import type { Metadata } from '../model/metadata.js';
import type { Status } from '../model/status.js';
import type { StatusEvent } from '../model/status-updater.js';
import type { TransitionRecord } from '../model/transition.js';
import type { ContentWrite } from '../opensearch/content-store.js';
import type {
  Acknowledged,
  CreatedUrl,
  StatusWriterStats as StatusStoreStats,
} from '../opensearch/status-store.js';

/*
 * What the crawl loop needs of the world around it. OpenSearch implements each port (the spout, the
 * status writer, the content writer, in src/opensearch); tests give in-memory ones. The contracts
 * below are what "nothing is lost" rests on.
 */

/** A URL the source hands out, with what the status index holds about it. */
export interface SourceItem {
  readonly url: string;
  readonly metadata: Metadata;
  /** Its status before this fetch (undefined when the document has none we know). */
  readonly status: Status | undefined;
  /** Its document's key (host, domain or IP), when the source knows it. */
  readonly key?: string;
}

/** A URL the loop may hand to the source (`adopt`): its status document and its key. */
export interface AdoptItem extends SourceItem {
  /** The document's key (and routing): which share of the status shards holds it. */
  readonly key: string;
}

/** `poll`'s answer: a URL; 'wait' (ask again shortly); 'empty' (a query just found nothing due). */
export type PollResult = SourceItem | 'empty' | 'wait';

export interface SourceStats {
  readonly queries: number;
  /** Over recent queries, in ms (NaN before the first). */
  readonly queryMsP50: number;
  readonly queryMsP95: number;
  /** URLs handed out and not settled yet. */
  readonly inFlight: number;
  /** Host-ms a host's fetch queue sat idle while due URLs of it were known (see `UrlSource.serve`). */
  readonly idleWithWorkMs?: number;
}

/** What the fetch side can take, by key (the crawl loop answers; see `UrlSource.serve`). */
export interface FetchDemand {
  /** URLs of the key handed out and not fetched yet (in its fetch queue, or about to be). */
  waiting(key: string): number;
  /** URLs of the key its host may fetch within `ms` at its politeness; Infinity without a delay. */
  pace(key: string, ms: number): number;
  /** URLs the fetch queues can still take (fetcher.max.urls.in.queues); Infinity when unbounded. */
  room(): number;
}

/**
 * Where the crawl loop takes its URLs: the spout over the status index.
 *
 * Contract: a URL `poll` returns is in flight until `settle(url)`, and is not returned again while
 * in flight (nor shortly after, until the index shows its new state). The loop settles every URL
 * it took exactly once: after its status update was acknowledged, or when it gives the URL up
 * unchanged (it then comes back when due).
 */
export interface UrlSource {
  poll(): Promise<PollResult>;
  /**
   * `ack`: what OpenSearch acknowledged of the URL's update; absent when the URL is given up
   * unchanged. The source may emit the URL again once its queries show that update.
   */
  settle(url: string, ack?: Acknowledged): void;
  /**
   * For `--once`, called when every write is flushed and nothing is in flight: makes the writes
   * visible, then looks again for URLs due within `lookAheadMs`. True when there are none (and the
   * look was not a failed query); URLs found are handed out by the next polls.
   */
  isExhausted(lookAheadMs: number): Promise<boolean>;
  /**
   * Optional. A URL this crawl has just created in the status index (DISCOVERED, due, acknowledged):
   * true when the source takes it in flight as if `poll` had returned it, so the loop fetches it at
   * once and settles it as any other. Only for a URL of this source's own share of the index (its
   * key), not in flight, not in the purgatory, not buffered; false otherwise, and the URL is found
   * by a query as usual. This is what keeps a crawl whose frontier runs dry from waiting on the
   * flush, refresh and query timers: the URL was persisted first, so a crash loses nothing.
   */
  adopt?(item: AdoptItem): boolean;
  /**
   * Optional, called once before the loop runs: `demand` tells the source what the fetch side holds
   * and can take by key (it bounds what the source hands out and adopts), and the source calls
   * `buffered` when URLs arrive between polls (the loop then polls at once).
   */
  serve?(demand: FetchDemand, buffered: () => void): void;
  /** Optional: a URL of the key left its fetch queue (the queue may run short). */
  short?(key: string): void;
  /**
   * Optional: when the next URL of this source's share is due (ms; undefined when none is
   * scheduled) and how many URLs are scheduled at all (a nextFetchDate, not "never"). For the
   * line a continuous crawl says when nothing is due.
   */
  nextDue?(): Promise<{ at: number | undefined; scheduled: number }>;
  /** Optional: the key's fetch queue has nothing to fetch from `at` on (its delay over). */
  drained?(key: string, at: number): void;
  stats(): SourceStats;
}

// StatusStoreStats: written, existing (a DISCOVERED that found the URL known), skipped by the
// DISCOVERED cache, failed. CreatedUrl: a DISCOVERED document the store created (new to the index).
// Acknowledged: what OpenSearch acknowledged of a settling update (document version, next fetch, key).
export type {
  Acknowledged,
  CreatedUrl,
  StatusWriterStats as StatusStoreStats,
} from '../opensearch/status-store.js';

/**
 * Where status events go: the status rules, then the status index.
 *
 * Contract: `write` resolves once the event is accepted (it waits while the store is full: that is
 * the backpressure of the whole crawl), not when it is stored. `settled`, when given, is called
 * exactly once per write, with true once the store acknowledged it (or had nothing to write; `ack`
 * says what was acknowledged when something was) and false when the write failed for good; it must
 * not throw. `found`, for a found link (a write without `settled`), is called exactly once when its
 * write settled, with true when it was stored (or had nothing to write) and false when it failed for
 * good: the page that found it writes its own status only once every link was stored, so that
 * neither a crash nor a failed write leaves a FETCHED page whose links were never stored.
 */
export interface StatusStore {
  write(
    event: StatusEvent,
    settled?: (written: boolean, ack?: Acknowledged) => void,
    found?: (written: boolean) => void,
  ): Promise<void>;
  /**
   * True when a DISCOVERED write of `url` would change nothing (this store wrote the URL recently):
   * the caller skips it, and it counts as skipped. Cheap, synchronous, by URL alone.
   */
  skipDiscovered(url: string): boolean;
  /**
   * Optional: `listener` is called for each DISCOVERED write OpenSearch acknowledged as a new
   * document (not one that found the URL known), once acknowledged. One listener; it must not throw.
   */
  watchCreated?(listener: (created: CreatedUrl) => void): void;
  /**
   * Optional: `listener` is called for each transition the store wrote (acknowledged), as the
   * transition log shows it. One listener; it must not throw.
   */
  watchTransitions?(listener: (record: TransitionRecord) => void): void;
  /** Writes accepted and not settled yet. */
  readonly pending: number;
  /**
   * Writes of found links (called without `settled`) not settled yet, counted from the call to
   * `write` (so also those still waiting for room): what a shutdown deadline leaves unwritten.
   */
  readonly pendingFound: number;
  readonly stats: StatusStoreStats;
}

/** A parsed page for the content index. */
export interface ContentPage {
  readonly url: string;
  readonly metadata: Metadata;
  readonly text: string;
  /** The main content as Markdown (HTML pages), stored in the `markdown` field. */
  readonly markdown?: string;
}

// Defined beside the content writer, which cannot import the pipeline.
export type { ContentWrite } from '../opensearch/content-store.js';

/**
 * Where parsed pages go: the content index. Contract as StatusStore's: `index` resolves once the
 * page is accepted (backpressure); `settled` is called exactly once with the outcome, and must not
 * throw.
 */
export interface ContentStore {
  index(page: ContentPage, settled: (outcome: ContentWrite) => void): Promise<void>;
}

/** Both stores, and what must happen to them together. */
export interface Stores {
  readonly status: StatusStore;
  readonly content: ContentStore;
  /**
   * Sends everything buffered (status, content, deletions) and resolves when all of it is settled,
   * including the writes that settling queued (a stored page queues its FETCHED status).
   */
  flush(): Promise<void>;
  /**
   * Optional: sends what is buffered now rather than at the flush intervals, without waiting; the
   * loop calls it when it has nothing to fetch. Cheap when there is nothing to send.
   */
  sendNow?(): void;
}

/** The cluster as the progress lines report it; the OpenSearch side's ClusterOutage fits. */
export interface ClusterHealth {
  /** Milliseconds since the cluster stopped answering; undefined while it answers. */
  unreachableMs(): number | undefined;
}

/**
 * What the crawl loop reports as it happens, for its metrics (src/metrics). Called on the hot path:
 * cheap, synchronous, must not throw.
 */
export interface CrawlObserver {
  /** A fetch got an HTTP answer. */
  response(statusCode: number, loadingTimeMs: number): void;
  /** A URL's own status event is ERROR or FETCH_ERROR (its metadata says why). */
  error(metadata: Metadata): void;
}

// PageChecks: near-duplicate and soft-404 checks; declared (with their contract) beside their builder,
// which the pipeline's layer is above.
export type { PageChecks } from '../dedup/build.js';
