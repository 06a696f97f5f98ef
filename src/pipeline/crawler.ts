import type { Client } from '@opensearch-project/opensearch';
import PQueue from 'p-queue';
import type { Archive } from '../fetch/archive.js';
import { Fetcher, type FetcherOptions } from '../fetch/fetcher.js';
import type { FetchItem, FetchProtocol, RobotsSource } from '../fetch/ports.js';
import { MD } from '../model/keys.js';
import type { Metadata } from '../model/metadata.js';
import type { MetadataTransfer } from '../model/metadata-transfer.js';
import type { StatusEvent } from '../model/status-updater.js';
import type { BulkWriter } from '../opensearch/bulk-writer.js';
import type { ContentDeleter } from '../opensearch/deleter.js';
import type { Spout } from '../opensearch/spout.js';
import type { Clock } from '../util/clock.js';
import { errorMessage } from '../util/errors.js';
import type { Logger } from '../util/log.js';
import { IndexerStage, type IndexerStageDeps } from './indexer-stage.js';
import { CrawlMetrics } from './metrics.js';
import type { Outlink, PageParser } from './ports.js';
import type { StatusWriter } from './status-writer.js';

export interface CrawlerParts {
  readonly client: Client;
  readonly statusIndex: string;
  readonly spout: Spout;
  readonly statusWriter: StatusWriter;
  readonly indexer: Omit<IndexerStageDeps, 'emit' | 'giveUp'>;
  readonly parser: PageParser;
  readonly protocol: FetchProtocol;
  readonly robots: RobotsSource;
  /** WARC output: where the fetcher archives every answer (src/warc); none when off. */
  readonly archive?: Archive;
  /** URL filters for URLs the fetcher finds (redirect targets, robots.txt sitemaps). */
  readonly filter: (source: URL, sourceMd: Metadata, target: string) => string | null;
  readonly transfer: MetadataTransfer;
  readonly bulks: readonly BulkWriter[];
  readonly deleter: ContentDeleter;
  readonly clock: Clock;
  readonly log: Logger;
}

export interface CrawlerOptions {
  readonly fetcher: FetcherOptions;
  /** Pages handed to the parser at once: 1 on the event loop, a few per thread with parser threads. */
  readonly parseConcurrency: number;
  /** Parsed pages waiting at most; the fetcher waits beyond it. */
  readonly parseBacklog: number;
  readonly progressIntervalMs: number;
  /** --once: URLs due within this many ms count as due (the rounding unit of nextFetchDate). */
  readonly onceLookAheadMs: number;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * The crawl loop: spout -> fetcher -> parser -> indexer -> status writer, every hand-over bounded.
 * Each URL the spout emits ends in exactly one own status event (or is given up unchanged when a
 * write fails), which settles it in the spout; outlinks are DISCOVERED events of their own.
 */
export class Crawler {
  readonly metrics = new CrawlMetrics();
  readonly fetcher: Fetcher;
  private readonly indexer: IndexerStage;
  private readonly parsePool: PQueue;
  /** Status before this round of each URL in flight, for the transition log. */
  private readonly previousStatus = new Map<string, FetchItem['status']>();
  private stopping = false;
  private readonly stopped: Promise<void>;
  private stop!: () => void;

  constructor(
    private readonly parts: CrawlerParts,
    private readonly options: CrawlerOptions,
  ) {
    this.parsePool = new PQueue({ concurrency: options.parseConcurrency });
    this.indexer = new IndexerStage({
      ...parts.indexer,
      emit: (event) => this.own(event),
      giveUp: (url) => {
        this.previousStatus.delete(url);
        parts.spout.settle(url);
      },
    });
    this.stopped = new Promise((resolve) => {
      this.stop = resolve;
    });
    this.fetcher = new Fetcher(options.fetcher, {
      protocol: parts.protocol,
      robots: parts.robots,
      archive: parts.archive, // WARC output
      clock: parts.clock,
      sink: {
        status: (o) => this.own({ url: o.url, status: o.status, metadata: o.metadata }),
        fetched: (page) => this.parse(page.url, page.metadata, page.content),
        discovered: (source, target, extra) => this.discover(source, target, extra),
      },
    });
  }

  /** Asks the loop to stop taking URLs; `run` then drains what is in flight and returns. */
  requestStop(): void {
    this.stopping = true;
    this.stop();
  }

  /**
   * Runs until `requestStop`, or with `once` until nothing is due and nothing is in flight (checked
   * after a refresh of the status index). Flushes every pending write before returning.
   */
  async run(options: { once?: boolean; drainDeadlineMs?: number } = {}): Promise<void> {
    const { spout, log } = this.parts;
    const progress = setInterval(() => this.logProgress(), this.options.progressIntervalMs);
    progress.unref();
    try {
      while (!this.stopping) {
        const next = await spout.poll();
        if (typeof next === 'object') {
          this.metrics.emitted++;
          this.previousStatus.set(next.url, next.status);
          await this.fetcher.submit({ url: next.url, metadata: next.metadata, status: next.status });
          continue;
        }
        if (options.once && next === 'empty' && (await this.finishedOnce())) break;
        await Promise.race([sleep(next === 'wait' ? 20 : 100), this.stopped]);
      }
    } finally {
      clearInterval(progress);
    }
    await this.drain(options.drainDeadlineMs ?? 30_000);
    this.logProgress();
    log.info(this.summary(), 'crawl stopped');
  }

  /** --once: is the crawl over? Waits for in-flight URLs, writes everything, then asks again. */
  private async finishedOnce(): Promise<boolean> {
    const { spout, client, statusIndex } = this.parts;
    if (spout.inFlight.size > 0 || this.parts.statusWriter.pending > 0) return false;
    await this.flush();
    if (spout.inFlight.size > 0) return false;
    await client.indices.refresh({ index: statusIndex });
    // URLs discovered during this run are due at their discovery time, after the kept query date,
    // and status.updater.unit.round.date may have rounded that up past now.
    spout.resetQueryDate(this.options.onceLookAheadMs);
    return (await spout.query()) === 0 && !spout.lastQueryFailed && spout.inFlight.size === 0;
  }

  private async drain(deadlineMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), deadlineMs);
    });
    const done = (async () => {
      await this.fetcher.idle();
      await this.parsePool.onIdle();
      await this.flush();
    })();
    const outcome = await Promise.race([done, deadline]);
    clearTimeout(timer);
    if (outcome === 'timeout') {
      this.parts.log.warn(
        { inFlight: this.parts.spout.inFlight.size },
        'shutdown deadline reached; URLs still in flight keep their previous state and come back when due',
      );
    }
    this.fetcher.close();
    for (const b of this.parts.bulks) b.close();
    this.parts.deleter.close();
  }

  private async flush(): Promise<void> {
    // A settled content write queues a FETCHED status write, and an ERROR a deletion: flush until
    // no writer has anything left.
    do {
      for (const b of this.parts.bulks) await b.flush();
      await this.parts.deleter.flush();
    } while (this.parts.bulks.some((b) => b.pending > 0) || this.parts.statusWriter.pending > 0);
  }

  /** The event that settles an emitted URL. */
  private async own(event: StatusEvent): Promise<void> {
    const previousStatus = event.previousStatus ?? this.previousStatus.get(event.url);
    this.previousStatus.delete(event.url);
    const cause =
      event.metadata.getFirstValue(MD.errorCause) ?? event.metadata.getFirstValue(MD.fetchException);
    this.metrics.status(event.status, cause);
    await this.parts.statusWriter.write({ ...event, previousStatus }, true);
  }

  private async discover(
    source: FetchItem,
    target: string,
    extra?: Readonly<Record<string, string>>,
  ): Promise<void> {
    let sourceUrl: URL;
    try {
      sourceUrl = new URL(source.url);
    } catch {
      return;
    }
    const kept = this.parts.filter(sourceUrl, source.metadata, target);
    if (kept === null) return;
    const md = this.parts.transfer.forOutlink(source.url, source.metadata);
    for (const [k, v] of Object.entries(extra ?? {})) md.setValue(k, v);
    await this.outlinks([{ url: kept, metadata: md }]);
  }

  private async outlinks(links: readonly Outlink[]): Promise<void> {
    for (const l of links) {
      this.metrics.discovered++;
      await this.parts.statusWriter.write({ url: l.url, status: 'DISCOVERED', metadata: l.metadata }, false);
    }
  }

  /** Hands a fetched page to the parse pool; waits while the pool's backlog is full. */
  private async parse(url: string, metadata: Metadata, content: Buffer): Promise<void> {
    this.metrics.fetched++;
    this.metrics.bytes += content.length;
    await this.parsePool.onSizeLessThan(this.options.parseBacklog);
    void this.parsePool.add(async () => {
      try {
        const outcome = await this.parts.parser.parse({ url, metadata, content });
        await this.outlinks(outcome.outlinks);
        if (outcome.kind === 'parsed') {
          await this.indexer.index(url, outcome.metadata, outcome.text);
        } else {
          await this.own({ url, status: outcome.status, metadata: outcome.metadata });
        }
      } catch (e) {
        // The parser's contract is not to throw; if it does, the page still gets its one event.
        const md = metadata.copy();
        md.setValue(MD.errorSource, 'content parsing');
        md.setValue(MD.errorMessage, errorMessage(e));
        await this.own({ url, status: 'ERROR', metadata: md });
      }
    });
  }

  /**
   * What the crawl did and cost, for the last log line (operators and scripts/bench read it):
   * statuses, errors by cause, status writes, spout query latency and the process's CPU and peak RSS.
   */
  summary(): Record<string, unknown> {
    const s = this.parts.spout.stats();
    const usage = process.resourceUsage();
    const round = (n: number) => Math.round(n * 10) / 10;
    return {
      byStatus: Object.fromEntries(this.metrics.byStatus),
      errors: this.metrics.errorSummary(),
      fetched: this.metrics.fetched,
      discovered: this.metrics.discovered,
      statusWrites: { ...this.parts.statusWriter.stats },
      spout: { queries: s.queries, queryMsP50: round(s.queryMsP50), queryMsP95: round(s.queryMsP95) },
      cpuUserMs: Math.round(usage.userCPUTime / 1000),
      cpuSystemMs: Math.round(usage.systemCPUTime / 1000),
      maxRssMb: Math.round(usage.maxRSS / 1024),
    };
  }

  private logProgress(): void {
    const { spout, log, clock } = this.parts;
    const f = this.fetcher.stats;
    const s = spout.stats();
    log.info(
      {
        fetchedPerSec: Math.round(this.metrics.rate(clock.now()) * 10) / 10,
        fetched: this.metrics.fetched,
        inFlight: s.inFlight,
        queued: f.queued,
        fetching: f.inFlight,
        hosts: f.queues,
        parsing: this.parsePool.size + this.parsePool.pending,
        writesPending: this.parts.statusWriter.pending,
        errors: this.metrics.errorSummary(),
      },
      'progress',
    );
  }
}
