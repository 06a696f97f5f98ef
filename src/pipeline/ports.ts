import type { FetcherSink } from '../fetch/fetcher-ports.js';
import type { FetchItem } from '../fetch/ports.js';
import type { Metadata } from '../model/metadata.js';
import type { Status } from '../model/status.js';
import type { StatusUpdate } from '../model/status-updater.js';
import type { DocumentHandOff, ParsedPage, ParseStatus } from '../parse/types.js';

/*
 * What the crawl loop needs of the world around it, and the types of each port, defined here and
 * only here: the adapters above the loop implement them (OpenSearch: the spout, the status writer,
 * the content writer; src/dedup: the page checks; src/tika: the document stage), the composition
 * root (src/app) hands them in, and tests give in-memory ones. The contracts below are what
 * "nothing is lost" rests on.
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
export type PollResult<Item extends SourceItem = SourceItem> = Item | 'empty' | 'wait';

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

/** What the status store did with the writes it was given. */
export interface StatusStoreStats {
  written: number;
  /** DISCOVERED writes that found the URL known already (409): the existing document won. */
  existing: number;
  /** DISCOVERED writes skipped by the status rules' cache (the URL was written recently). */
  skippedCached: number;
  failed: number;
}

/** A URL the store just created in the status index: a DISCOVERED document that did not exist. */
export interface CreatedUrl {
  readonly url: string;
  /** The document's key (and routing): host, domain or IP, per partition.url.mode. */
  readonly key: string;
  /** The metadata the document holds (after the persist filter). */
  readonly metadata: Metadata;
  /** Milliseconds since the epoch. */
  readonly nextFetchDate: number;
}

/**
 * What the status index acknowledged of a URL's update (the settle of a URL the source emitted):
 * the document version, which a spout query returns with each hit, tells a hit of this update from
 * a hit of the document before it (the index not refreshed yet).
 */
export interface Acknowledged {
  /** The document's version after the write; undefined when nothing was written (a cached skip). */
  readonly version: number | undefined;
  /** Milliseconds since the epoch; null = never. */
  readonly nextFetchDate: number | null;
  /** The document's key (and routing). */
  readonly key: string;
}

/** How the status index took one update: acknowledged (with what), or failed for good. */
export type WriteResult =
  | {
      readonly ok: true;
      /** The document's version after the write. */
      readonly version: number | undefined;
      /** The document's key (and routing): host, domain or IP, per partition.url.mode. */
      readonly key: string;
      /** A DISCOVERED document that did not exist (201 on create): new to the index. */
      readonly created: boolean;
      /** A DISCOVERED write that found the URL known (409 on create): the existing document won. */
      readonly existed: boolean;
    }
  | {
      readonly ok: false;
      readonly status: number;
      readonly error: string;
      /** Given up by the shutdown, not refused: the crawl counts these in one line. */
      readonly closed: boolean;
    };

/** An update the status index acknowledged and that changed it, as published to subscribers. */
export interface AcknowledgedWrite {
  readonly update: StatusUpdate;
  readonly key: string;
  /** New to the index (see WriteResult). */
  readonly created: boolean;
}

/**
 * Where status updates are written: the status index. The rules were applied already (the loop's
 * StatusWrites applies them); the store only writes.
 *
 * Contract: call `write` once `ready` resolved (it waits while the store is full: the
 * backpressure of the whole crawl); `write` resolves once the update settled, acknowledged or
 * failed for good, and never rejects.
 */
export interface StatusStore {
  ready(): Promise<void>;
  write(update: StatusUpdate): Promise<WriteResult>;
}

/** A parsed page for the content index. */
export interface ContentPage {
  readonly url: string;
  readonly metadata: Metadata;
  readonly text: string;
  /** The main content as Markdown (HTML pages), stored in the `markdown` field. */
  readonly markdown?: string;
}

/**
 * How a content write ended: stored; not stored on purpose (noindex, `indexer.md.filter`: an older
 * document of a noindex page is removed); refused for good (the document is invalid); or failed
 * (the cluster could not take it, retries included).
 */
export type ContentWrite =
  | { readonly kind: 'indexed' }
  | { readonly kind: 'skipped' }
  | { readonly kind: 'rejected'; readonly error: string }
  | { readonly kind: 'failed'; readonly status: number; readonly error: string };

/**
 * Where parsed pages go: the content index. Contract as StatusStore's: `index` resolves once the
 * page is accepted (backpressure); `settled` is called exactly once with the outcome, and must not
 * throw.
 */
export interface ContentStore {
  index(page: ContentPage, settled: (outcome: ContentWrite) => void): Promise<void>;
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

/** A parsed page as the page checks see it; they change `metadata` in place. */
export interface JudgedPage {
  readonly url: string;
  readonly metadata: Metadata;
  readonly noIndex: boolean;
  /** The extracted main text, as the indexer will store it: what a duplicate is verified on. */
  readonly text?: string;
}

/**
 * `index`: on to the indexer (a canonical, or a near-duplicate with `duplicate.of` set);
 * `soft404`: the page ends FETCH_ERROR with error.cause soft404 (its metadata says why).
 */
export type Verdict = 'index' | 'soft404';

export interface Judgment {
  /** The page cannot be a soft 404: its links may be written before the verdict. */
  readonly linksNow: boolean;
  readonly verdict: Verdict | Promise<Verdict>;
}

/**
 * Near-duplicate and soft-404 checks (src/dedup builds them).
 *
 * Contract: `judge` gives every parsed page exactly one verdict (the page stage waits on `room`
 * before handing more when it holds too many); `wrapSink` sees every fetcher outcome first and
 * passes on all but the answers of its own probes, which it submits through `attach`'s function
 * and which never reach the status index; `busy` is true while a probe or a write of its own is
 * pending (`--once` waits for it); after `stop` no probe is submitted.
 */
export interface PageChecks {
  judge(page: JudgedPage): Judgment;
  room(): Promise<void>;
  wrapSink(sink: FetcherSink): FetcherSink;
  attach(submit: (item: FetchItem) => Promise<void>): void;
  readonly busy: boolean;
  stop(): void;
  /** Counters for the crawl's summary. */
  stats?(): Record<string, number>;
}

/** What a document stage hands back for a document: a parsed page or its status. */
export type DocumentFinish = (result: ParsedPage | ParseStatus) => Promise<void>;

/**
 * Where the parser's shunt sends documents (PDF, Office...): src/tika's stage, none with
 * tika.enabled false. Contract: `finish` is called exactly once for each document `parse` took,
 * unless `clear` dropped it first (the shutdown deadline); `parse` resolves when `finish` has.
 */
export interface DocumentParser {
  /** Documents queued or at the parser. */
  readonly busy: number;
  /** Resolves when the backlog has room for one more. */
  room(): Promise<void>;
  /** Resolves when nothing is queued or being parsed. */
  idle(): Promise<void>;
  /** Drops the documents still waiting. */
  clear(): void;
  parse(doc: DocumentHandOff, content: Buffer, finish: DocumentFinish): Promise<void>;
}
