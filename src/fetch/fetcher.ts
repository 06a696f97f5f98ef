import PQueue from 'p-queue';
import { DEFER_CAUSE, ERROR_CAUSE, MD } from '../model/keys.js';
import type { Metadata } from '../model/metadata.js';
import type { Deferral } from '../model/status-updater.js';
import { parseInteger } from '../model/values.js';
import { FetchException } from '../protocol/http/errors.js';
import { errorMessage } from '../util/errors.js';
import { archiveAnswer } from './archive.js';
import { decideCrawlDelay } from './crawl-delay.js';
import type { FetcherDeps, FetcherOptions, FetcherSink } from './fetcher-ports.js';
import { type Pause, retryAfterMs, seconds } from './host-health.js';
import { HostReactions } from './host-reactions.js';
import { deferral, fetchExceptionOf, outcomeOfException, outcomeOfResponse, refusal } from './outcomes.js';
import type { FetchItem } from './ports.js';
import { queueKey } from './queue-key.js';
import { FetchQueues, type PoliteHost, type QueueOverrides } from './queues.js';

export type { PoliteHost } from './queues.js';

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
 *
 * Failing hosts: every result of a fetch is recorded in its queue's host health (host-health.ts).
 * A URL the fetcher will not fetch now for a reason that is not its own is deferred: one status
 * event with its status unchanged, stored as is with the date it is due again, and `defer.*` saying
 * why. That happens to a 429 or 503 with Retry-After (and the host is paused), a 429 without, a
 * robots.txt that cannot be read, a host that is down (and every URL queued for it or arriving while
 * it is paused), and a URL that waited longer than fetcher.timeout.queue. A paused host holds no
 * fetch thread and no room in the queues.
 */
export class Fetcher {
  private readonly queues: FetchQueues<FetchItem>;
  private readonly hosts: HostReactions;
  private readonly pool: PQueue;
  private timer: NodeJS.Timeout | undefined;
  private expiryTimer: NodeJS.Timeout | undefined;
  private closed = false;
  /** Set by `stopTaking`: where a URL that arrives afterwards goes, unfetched. */
  private handBack: ((item: FetchItem) => void) | undefined;
  private readonly waiters: (() => void)[] = [];
  /**
   * URLs the address filter refused this run, and their addresses: a run that refused every URL
   * it took says so, with the setting to allow them (pipeline/crawler.ts).
   */
  readonly refused = { urls: 0, addresses: new Set<string>() };
  /** Refusals by http.filter.ipaddress.exclude already logged (see warnBlocked). */
  private readonly blockedWarned = new Set<string>();
  private idleWaiters: (() => void)[] = [];
  private submitting = 0;
  /**
   * Each page being fetched: its queue and the failed answers its own requests got, kept only for a
   * protocol that reports them (rendering).
   */
  private readonly fetching:
    | Map<string, { key: string; failed: [number | undefined, number | undefined][] }>
    | undefined;

  constructor(
    private readonly options: FetcherOptions,
    private readonly deps: FetcherDeps,
  ) {
    this.queues = new FetchQueues(options.queue, deps.clock, options.hosts);
    this.hosts = new HostReactions({
      queues: this.queues,
      policy: options.hosts,
      clock: deps.clock,
      ...(deps.log ? { log: deps.log } : {}),
      defer: (item, d) => this.defer(item, d),
      released: (item) => {
        deps.flow?.left(item);
        this.waiters.shift()?.();
      },
    });
    this.pool = new PQueue({ concurrency: options.threads });
    if (deps.protocol.reportTo) {
      this.fetching = new Map();
      deps.protocol.reportTo({
        answered: (page, url, code, ra) => this.subrequestAnswered(page, url, code, ra),
      });
    }
    if (options.queueTimeoutMs >= 0) {
      this.expiryTimer = setInterval(
        () => this.expire(),
        Math.min(1000, Math.max(50, options.queueTimeoutMs / 2)),
      );
      this.expiryTimer.unref();
    }
  }

  /** Counts for the progress line; `hostsBackingOff` and `hostsDown` walk the queues. */
  get stats() {
    const hosts = this.queues.hostStates();
    return {
      queued: this.queues.queued,
      inFlight: this.queues.inFlight,
      queues: this.queues.queueCount,
      hostsBackingOff: hosts.backoff,
      hostsDown: hosts.down,
    };
  }

  /** Politeness carried to another fetcher (FetchQueues.politeness, remember, maxDelayMs). */
  politeness = (): PoliteHost[] => this.queues.politeness();
  remember = (hosts: readonly PoliteHost[]): void => this.queues.remember(hosts);
  maxDelayMs = (): number => this.queues.maxDelayMs();

  /** URLs queued or being submitted, not yet in fetch: what the fetcher has in hand. Cheap. */
  get waiting(): number {
    return this.queues.queued + this.submitting;
  }

  /** URLs queued, being submitted or in fetch: what fetcher.max.urls.in.queues bounds. Cheap. */
  get holding(): number {
    return this.queues.queued + this.submitting + this.queues.inFlight;
  }

  /**
   * How many URLs a queue may fetch within `ms` at its politeness: Infinity without a delay, else
   * its threads times the fetches its delay allows (the next one at once, then one per delay).
   */
  pace(key: string, ms: number): number {
    const delay = this.queues.currentDelayOf(key);
    if (delay <= 0) return Number.POSITIVE_INFINITY;
    return this.queues.threadsOf(key) * (Math.floor(ms / delay) + 1);
  }

  /**
   * Queues a URL; resolves once it is accepted. While `fetcher.max.urls.in.queues` URLs are queued or
   * in fetch, it waits: that is the backpressure that makes the spout slow down. `first` puts it next
   * in its queue (still after the queue's delay and through robots.txt).
   */
  async submit(item: FetchItem, options: { readonly first?: boolean } = {}): Promise<void> {
    this.submitting++;
    let queued = false;
    try {
      const max = this.options.maxUrlsInQueues;
      while (max >= 0 && this.queues.queued + this.queues.inFlight >= max && !this.handBack) {
        await new Promise<void>((resolve) => this.waiters.push(resolve));
      }
      if (this.handBack) {
        this.handBack(item);
        return;
      }
      let url: URL;
      try {
        url = new URL(item.url);
      } catch {
        this.sinkFor(item).status(refusal(item.url, item.metadata, ERROR_CAUSE.malformedUrl));
        return;
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') {
        this.sinkFor(item).status(
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
      const pause = this.queues.pauseOf(key);
      if (pause) {
        this.defer(item, pause);
        return;
      }
      this.queues.add(key, item, overridesOf(item.metadata), options.first);
      queued = true;
      this.pump();
    } finally {
      this.submitting--;
      if (!queued) this.deps.flow?.left(item);
      this.checkIdle();
    }
  }

  /**
   * The crawl stops (Ctrl-C): no fetch starts from now on, and every URL waiting in the queues, or
   * submitted later, goes to `handBack` unfetched, so that its status document stays as it was and
   * it comes back when due. Fetches in flight finish.
   */
  stopTaking(handBack: (item: FetchItem) => void): void {
    this.handBack = handBack;
    this.closed = true;
    clearTimeout(this.timer);
    for (const { item } of this.queues.drainAll()) {
      this.deps.flow?.left(item);
      handBack(item);
    }
    // Submissions waiting for room go on, and are handed back in their turn.
    for (const wake of this.waiters.splice(0)) wake();
    this.checkIdle();
  }

  /** Resolves when nothing is queued, in fetch or being submitted. */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * Stops timers and starts no more fetches (the ones running finish); queued URLs stay unfetched
   * (their status documents are unchanged, so they come back).
   */
  close(): void {
    this.closed = true;
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
    if (this.closed) return;
    while (this.pool.pending + this.pool.size < this.options.threads) {
      const taken = this.queues.take();
      if ('next' in taken) {
        const { key, item, enqueuedAt } = taken.next;
        // Pumped again once the task has left the pool: from inside `process` the pool still
        // counts it, and no slot would look free.
        void this.pool.add(() => this.process(key, item, enqueuedAt)).then(() => this.pump());
        continue;
      }
      if (taken.waitMs !== undefined) {
        this.timer = setTimeout(() => this.pump(), taken.waitMs);
        // With nothing queued the wake-up only drops remembered idle queues: no reason to stay alive.
        if (this.queues.queued === 0) this.timer.unref();
      }
      break;
    }
  }

  private async process(key: string, item: FetchItem, enqueuedAt: number): Promise<void> {
    const { clock, flow } = this.deps;
    const sink = this.sinkFor(item);
    flow?.left(item);
    let asap = false;
    const started = clock.now();
    try {
      const rules = await this.deps.robots.rulesFor(item.url);
      if (rules.unavailable) {
        // Only a fresh lookup sent a request whose delay the host is owed.
        asap = rules.fromCache;
        this.hosts.robotsUnavailable(key, item, rules.unavailable, { fresh: !rules.fromCache, started });
        return;
      }
      const md = item.metadata.copy();
      if (this.options.sitemapDiscovery && !rules.fromCache) {
        for (const s of rules.sitemaps) if (rules.isAllowed(s)) sink.discovered(item, s, { sitemap: true });
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
      this.fetching?.set(item.url, { key, failed: [] });
      const response = await this.deps.protocol.fetch(item.url, md);
      const code = response.statusCode;
      this.deps.onResponse?.(code, response.loadingTimeMs);
      if (code === 429 || code >= 500) {
        const retryAfter =
          code === 429 || code === 503
            ? retryAfterMs(response.headers['retry-after']?.[0], clock.now())
            : undefined;
        if (this.hosts.answer(key, item, { code, retryAfter, started })) return;
      } else {
        this.hosts.success(key, `HTTP ${code}`);
      }
      // After the page's own answer, which would otherwise undo them at once.
      if (this.fetching)
        for (const [c, ra] of this.fetching.get(item.url)!.failed) this.hosts.subrequest(key, c, ra);
      const outcome = outcomeOfResponse({
        url: item.url,
        metadata: md,
        response,
        timeInQueuesMs: started - enqueuedAt,
        prefix: this.options.prefix,
      });
      // WARC output: archived before it goes on; a failed archive gives the URL up unchanged.
      const givenUp = this.deps.archive
        ? await archiveAnswer(
            this.deps.archive,
            item,
            { metadata: md, response, outcomeMetadata: outcome.metadata },
            clock.now(),
          )
        : undefined;
      if (givenUp) return sink.status(givenUp);
      if (outcome.kind === 'fetched') {
        await sink.fetched({ ...outcome, content: response.content });
        return;
      }
      if (outcome.redirectTo && this.options.redirectionsAllowed) {
        // A sitemap that moved is still a sitemap (as newer StormCrawler does).
        const found = md.getFirstValue(MD.isSitemap) === 'true' ? { sitemap: true } : undefined;
        sink.discovered(item, outcome.redirectTo, found);
      }
      sink.status(outcome);
    } catch (e) {
      if (e instanceof FetchException && e.kind === 'blockedAddress') {
        asap = true;
        // The connector's own words (protocol/http/errors.ts): the address and the setting that allows it.
        const hint =
          e.cause instanceof Error && e.cause.name === 'BlockedAddressError'
            ? e.cause.message
            : errorMessage(e);
        this.warnBlocked(hint);
        this.refused.urls++;
        const address = /ipaddress\.allow=(\S+)$/.exec(hint)?.[1];
        if (address) this.refused.addresses.add(address);
        sink.status(refusal(item.url, item.metadata, ERROR_CAUSE.blockedAddress, errorMessage(e)));
      } else if (!this.hosts.noAnswer(key, item, e, started)) {
        sink.status(outcomeOfException(item.url, item.metadata, fetchExceptionOf(e)));
      }
    } finally {
      this.fetching?.delete(item.url);
      this.queues.finish(key, asap);
      if (flow) {
        const at = this.queues.idleFrom(key);
        if (at !== undefined) flow.drained(item, at);
      }
      this.waiters.shift()?.();
      this.checkIdle();
    }
  }

  /**
   * A rendered page's request to its own host that failed (429, 5xx, no answer) counts in that
   * host's health (host-reactions.ts), once the page's own answer is recorded.
   */
  private subrequestAnswered(page: string, url: string, code: number | undefined, retryAfter?: string): void {
    if (code !== undefined && code !== 429 && code < 500) return;
    const entry = this.fetching?.get(page);
    if (entry === undefined) return;
    let same: boolean;
    try {
      same = new URL(page).hostname === new URL(url).hostname;
    } catch {
      return;
    }
    if (!same) return;
    const ra = code === 429 || code === 503 ? retryAfterMs(retryAfter, this.deps.clock.now()) : undefined;
    entry.failed.push([code, ra]);
  }

  /**
   * The address filter's refusal, with the setting that allows the address, once per address.
   */
  private warnBlocked(message: string): void {
    // Once per address: each line names the setting that allows that address.
    if (this.blockedWarned.has(message)) return;
    this.blockedWarned.add(message);
    // A warning: a person must act on it (set the key), and it stays whole on a terminal.
    this.deps.log?.warn({}, message);
  }

  /** Puts a URL back unfetched: one status event, as described on the class. */
  private defer(item: FetchItem, d: Omit<Deferral, 'now'> | Pause): void {
    const now = this.deps.clock.now();
    this.sinkFor(item).status(deferral(item.url, item.metadata, item.status, { ...d, now }));
  }

  /** The sink for the outcomes of `item`: a probe's carry `probe`, typed. */
  private sinkFor(item: FetchItem): FetcherSink {
    const sink = this.deps.sink;
    if (!item.probe) return sink;
    return {
      status: (o) => sink.status({ ...o, probe: true }),
      fetched: (o) => sink.fetched({ ...o, probe: true }),
      discovered: (source, target, found) => sink.discovered(source, target, found),
    };
  }

  /**
   * fetcher.timeout.queue: a URL that waited too long is released without a fetch. It is stored back
   * unchanged but due again after the same wait (status.store.as.is.with.nextfetchdate), so it is
   * neither dropped silently nor counted as a fetch error, and does not come straight back.
   */
  private expire(): void {
    const now = this.deps.clock.now();
    const timeout = this.options.queueTimeoutMs;
    for (const { item } of this.queues.expire(timeout)) {
      this.defer(item, {
        until: now + timeout,
        cause: DEFER_CAUSE.queueTimeout,
        message: `waited more than ${seconds(timeout)} in its queue (fetcher.timeout.queue)`,
      });
      this.deps.flow?.left(item);
      this.waiters.shift()?.();
    }
    this.checkIdle();
  }
}
