import { Fetcher, type PoliteHost } from '../fetch/fetcher.js';
import type { FoundUrl } from '../fetch/fetcher-ports.js';
import type { FetchedOutcome, StatusOutcome } from '../fetch/outcomes.js';
import type { FetchItem } from '../fetch/ports.js';
import type { CrawlerOptions, CrawlerParts, RunOptions } from './crawl-parts.js';
import {
  type CrawlSnapshot,
  type CrawlSummary,
  crawlSnapshot,
  crawlSummary,
  logProgress,
} from './crawl-report.js';
import { IdleNotice } from './idle-notice.js';
import { CrawlMetrics } from './metrics.js';
import { PageStage } from './page-stage.js';
import type { CreatedUrl, SourceItem } from './ports.js';
import { drain } from './shutdown.js';
import { TakenUrls } from './taken.js';

export type { CrawlerOptions, CrawlerParts, RunOptions } from './crawl-parts.js';
export type { CrawlSnapshot, CrawlSummary } from './crawl-report.js';

/**
 * The crawl loop: source -> fetcher -> parser -> indexer -> status store, every hand-over bounded.
 *
 * Each URL taken from the source gets exactly one status event of its own, whatever happens to it,
 * and is released back to the source once the store settled that event or when it is given up
 * unchanged (the ledger, taken.ts). Outlinks are DISCOVERED events of their own and release nothing.
 * The end of a run drains what is in flight within a deadline (shutdown.ts); what the crawl did is
 * reported in its progress lines and its summary (crawl-report.ts).
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
  private readonly taken: TakenUrls;
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
    const taken = new TakenUrls({
      source: parts.source,
      status: parts.stores.status,
      metrics: this.metrics,
      log: parts.log,
      observe: parts.observe,
      closed: () => this.closed,
    });
    this.taken = taken;
    this.pages = new PageStage(
      {
        parser: parts.parser,
        status: parts.stores.status,
        content: parts.stores.content,
        filter: parts.filter,
        transfer: parts.transfer,
        metrics: this.metrics,
        log: parts.log,
        settle: (event) => taken.settle(event),
        giveUp: (url) => taken.release(url),
        failed: (url, e) => taken.failed(url, e),
        closed: () => this.closed,
        ...(parts.checks ? { checks: parts.checks } : {}),
        ...(parts.documents ? { documents: parts.documents } : {}),
      },
      options,
    );
    const sink = {
      status: (o: StatusOutcome) =>
        void this.pages.status(
          o.deferral
            ? { url: o.url, status: o.status, metadata: o.metadata, deferral: o.deferral }
            : { url: o.url, status: o.status, metadata: o.metadata },
        ),
      fetched: (page: FetchedOutcome & { readonly content: Buffer }) =>
        this.pages.page(page.url, page.metadata, page.content),
      discovered: (source: FetchItem, target: string, found?: FoundUrl) =>
        this.pages.discovered(source, target, found),
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
        left: (item) => taken.left(item.key),
        drained: (item, at) => {
          if (item.key !== undefined) parts.source.drained?.(item.key, at);
        },
      },
    });
    // Soft-404 probes go through the fetcher like any URL, first in their host's queue.
    parts.checks?.attach((item) => this.fetcher.submit(item, { first: true }));
    // Each URL this crawl created in the index (a new DISCOVERED document, due) is offered to the source.
    parts.stores.status.subscribe(({ update, key, created }) => {
      if (created && update.nextFetchDate !== null) {
        const { url, metadata, nextFetchDate } = update;
        this.offer({ url, key, metadata, nextFetchDate });
      }
    });
    const max = options.fetcher.maxUrlsInQueues;
    parts.source.serve?.(
      {
        waiting: (key) => taken.waiting(key),
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
    // Queued URLs are not fetched: given back unchanged (they come back when due), at once rather
    // than after their hosts' delays; the fetches in flight finish and are written.
    this.fetcher.stopTaking((item) => this.taken.release(item.url));
    this.wake?.();
  }

  /**
   * Runs until `requestStop`, or with `once` until nothing is due and nothing is in flight (checked
   * after the writes are visible). Flushes every pending write before returning; URLs still in
   * flight at the drain deadline are given up unchanged (`metrics.abandoned`).
   */
  async run(options: RunOptions = {}): Promise<void> {
    const { source, stores, log, clock } = this.parts;
    const lines = options.progressLines !== false;
    const onTransition = options.onTransition;
    if (onTransition) stores.status.subscribe(({ update }) => onTransition(update.transition));
    // The first progress line's rate counts from here, not from nothing.
    this.metrics.rate(clock.now());
    const progress = lines
      ? setInterval(() => this.logProgress(), this.options.progressIntervalMs)
      : undefined;
    progress?.unref();
    // A continuous crawl says when nothing is due (--once stops instead).
    const idle = options.once ? undefined : new IdleNotice(source, log, clock, () => this.allRefused(false));
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
          if (!adopted) this.taken.waits(key);
          this.taken.take(url, status, key);
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
      this.taken.left(item.key);
      source.settle(item.url);
    }
    await drain(
      {
        fetcher: this.fetcher,
        pages: this.pages,
        stores,
        taken: this.taken,
        metrics: this.metrics,
        log,
        close: () => {
          this.closed = true;
        },
      },
      options.drainDeadlineMs ?? 30_000,
    );
    if (lines) this.logProgress();
    const refused = options.once ? this.allRefused(true) : undefined;
    if (refused !== undefined) log.info({ notice: true }, refused);
    log.info(this.summary(), 'crawl stopped');
  }

  /**
   * When every URL this run took was refused by the address filter (a first crawl of a site on
   * this machine, say): what to do, as one line; undefined otherwise.
   */
  private allRefused(once: boolean): string | undefined {
    const { urls, addresses } = this.fetcher.refused;
    if (urls === 0 || urls < this.metrics.emitted) return undefined;
    const how =
      addresses.size === 1
        ? `--set http.filter.ipaddress.allow=${[...addresses][0]}`
        : 'the --set lines above';
    return `every URL was refused by its address: ${once ? '' : 'stop (Ctrl-C) and '}run again with ${how}`;
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

  /** True while the URL is taken: emitted by the source and its status not yet acknowledged. */
  holds(url: string): boolean {
    return this.taken.holds(url);
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
    return crawlSnapshot(this.metrics, {
      unreachableMs: health?.unreachableMs(),
      inFlight: source.stats().inFlight,
      fetcher: this.fetcher.stats,
      parsing: this.pages.busy,
      writesPending: stores.status.pending,
    });
  }

  /**
   * Politeness that outlives this crawl (an elastic member's generations, app/member.ts): the hosts
   * whose delay since their last fetch still runs, read at the safe point; `remember` gives them to
   * the next crawl before it runs; `maxDelayMs` is the longest delay of any host (what a member that
   * adopts this one's shards waits after its lease expired).
   */
  politeness(): PoliteHost[] {
    return this.fetcher.politeness();
  }

  remember(hosts: readonly PoliteHost[]): void {
    this.fetcher.remember(hosts);
  }

  maxDelayMs(): number {
    return this.fetcher.maxDelayMs();
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
    this.taken.waits(item.key);
    this.ready.push(item);
    this.metrics.adopted++;
    this.wake?.();
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

  private logProgress(): void {
    logProgress(this.parts.log, this.metrics, this.snapshot(), this.parts.clock.now());
  }
}
