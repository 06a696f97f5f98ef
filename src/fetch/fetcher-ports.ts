import type { Clock } from '../util/clock.js';
import type { Archive } from './archive.js';
import type { CrawlDelayPolicy } from './crawl-delay.js';
import type { HealthPolicy } from './host-health.js';
import type { HostLog } from './host-reactions.js';
import type { FetchedOutcome, StatusOutcome } from './outcomes.js';
import type { FetchFlow, FetchItem, FetchProtocol, RobotsSource } from './ports.js';
import type { QueueMode, Resolve } from './queue-key.js';
import type { QueueSettings } from './queues.js';

/*
 * What the fetcher (fetcher.ts) is built with and where its results go: its options, its sink and
 * its dependencies. Apart from the class so that the stages that feed it or read its results import
 * its contract, not its code.
 */

export interface FetcherOptions {
  readonly queue: QueueSettings;
  readonly mode: QueueMode;
  /** fetcher.threads.number */
  readonly threads: number;
  /** fetcher.max.urls.in.queues; -1 = unbounded. */
  readonly maxUrlsInQueues: number;
  /** fetcher.timeout.queue in ms; -1 = none. */
  readonly queueTimeoutMs: number;
  readonly crawlDelay: CrawlDelayPolicy;
  /** protocol.md.prefix */
  readonly prefix: string;
  /** redirections.allowed */
  readonly redirectionsAllowed: boolean;
  /** sitemap.discovery: emit the Sitemap: lines of freshly fetched robots.txt files. */
  readonly sitemapDiscovery: boolean;
  /** How failing hosts are treated (backoff, Retry-After, down). */
  readonly hosts: HealthPolicy;
}

/** Where the fetcher's results go. Each submitted URL produces exactly one `status` or `fetched`. */
export interface FetcherSink {
  status(outcome: StatusOutcome): void;
  /**
   * A page to parse. The fetch thread waits for the returned promise, so a parse stage that falls
   * behind holds the fetchers back instead of piling up fetched pages in memory.
   */
  fetched(outcome: FetchedOutcome & { readonly content: Buffer }): void | Promise<void>;
  /**
   * A new URL found while fetching (a redirect target, a sitemap from robots.txt); `found.sitemap`:
   * it is a sitemap (written as the `isSitemap` metadata of its DISCOVERED document).
   */
  discovered(source: FetchItem, target: string, found?: FoundUrl): void;
}

/** What the fetcher knows of a URL it found. */
export interface FoundUrl {
  readonly sitemap?: boolean;
}

export interface FetcherDeps {
  readonly protocol: FetchProtocol;
  readonly robots: RobotsSource;
  readonly sink: FetcherSink;
  readonly clock: Clock;
  readonly resolve?: Resolve;
  /** WARC output: every HTTP answer is archived (and awaited) before it goes on. */
  readonly archive?: Archive;
  readonly log?: HostLog;
  /** Told when URLs leave the queues and when a queue runs dry (the source keeps hosts supplied). */
  readonly flow?: FetchFlow;
  /** Told every HTTP answer's status code and loading time (metrics). Must not throw. */
  readonly onResponse?: (statusCode: number, loadingTimeMs: number) => void;
}
