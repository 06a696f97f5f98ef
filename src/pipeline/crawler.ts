import type { Archive } from '../fetch/archive.js';
import { Fetcher, type FetcherOptions } from '../fetch/fetcher.js';
import type { FetchedOutcome, StatusOutcome } from '../fetch/outcomes.js';
import type { FetchItem, FetchProtocol, RobotsSource } from '../fetch/ports.js';
import { MD } from '../model/keys.js';
import type { MetadataTransfer } from '../model/metadata-transfer.js';
import type { Status } from '../model/status.js';
import type { StatusEvent } from '../model/status-updater.js';
import type { OutlinkFilter, PageParser } from '../parse/types.js';
import type { DocumentStage } from '../tika/stage.js';
import type { Clock } from '../util/clock.js';
import { errorMessage } from '../util/errors.js';
import type { Logger } from '../util/log.js';
import { type CrawlSnapshot, type CrawlSummary, crawlSummary } from './crawl-report.js';
import { IdleNotice } from './idle-notice.js';
import { CrawlMetrics } from './metrics.js';
import { PageStage, type PageStageOptions } from './page-stage.js';
import type {
  Acknowledged,
  ClusterHealth,
  CrawlObserver,
  CreatedUrl,
  PageChecks,
  SourceItem,
  Stores,
  UrlSource,
} from './ports.js';

export type { CrawlSnapshot, CrawlSummary } from './crawl-report.js';

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
  /** Near-duplicate and soft-404 checks (pipeline/page-checks.ts); none when both are off. */
  readonly checks?: PageChecks;
  /** The Tika stage for documents (src/tika); none with tika.enabled false. */
  readonly documents?: DocumentStage;
}

export interface CrawlerOptions extends PageStageOptions {
  readonly fetcher: FetcherOptions;
  readonly progressIntervalMs: number;
  /** --once: URLs due within this many ms count as due (the rounding unit of nextFetchDate). */
  readonly onceLookAheadMs: number;
}

/** A URL taken from the source and not released yet. */
interface Taken {
  /** Its status before this round, for the transition log. */
  readonly previous: Status | undefined;
  /** Its document's key, when the source gave one. */
  readonly key: string | undefined;
  /** Its own status event was handed to the status store. */
  settling: boolean;
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
}

/**
 * The crawl loop: source -> fetcher -> parser -> indexer -> status store, every hand-over bounded.
 *
 * Each URL taken from the source gets exactly one status event of its own (`settle`), whatever
 * happens to it; the URL is released back to the source once the store settled that event, or when
 * it is given up unchanged (a content write that failed, the shutdown deadline). A second event for
 * the same URL is ignored. Outlinks are DISCOVERED events of their own and release nothing.
 *
 * No idle waits: while the fetcher has fewer URLs waiting than fetch threads (the crawl is
 * "hungry") and the source has nothing to hand out, pending writes are sent at once instead of at
 * the flush intervals. Each URL the store creates (a new DISCOVERED document, due) is offered to the
 * source (`adopt`), which takes it when its host's queue has room, and it is then fetched without
 * waiting for a refresh and a query. The source learns what each host's queue holds and can take
 * (`serve`: URLs waiting by key, the host's pace, the room in the fetch queues) and when a queue
 * runs short or dry, so that it can supply hosts between its timed queries.
 */
export class Crawler {
  readonly metrics = new CrawlMetrics();
  private readonly fetcher: Fetcher;
  private readonly pages: PageStage;
  private readonly taken = new Map<string, Taken>();
  /** URLs handed to the fetcher (or adopted, about to be) and not started yet, by key. */
  private readonly waitingByKey = new Map<string, number>();
  /** Adopted URLs (in flight at the source) waiting for the loop to submit them; bounded. */
  private readonly ready: SourceItem[] = [];
  /** Ends the loop's current nap: a URL was adopted, or a stop requested. */
  private wake: (() => void) | undefined;
  /** URLs taken so far when --once last asked the source whether it is exhausted. */
  private lookedAt = -1;
  /** While reported idle (RunOptions.idle): URLs taken so far, to tell that none was taken since. */
  private idleAt: number | undefined;
  private stopping = false;
  /** After the shutdown deadline: late results of abandoned URLs write nothing. */
  private closed = false;

  constructor(
    private readonly parts: CrawlerParts,
    private readonly options: CrawlerOptions,
  ) {
    this.pages = new PageStage(
      {
        parser: parts.parser,
        status: parts.stores.status,
        content: parts.stores.content,
        filter: parts.filter,
        transfer: parts.transfer,
        metrics: this.metrics,
        log: parts.log,
        settle: (event) => this.settle(event),
        giveUp: (url) => this.release(url),
        failed: (url, e) => this.failed(url, e),
        closed: () => this.closed,
        ...(parts.checks ? { checks: parts.checks } : {}),
        ...(parts.documents ? { documents: parts.documents } : {}),
      },
      options,
    );
    const sink = {
      status: (o: StatusOutcome) =>
        void this.pages.status({ url: o.url, status: o.status, metadata: o.metadata }),
      fetched: (page: FetchedOutcome & { readonly content: Buffer }) =>
        this.pages.page(page.url, page.metadata, page.content),
      discovered: (source: FetchItem, target: string, extra?: Readonly<Record<string, string>>) =>
        this.pages.discovered(source, target, extra),
    };
    this.fetcher = new Fetcher(options.fetcher, {
      protocol: parts.protocol,
      robots: parts.robots,
      archive: parts.archive, // WARC output
      clock: parts.clock,
      log: parts.log,
      ...(parts.observe ? { onResponse: (code, ms) => parts.observe!.response(code, ms) } : {}),
      sink: parts.checks ? parts.checks.wrapSink(sink) : sink,
      flow: {
        left: (item) => this.left(item.key),
        drained: (item, at) => {
          if (item.key !== undefined) parts.source.drained?.(item.key, at);
        },
      },
    });
    // Soft-404 probes go through the fetcher like any URL, first in their host's queue.
    parts.checks?.attach((item) => this.fetcher.submit(item, { first: true }));
    parts.stores.status.watchCreated?.((created) => this.offer(created));
    const max = options.fetcher.maxUrlsInQueues;
    parts.source.serve?.(
      {
        waiting: (key) => this.waitingByKey.get(key) ?? 0,
        pace: (key, ms) => this.fetcher.pace(key, ms),
        room: () => (max < 0 ? Number.POSITIVE_INFINITY : max - this.fetcher.holding - this.ready.length),
      },
      () => this.wake?.(),
    );
  }

  /** Asks the loop to stop taking URLs; `run` then drains what is in flight and returns. */
  requestStop(): void {
    this.stopping = true;
    this.parts.checks?.stop();
    this.wake?.();
  }

  /**
   * Runs until `requestStop`, or with `once` until nothing is due and nothing is in flight (checked
   * after the writes are visible). Flushes every pending write before returning; URLs still in
   * flight at the drain deadline are given up unchanged (`metrics.abandoned`).
   */
  async run(options: RunOptions = {}): Promise<void> {
    const { source, stores, log } = this.parts;
    // The first progress line's rate counts from here, not from nothing.
    this.metrics.rate(this.parts.clock.now());
    const progress = setInterval(() => this.logProgress(), this.options.progressIntervalMs);
    progress.unref();
    // A continuous crawl says when nothing is due (--once stops instead).
    const idle = options.once ? undefined : new IdleNotice(source, log, this.parts.clock);
    try {
      while (!this.stopping) {
        const adopted = this.ready.shift();
        const next = adopted ?? (await source.poll());
        if (typeof next === 'object') {
          this.metrics.emitted++;
          idle?.working();
          if (this.idleAt !== undefined) {
            this.idleAt = undefined;
            options.idle?.(false);
          }
          const { url, metadata, status, key } = next;
          // An adopted URL was counted as waiting when it was adopted.
          if (!adopted) this.waits(key);
          this.taken.set(url, { previous: status, key, settling: false });
          await this.fetcher.submit(
            key === undefined ? { url, metadata, status } : { url, metadata, status, key },
          );
          continue;
        }
        // Nothing to hand over: what is pending is written now, not at the next flush interval.
        if (this.hungry()) stores.sendNow?.();
        if (next === 'empty' && this.taken.size === 0 && this.ready.length === 0) idle?.nothingDue();
        // --once: looked at when a query found nothing, and once as soon as the crawl runs out of
        // work (not only after the next query the spout's pacing allows).
        const look = next === 'empty' || this.lookedAt !== this.metrics.emitted;
        if (options.once && look && this.idleAt === undefined && (await this.finishedOnce())) {
          if (!options.idle) break;
          this.idleAt = this.metrics.emitted;
          options.idle(true);
        }
        if (this.ready.length === 0 && !this.stopping) await this.nap(next === 'wait' ? 20 : 100);
      }
    } finally {
      clearInterval(progress);
    }
    // Adopted and never submitted: given back unchanged.
    for (const item of this.ready.splice(0)) {
      this.left(item.key);
      source.settle(item.url);
    }
    await this.drain(options.drainDeadlineMs ?? 30_000);
    this.logProgress();
    log.info(this.summary(), 'crawl stopped');
  }

  /**
   * `--once` among workers (RunOptions.idle): true when the loop took no URL since it reported idle
   * and a fresh look (everything written, the index refreshed) still finds nothing due.
   */
  async stillFinished(): Promise<boolean> {
    const at = this.idleAt;
    if (at === undefined) return false;
    return (await this.finishedOnce()) && this.idleAt === at && this.metrics.emitted === at;
  }

  /** Waits `ms`, or less when a URL is adopted or a stop requested. */
  private nap(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        if (this.wake === done) this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wake = done;
    });
  }

  /** The fetcher could start more fetches than it has URLs waiting for. */
  private hungry(): boolean {
    return this.fetcher.waiting + this.ready.length < this.options.fetcher.threads;
  }

  /**
   * A URL the store just created: fetched next if it is due (within the rounding of nextFetchDate,
   * as for --once) and the source takes it (its own share, not in flight, room in its host's queue).
   */
  private offer(created: CreatedUrl): void {
    const { source, clock } = this.parts;
    if (!source.adopt || this.stopping || this.closed) return;
    if (created.nextFetchDate > clock.now() + this.options.onceLookAheadMs) return;
    const item = {
      url: created.url,
      metadata: created.metadata,
      status: 'DISCOVERED' as const,
      key: created.key,
    };
    if (!source.adopt(item)) return;
    this.waits(item.key);
    this.ready.push(item);
    this.metrics.adopted++;
    this.wake?.();
  }

  /** A URL of the key is on its way to the fetch queues. */
  private waits(key: string | undefined): void {
    if (key !== undefined) this.waitingByKey.set(key, (this.waitingByKey.get(key) ?? 0) + 1);
  }

  /** A URL of the key left the fetch queues (its fetch starts, or it went back unfetched). */
  private left(key: string | undefined): void {
    if (key === undefined) return;
    const n = (this.waitingByKey.get(key) ?? 1) - 1;
    if (n > 0) this.waitingByKey.set(key, n);
    else this.waitingByKey.delete(key);
    this.parts.source.short?.(key);
  }

  /** --once: is the crawl over? Waits for in-flight URLs, writes everything, then asks again. */
  private async finishedOnce(): Promise<boolean> {
    const { source, stores } = this.parts;
    if (this.taken.size > 0 || this.ready.length > 0 || stores.status.pending > 0) return false;
    // Soft-404 probes in flight may still make pages due.
    if (this.parts.checks?.busy) return false;
    await stores.flush();
    if (this.taken.size > 0 || this.ready.length > 0) return false;
    this.lookedAt = this.metrics.emitted;
    return source.isExhausted(this.options.onceLookAheadMs);
  }

  private async drain(deadlineMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), deadlineMs);
    });
    const done = (async () => {
      await this.fetcher.idle();
      await this.pages.idle();
      await this.parts.stores.flush();
      return 'done' as const;
    })();
    const outcome = await Promise.race([done, deadline]);
    clearTimeout(timer);
    this.fetcher.close();
    if (outcome === 'timeout') {
      this.closed = true;
      this.pages.clear();
      const urls = [...this.taken.keys()];
      const discovered = this.parts.stores.status.pendingFound;
      for (const url of urls) this.release(url);
      this.metrics.abandoned += urls.length;
      this.metrics.discoveredNotWritten += discovered;
      this.parts.log.warn(
        { notWritten: urls.length, discoveredNotWritten: discovered },
        `shutdown deadline reached: ${urls.length} status updates of URLs in flight were not written ` +
          '(those URLs keep their previous state and come back when due)' +
          (discovered > 0 ? `, nor ${discovered} newly discovered links` : ''),
      );
    }
  }

  /** True while the URL is taken: emitted by the source and its status not yet acknowledged. */
  holds(url: string): boolean {
    return this.taken.has(url);
  }

  /** The event that settles a URL taken from the source. Resolves once the store accepted it. */
  private async settle(event: StatusEvent): Promise<void> {
    const taken = this.taken.get(event.url);
    if (!taken || taken.settling || this.closed) {
      this.parts.log.debug(
        { url: event.url, status: event.status },
        'an outcome for a URL already settled or given up; ignored',
      );
      return;
    }
    taken.settling = true;
    // A deferral is stored as is; a URL deferred once still carries its persisted defer.cause when
    // it is fetched later, and that fetch counts under its status.
    const deferred =
      event.metadata.getFirstValue(MD.storeAsIs) !== undefined
        ? event.metadata.getFirstValue(MD.deferCause)
        : undefined;
    if (deferred !== undefined) this.metrics.defer(deferred);
    else {
      const cause =
        event.metadata.getFirstValue(MD.errorCause) ?? event.metadata.getFirstValue(MD.fetchException);
      this.metrics.status(event.status, cause);
      if (event.status === 'ERROR' || event.status === 'FETCH_ERROR')
        this.parts.observe?.error(event.metadata);
    }
    try {
      await this.parts.stores.status.write({ ...event, previousStatus: taken.previous }, (_, ack) =>
        this.release(event.url, ack),
      );
    } catch (e) {
      this.failed(event.url, e);
    }
  }

  /** The URL's fate is settled (`ack`: what was acknowledged) or given up: back to the source. */
  private release(url: string, ack?: Acknowledged): void {
    if (this.taken.delete(url)) this.parts.source.settle(url, ack);
  }

  /** A bug in a stage (a store or parser broke its contract): the URL is given up, not lost. */
  private failed(url: string, e: unknown): void {
    this.parts.log.error(
      { url, err: errorMessage(e) },
      'the crawl loop failed on this URL; it is given up unchanged and comes back when due',
    );
    this.release(url);
  }

  /**
   * What the crawl did and cost, for the last log line (operators and scripts/bench read it):
   * statuses, errors by cause, status writes, spout query latency and the process's CPU and peak RSS.
   */
  summary(): CrawlSummary {
    return crawlSummary(this.metrics, {
      spout: this.parts.source.stats(),
      statusWrites: this.parts.stores.status.stats,
      urlFilterDrops: this.parts.filterDrops?.() ?? new Map(),
      dedup: this.parts.checks?.stats?.(),
    });
  }

  /**
   * What the crawl has done and holds right now: the progress line's figures, and what a worker
   * reports to its supervisor (`crawler run --workers`), which sums them over the workers.
   */
  snapshot(): CrawlSnapshot {
    const { source, stores, health } = this.parts;
    const f = this.fetcher.stats;
    const m = this.metrics;
    const down = health?.unreachableMs();
    return {
      ...(down === undefined ? {} : { opensearchUnreachableSec: Math.round(down / 1000) }),
      fetched: m.fetched,
      discovered: m.discovered,
      adopted: m.adopted,
      inFlight: source.stats().inFlight,
      queued: f.queued,
      fetching: f.inFlight,
      hosts: f.queues,
      hostsBackingOff: f.hostsBackingOff,
      hostsDown: f.hostsDown,
      parsing: this.pages.busy,
      writesPending: stores.status.pending,
      byStatus: Object.fromEntries(m.byStatus),
      errors: Object.fromEntries(m.errors),
      deferred: Object.fromEntries(m.deferred),
    };
  }

  private logProgress(): void {
    const { log, clock } = this.parts;
    const { opensearchUnreachableSec: unreachable, discovered, adopted, byStatus, ...now } = this.snapshot();
    log.info(
      {
        ...(unreachable === undefined ? {} : { opensearchUnreachableSec: unreachable }),
        fetchedPerSec: Math.round(this.metrics.rate(clock.now()) * 10) / 10,
        ...now,
        errors: this.metrics.errorSummary(),
        deferred: this.metrics.deferredSummary(),
      },
      unreachable === undefined ? 'progress' : `progress: OpenSearch unreachable for ${unreachable} s`,
    );
  }
}
