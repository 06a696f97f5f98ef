import PQueue from 'p-queue';
import { ERROR_CAUSE, MD } from '../model/keys.js';
import type { Metadata } from '../model/metadata.js';
import { isoDate, parseInteger } from '../model/values.js';
import { FetchException } from '../protocol/http/errors.js';
import type { Clock } from '../util/clock.js';
import { errorMessage } from '../util/errors.js';
import { type Archive, archiveAnswer } from './archive.js';
import { type CrawlDelayPolicy, decideCrawlDelay } from './crawl-delay.js';
import {
  type FetchedOutcome,
  outcomeOfException,
  outcomeOfResponse,
  refusal,
  type StatusOutcome,
} from './outcomes.js';
import type { FetchItem, FetchProtocol, RobotsSource } from './ports.js';
import { type QueueMode, queueKey, type Resolve } from './queue-key.js';
import { FetchQueues, type QueueOverrides, type QueueSettings } from './queues.js';

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
}

/** Where the fetcher's results go. Each submitted URL produces exactly one `status` or `fetched`. */
export interface FetcherSink {
  status(outcome: StatusOutcome): void;
  /**
   * A page to parse. The fetch thread waits for the returned promise, so a parse stage that falls
   * behind holds the fetchers back instead of piling up fetched pages in memory.
   */
  fetched(outcome: FetchedOutcome & { readonly content: Buffer }): void | Promise<void>;
  /** A new URL found while fetching (a redirect target, a sitemap from robots.txt). */
  discovered(source: FetchItem, target: string, extra?: Readonly<Record<string, string>>): void;
}

export interface FetcherDeps {
  readonly protocol: FetchProtocol;
  readonly robots: RobotsSource;
  readonly sink: FetcherSink;
  readonly clock: Clock;
  readonly resolve?: Resolve;
  /** WARC output: every HTTP answer is archived (and awaited) before it goes on. */
  readonly archive?: Archive;
}

/** The `fetch.exception` of an error that escaped the protocol's own classification. */
function fetchExceptionOf(e: unknown): string {
  const keyword = (e as { fetchException?: unknown })?.fetchException;
  if (typeof keyword === 'string') return keyword;
  const code = (e as { code?: unknown })?.code;
  return `Unexpected error${typeof code === 'string' ? ` ${code}` : ''}`;
}

function overridesOf(md: Metadata): QueueOverrides {
  // StormCrawler reads these per-URL keys in milliseconds.
  const num = (k: string) => parseInteger(md.getFirstValue(k));
  return {
    crawlDelayMs: num(MD.crawlDelay),
    minCrawlDelayMs: num(MD.crawlMinDelay),
    maxThreads: num(MD.maxThreadsQueue),
  };
}

/**
 * The fetch stage: politeness queues by host, domain or IP, robots.txt, a global concurrency limit and
 * a bound on queued URLs. Contract: every URL passed to `submit` ends in exactly one call of
 * `sink.status` or `sink.fetched`, whatever happens; nothing thrown by a fetch escapes.
 */
export class Fetcher {
  private readonly queues: FetchQueues<FetchItem>;
  private readonly pool: PQueue;
  private timer: NodeJS.Timeout | undefined;
  private expiryTimer: NodeJS.Timeout | undefined;
  private readonly waiters: (() => void)[] = [];
  private idleWaiters: (() => void)[] = [];
  private submitting = 0;

  constructor(
    private readonly options: FetcherOptions,
    private readonly deps: FetcherDeps,
  ) {
    this.queues = new FetchQueues(options.queue, deps.clock);
    this.pool = new PQueue({ concurrency: options.threads });
    if (options.queueTimeoutMs >= 0) {
      this.expiryTimer = setInterval(
        () => this.expire(),
        Math.min(1000, Math.max(50, options.queueTimeoutMs / 2)),
      );
      this.expiryTimer.unref();
    }
  }

  get stats() {
    return { queued: this.queues.queued, inFlight: this.queues.inFlight, queues: this.queues.queueCount };
  }

  /**
   * Queues a URL; resolves once it is accepted. While `fetcher.max.urls.in.queues` URLs are queued or
   * in fetch, it waits: that is the backpressure that makes the spout slow down.
   */
  async submit(item: FetchItem): Promise<void> {
    this.submitting++;
    try {
      const max = this.options.maxUrlsInQueues;
      while (max >= 0 && this.queues.queued + this.queues.inFlight >= max) {
        await new Promise<void>((resolve) => this.waiters.push(resolve));
      }
      let url: URL;
      try {
        url = new URL(item.url);
      } catch {
        this.deps.sink.status(refusal(item.url, item.metadata, ERROR_CAUSE.malformedUrl));
        return;
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') {
        this.deps.sink.status(
          refusal(
            item.url,
            item.metadata,
            ERROR_CAUSE.unsupportedScheme,
            `cannot fetch ${url.protocol} URLs`,
          ),
        );
        return;
      }
      const key = (await queueKey(url, this.options.mode, this.deps.resolve)) ?? item.url;
      this.queues.add(key, item, overridesOf(item.metadata));
      this.pump();
    } finally {
      this.submitting--;
      this.checkIdle();
    }
  }

  /** Resolves when nothing is queued, in fetch or being submitted. */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Stops timers; queued URLs stay unfetched (their status documents are unchanged, so they come back). */
  close(): void {
    clearTimeout(this.timer);
    clearInterval(this.expiryTimer);
  }

  private isIdle(): boolean {
    return this.submitting === 0 && this.queues.queued === 0 && this.queues.inFlight === 0;
  }

  private checkIdle(): void {
    if (this.idleWaiters.length > 0 && this.isIdle()) {
      const w = this.idleWaiters;
      this.idleWaiters = [];
      for (const resolve of w) resolve();
    }
  }

  private pump(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    while (this.pool.pending + this.pool.size < this.options.threads) {
      const taken = this.queues.take();
      if ('next' in taken) {
        const { key, item, enqueuedAt } = taken.next;
        // Pumped again once the task has left the pool: from inside `process` the pool still
        // counts it, and no slot would look free.
        void this.pool.add(() => this.process(key, item, enqueuedAt)).then(() => this.pump());
        continue;
      }
      if (taken.waitMs !== undefined) this.timer = setTimeout(() => this.pump(), taken.waitMs);
      break;
    }
  }

  private async process(key: string, item: FetchItem, enqueuedAt: number): Promise<void> {
    const { sink, clock } = this.deps;
    let asap = false;
    try {
      const started = clock.now();
      const rules = await this.deps.robots.rulesFor(item.url);
      const md = item.metadata.copy();
      if (this.options.sitemapDiscovery && !rules.fromCache) {
        for (const s of rules.sitemaps)
          if (rules.isAllowed(s)) sink.discovered(item, s, { [MD.isSitemap]: 'true' });
      }
      md.setValue(MD.foundSitemap, String(rules.sitemaps.length > 0));
      if (!rules.isAllowed(item.url)) {
        asap = true;
        sink.status(refusal(item.url, md, ERROR_CAUSE.robots));
        return;
      }
      const decision = decideCrawlDelay(
        rules.crawlDelayMs,
        this.queues.crawlDelayOf(key) ?? 0,
        this.options.crawlDelay,
      );
      if (decision.kind === 'refuse') {
        asap = true;
        const asked = Math.round((rules.crawlDelayMs ?? 0) / 1000);
        sink.status(
          refusal(item.url, md, ERROR_CAUSE.crawlDelay, `robots.txt asks for a crawl delay of ${asked} s`),
        );
        return;
      }
      if (decision.kind === 'set') this.queues.setCrawlDelay(key, decision.delayMs);
      const response = await this.deps.protocol.fetch(item.url, md);
      const outcome = outcomeOfResponse({
        url: item.url,
        metadata: md,
        response,
        timeInQueuesMs: started - enqueuedAt,
        prefix: this.options.prefix,
      });
      // WARC output: archived before it goes on; a failed archive gives the URL up unchanged.
      const givenUp = this.deps.archive
        ? await archiveAnswer(this.deps.archive, item, md, response, outcome.metadata, clock.now())
        : undefined;
      if (givenUp) return sink.status(givenUp);
      if (outcome.kind === 'fetched') {
        await sink.fetched({ ...outcome, content: response.content });
        return;
      }
      if (outcome.redirectTo && this.options.redirectionsAllowed) {
        // A sitemap that moved is still a sitemap (as newer StormCrawler does).
        const extra = md.getFirstValue(MD.isSitemap) === 'true' ? { [MD.isSitemap]: 'true' } : undefined;
        sink.discovered(item, outcome.redirectTo, extra);
      }
      sink.status(outcome);
    } catch (e) {
      if (e instanceof FetchException && e.kind === 'blockedAddress') {
        asap = true;
        sink.status(refusal(item.url, item.metadata, ERROR_CAUSE.blockedAddress, errorMessage(e)));
      } else {
        sink.status(outcomeOfException(item.url, item.metadata, fetchExceptionOf(e)));
      }
    } finally {
      this.queues.finish(key, asap);
      this.waiters.shift()?.();
      this.checkIdle();
    }
  }

  /**
   * fetcher.timeout.queue: a URL that waited too long is released without a fetch. It is stored back
   * unchanged but due again after the same wait (status.store.as.is.with.nextfetchdate), so it is
   * neither dropped silently nor counted as a fetch error, and does not come straight back.
   */
  private expire(): void {
    const now = this.deps.clock.now();
    for (const { item } of this.queues.expire(this.options.queueTimeoutMs)) {
      const md = item.metadata.copy();
      md.setValue(MD.storeAsIs, isoDate(now + this.options.queueTimeoutMs));
      this.deps.sink.status({
        kind: 'status',
        url: item.url,
        status: item.status ?? 'DISCOVERED',
        metadata: md,
      });
      this.waiters.shift()?.();
    }
    this.checkIdle();
  }
}
