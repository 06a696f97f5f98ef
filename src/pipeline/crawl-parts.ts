import type { Archive } from '../fetch/archive.js';
import type { FetcherOptions } from '../fetch/fetcher-ports.js';
import type { FetchProtocol, RobotsSource } from '../fetch/ports.js';
import type { MetadataTransfer } from '../model/metadata-transfer.js';
import type { TransitionRecord } from '../model/transition.js';
import type { OutlinkFilter, PageParser } from '../parse/types.js';
import type { Clock } from '../util/clock.js';
import type { Logger } from '../util/log.js';
import type { PageStageOptions } from './page-stage.js';
import type {
  ClusterHealth,
  ContentStore,
  CrawlObserver,
  DocumentParser,
  PageChecks,
  UrlSource,
} from './ports.js';
import type { StatusWrites } from './status-writes.js';

/*
 * What the crawl loop (crawler.ts) is built from and run with: its parts (the ports it drives), its
 * options, and the options of one run.
 */

/** Both stores, and what must happen to them together. */
export interface Stores {
  /** The status rules in front of the status store (pipeline/status-writes.ts). */
  readonly status: StatusWrites;
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

export interface CrawlerParts {
  readonly source: UrlSource;
  readonly stores: Stores;
  readonly parser: PageParser;
  readonly protocol: FetchProtocol;
  readonly robots: RobotsSource;
  /** WARC output: where the fetcher archives every answer (src/warc); none when off. */
  readonly archive?: Archive;
  /** URL filters for URLs the fetcher finds (redirect targets, robots.txt sitemaps). */
  readonly filter: OutlinkFilter;
  readonly transfer: Pick<MetadataTransfer, 'forOutlink'>;
  readonly clock: Clock;
  readonly log: Logger;
  /**
   * URLs each URL filter dropped so far, by filter name, for the summary (the chain of this process:
   * parser threads keep their own).
   */
  readonly filterDrops?: () => ReadonlyMap<string, number>;
  /** Whether the cluster answers, for the progress lines. */
  readonly health?: ClusterHealth;
  /** Metrics of what happens as it happens (src/metrics); none: not measured. */
  readonly observe?: CrawlObserver;
  /** Near-duplicate and soft-404 checks (src/dedup, wired in app/page-checks.ts); none when both are off. */
  readonly checks?: PageChecks;
  /** The Tika stage for documents (src/tika); none with tika.enabled false. */
  readonly documents?: DocumentParser;
}

export interface CrawlerOptions extends PageStageOptions {
  readonly fetcher: FetcherOptions;
  readonly progressIntervalMs: number;
  /** --once: URLs due within this many ms count as due (the rounding unit of nextFetchDate). */
  readonly onceLookAheadMs: number;
}

export interface RunOptions {
  /** Stop when nothing is due and nothing is in flight (checked after the writes are visible). */
  readonly once?: boolean;
  readonly drainDeadlineMs?: number;
  /**
   * With `once`, for a worker among several (`crawler run --workers`): the loop does not end when it
   * finds nothing left, since another worker's links may still make URLs of its share due. It calls
   * `idle(true)` then, `idle(false)` when it takes a URL again, and runs until `requestStop`; the
   * supervisor stops every worker once all are idle and `stillFinished` holds for each.
   */
  readonly idle?: (idle: boolean) => void;
  /**
   * False: no progress lines (a worker among several, whose supervisor sums the figures it reports
   * and writes one progress line for all).
   */
  readonly progressLines?: boolean;
  /** Told each transition the status store wrote from now on (a worker reports them to its supervisor). */
  readonly onTransition?: (record: TransitionRecord) => void;
}
