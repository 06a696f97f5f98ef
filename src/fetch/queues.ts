import type { Clock } from '../util/clock.js';
import { MinHeap } from '../util/heap.js';
import { type HealthPolicy, HostHealth, type HostState, type Pause } from './host-health.js';

/** How long an idle queue whose host is unhealthy is remembered past its pause, at least. */
const HEALTH_MEMORY_MS = 10 * 60_000;
/** The delay the first failure of a queue without any delay multiplies. */
const DEFAULT_SEED_MS = 1000;

export interface QueueSettings {
  /** Delay after a fetch on a single-threaded queue, ms (fetcher.server.delay). */
  readonly delayMs: number;
  /** Delay after a fetch on a multi-threaded queue, ms (fetcher.server.min.delay). */
  readonly minDelayMs: number;
  /** Default threads per queue (fetcher.threads.per.queue). */
  readonly threadsPerQueue: number;
  /** fetcher.maxThreads.<regex> overrides, in config order; the first matching the queue key wins. */
  readonly maxThreadsRules: readonly { readonly regex: RegExp; readonly threads: number }[];
}

/** Per-URL overrides read from metadata when the URL's queue is created or visited. */
export interface QueueOverrides {
  readonly crawlDelayMs?: number;
  readonly minCrawlDelayMs?: number;
  readonly maxThreads?: number;
}

/** A host's politeness carried from one fetcher to another (FetchQueues.politeness). */
export interface PoliteHost {
  readonly key: string;
  /** Clock ms before which the host is not fetched again. */
  readonly notBefore: number;
  readonly delayMs: number;
}

export interface Queued<T> {
  readonly key: string;
  readonly item: T;
  readonly enqueuedAt: number;
}

interface Queue<T> {
  readonly key: string;
  readonly items: Queued<T>[];
  head: number;
  inProgress: number;
  /** Earliest start of the next fetch: the end of the previous one plus the delay. */
  nextFetchTime: number;
  crawlDelayMs: number;
  minCrawlDelayMs: number;
  maxThreads: number;
  /** Bumped whenever the queue is (re)scheduled, so stale heap and ready entries are skipped. */
  gen: number;
  /** Only while its host is unhealthy (dropped once it is ok again). */
  health: HostHealth | undefined;
}

const pending = <T>(q: Queue<T>) => q.items.length - q.head;

/**
 * Politeness queues: one FIFO per key (host, domain or IP), served round-robin. A queue gives out a
 * URL only while fewer than its maxThreads fetches run and once its delay, counted from the END of
 * the previous fetch, has passed. Ready queues wait in a FIFO and sleeping ones in a heap ordered by
 * wake-up time, so taking the next URL costs O(log queues), not a scan of thousands of hosts.
 *
 * Each queue also holds its host's health (host-health.ts) while the host is failing: a longer delay,
 * one fetch at a time, no fetch during a pause. An idle queue of an unhealthy host is remembered a
 * while after its pause, so that the host's URLs coming back find its state; then it is dropped
 * like any other.
 *
 * Contract: every item returned by `take` must be followed by exactly one `finish(key)`.
 */
export class FetchQueues<T> {
  private readonly queues = new Map<string, Queue<T>>();
  private ready: { q: Queue<T>; gen: number }[] = [];
  private readyHead = 0;
  private readonly sleeping = new MinHeap<{ q: Queue<T>; gen: number }>();
  private queuedCount = 0;
  private inFlightCount = 0;

  constructor(
    private readonly settings: QueueSettings,
    private readonly clock: Clock,
    /** Without one, hosts never back off. */
    private readonly policy?: HealthPolicy,
  ) {}

  /** URLs waiting in queues. */
  get queued(): number {
    return this.queuedCount;
  }

  /** URLs taken and not finished. */
  get inFlight(): number {
    return this.inFlightCount;
  }

  get queueCount(): number {
    return this.queues.size;
  }

  /** Queues an item last, or with `first` next in line (a soft-404 probe). */
  add(key: string, item: T, overrides: QueueOverrides = {}, first = false): void {
    const q = this.queue(key, overrides);
    const entry = { key, item, enqueuedAt: this.clock.now() };
    if (first) q.items.splice(q.head, 0, entry);
    else q.items.push(entry);
    this.queuedCount++;
    if (pending(q) === 1) this.schedule(q);
  }

  /**
   * The next URL whose queue may be fetched now, or the milliseconds until one may be (undefined when
   * nothing is queued or every non-empty queue is at its thread limit).
   */
  take(): { next: Queued<T> } | { waitMs: number | undefined } {
    const now = this.clock.now();
    while (this.sleeping.size > 0 && this.sleeping.peekPriority()! <= now) {
      const e = this.sleeping.pop()!;
      if (e.gen !== e.q.gen) continue;
      // An idle queue whose delay ran out (an unchanged gen means nothing was added or taken since).
      if (pending(e.q) === 0) this.forgetOrKeep(e.q, now);
      else this.ready.push(e);
    }
    while (this.readyHead < this.ready.length) {
      const e = this.ready[this.readyHead++]!;
      if (e.gen !== e.q.gen) continue;
      const q = e.q;
      const next = q.items[q.head++]!;
      this.compact(q);
      this.queuedCount--;
      this.inFlightCount++;
      q.inProgress++;
      this.schedule(q);
      if (this.readyHead > 1024 && this.readyHead * 2 > this.ready.length) {
        this.ready = this.ready.slice(this.readyHead);
        this.readyHead = 0;
      }
      return { next };
    }
    const wake = this.sleeping.peekPriority();
    return { waitMs: wake === undefined ? undefined : Math.max(0, wake - now) };
  }

  /** Ends a fetch; the queue's delay starts now (`asap` skips it, e.g. after a robots denial). */
  finish(key: string, asap = false): void {
    const q = this.queues.get(key);
    if (!q || q.inProgress === 0) throw new Error(`finish(${key}) without a matching take`);
    q.inProgress--;
    this.inFlightCount--;
    const now = this.clock.now();
    const base = baseDelay(q);
    const delay = q.health ? q.health.delayMs(base) : base;
    q.nextFetchTime = Math.max(asap ? now : now + delay, q.health?.pausedAt(now)?.until ?? 0);
    if (q.health?.state === 'ok' && !q.health.pausedAt(now)) q.health = undefined;
    this.schedule(q);
  }

  /**
   * The health of a queue's host, created on first use; undefined without a policy or a queue
   * (a queue exists from `add` until it has been idle for its delay).
   */
  healthOf(key: string): HostHealth | undefined {
    const q = this.queues.get(key);
    if (!q || !this.policy) return undefined;
    q.health ??= new HostHealth(this.policy);
    return q.health;
  }

  /**
   * When a queue with nothing queued and nothing in fetch may fetch again (now, for a queue already
   * forgotten); undefined while it has URLs queued or in fetch.
   */
  idleFrom(key: string): number | undefined {
    const q = this.queues.get(key);
    const now = this.clock.now();
    if (!q) return now;
    if (pending(q) > 0 || q.inProgress > 0) return undefined;
    return Math.max(now, q.nextFetchTime);
  }

  /** Concurrent fetches a queue allows (fetcher.threads.per.queue, or its override). */
  threadsOf(key: string): number {
    const q = this.queues.get(key);
    if (q) return q.health && q.health.state !== 'ok' ? 1 : q.maxThreads;
    return (
      this.settings.maxThreadsRules.find((r) => r.regex.test(key))?.threads ?? this.settings.threadsPerQueue
    );
  }

  /** The health of a queue's host if it has one (a host that never failed has none). */
  existingHealthOf(key: string): HostHealth | undefined {
    return this.queues.get(key)?.health;
  }

  /** The pause in force for a queue's host, if any. */
  pauseOf(key: string): Pause | undefined {
    return this.queues.get(key)?.health?.pausedAt(this.clock.now());
  }

  /** The delay the next failure of a queue multiplies: its own delay, or a default when it is 0. */
  seedOf(key: string): number {
    const q = this.queues.get(key);
    const base = q ? baseDelay(q) : this.settings.delayMs;
    return base > 0 ? base : this.settings.delayMs > 0 ? this.settings.delayMs : DEFAULT_SEED_MS;
  }

  /** The queue's delay as its host's health has it now (for a URL deferred by that delay). */
  currentDelayOf(key: string): number {
    const q = this.queues.get(key);
    return q ? delayOf(q) : this.settings.delayMs;
  }

  /** Removes and returns the URLs waiting in a queue (its host just got paused). */
  drain(key: string): Queued<T>[] {
    const q = this.queues.get(key);
    if (!q) return [];
    const out = q.items.slice(q.head);
    q.items.length = 0;
    q.head = 0;
    this.queuedCount -= out.length;
    this.schedule(q);
    return out;
  }

  /** Hosts by state, for the progress line (queues of healthy hosts are not counted). */
  hostStates(): Record<Exclude<HostState, 'ok'>, number> {
    const counts = { backoff: 0, down: 0 };
    for (const q of this.queues.values()) {
      const st = q.health?.state;
      if (st === 'backoff' || st === 'down') counts[st]++;
    }
    return counts;
  }

  /** Sets the delay of a queue, e.g. from robots.txt Crawl-delay (the caller applies the policy). */
  setCrawlDelay(key: string, ms: number): void {
    const q = this.queues.get(key);
    if (q) q.crawlDelayMs = ms;
  }

  crawlDelayOf(key: string): number | undefined {
    return this.queues.get(key)?.crawlDelayMs;
  }

  /**
   * Each queue whose delay is still running (an idle queue is kept until it has run out): when its
   * host may be fetched again and its delay (a robots.txt Crawl-delay included). What a crawl that
   * goes on in another fetcher must honour (app/member.ts: an elastic member's next generation, or
   * the member a shard is handed to).
   */
  politeness(): PoliteHost[] {
    const now = this.clock.now();
    const out: PoliteHost[] = [];
    for (const q of this.queues.values()) {
      if (q.nextFetchTime > now)
        out.push({ key: q.key, notBefore: q.nextFetchTime, delayMs: q.crawlDelayMs });
    }
    return out;
  }

  /** Queues that start where another fetcher's left off (`politeness`): no fetch before `notBefore`. */
  remember(hosts: readonly PoliteHost[]): void {
    for (const h of hosts) {
      const q = this.queue(h.key, { crawlDelayMs: h.delayMs });
      q.nextFetchTime = Math.max(q.nextFetchTime, h.notBefore);
      this.schedule(q);
    }
  }

  /** The longest delay of any queue now (at least fetcher.server.delay): what a taker should wait. */
  maxDelayMs(): number {
    let max = this.settings.delayMs;
    for (const q of this.queues.values()) max = Math.max(max, delayOf(q));
    return max;
  }

  /** Removes and returns every URL waiting in every queue (the crawl stops). */
  drainAll(): Queued<T>[] {
    return [...this.queues.keys()].flatMap((key) => this.drain(key));
  }

  /** Removes and returns the URLs that waited longer than `maxWaitMs` (fetcher.timeout.queue). */
  expire(maxWaitMs: number): Queued<T>[] {
    const limit = this.clock.now() - maxWaitMs;
    const out: Queued<T>[] = [];
    for (const q of this.queues.values()) {
      // FIFO: the oldest items are at the head.
      while (pending(q) > 0 && q.items[q.head]!.enqueuedAt < limit) {
        out.push(q.items[q.head++]!);
        this.queuedCount--;
      }
      this.compact(q);
      if (pending(q) === 0) this.schedule(q);
    }
    return out;
  }

  private queue(key: string, o: QueueOverrides): Queue<T> {
    let q = this.queues.get(key);
    const s = this.settings;
    if (!q) {
      const rule = s.maxThreadsRules.find((r) => r.regex.test(key));
      q = {
        key,
        items: [],
        head: 0,
        inProgress: 0,
        nextFetchTime: 0,
        crawlDelayMs: o.crawlDelayMs ?? s.delayMs,
        minCrawlDelayMs: o.minCrawlDelayMs ?? s.minDelayMs,
        maxThreads: o.maxThreads ?? rule?.threads ?? s.threadsPerQueue,
        gen: 0,
        health: undefined,
      };
      this.queues.set(key, q);
    } else {
      // A later URL may ask for more politeness, never for less (StormCrawler: "the less aggressive").
      if (o.crawlDelayMs !== undefined) q.crawlDelayMs = Math.max(q.crawlDelayMs, o.crawlDelayMs);
      if (o.minCrawlDelayMs !== undefined) q.minCrawlDelayMs = Math.max(q.minCrawlDelayMs, o.minCrawlDelayMs);
    }
    return q;
  }

  private schedule(q: Queue<T>): void {
    q.gen++;
    const now = this.clock.now();
    if (pending(q) === 0) {
      // Keep an idle queue until its delay has run out, so that a URL arriving right after the last
      // fetch still waits; then forget it so memory follows the active hosts only.
      if (q.inProgress === 0) this.forgetOrKeep(q, now);
      return;
    }
    // A failing host gets one fetch at a time (and a down host one probe).
    const maxThreads = q.health && q.health.state !== 'ok' ? 1 : q.maxThreads;
    if (q.inProgress >= maxThreads) return;
    if (q.nextFetchTime <= now) this.ready.push({ q, gen: q.gen });
    else this.sleeping.push(q.nextFetchTime, { q, gen: q.gen });
  }

  /** An idle queue: dropped once its delay ran out and its host's health is not worth keeping. */
  private forgetOrKeep(q: Queue<T>, now: number): void {
    let until = q.nextFetchTime;
    if (q.health && q.health.state !== 'ok') {
      const end = Math.max(q.nextFetchTime, q.health.pauseEnd);
      until = end + Math.max(HEALTH_MEMORY_MS, q.health.downPauseMs);
    }
    if (until <= now) this.queues.delete(q.key);
    else this.sleeping.push(until, { q, gen: q.gen });
  }

  private compact(q: Queue<T>): void {
    if (q.head > 64 && q.head * 2 > q.items.length) {
      q.items.splice(0, q.head);
      q.head = 0;
    }
  }
}

const baseDelay = <T>(q: Queue<T>) => (q.maxThreads > 1 ? q.minCrawlDelayMs : q.crawlDelayMs);

/** The delay a queue's host gets now: its base delay, stretched while the host is failing. */
const delayOf = <T>(q: Queue<T>): number => (q.health ? q.health.delayMs(baseDelay(q)) : baseDelay(q));
