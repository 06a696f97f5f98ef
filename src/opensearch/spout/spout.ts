import type { Client } from '@opensearch-project/opensearch';
import type { Acknowledged } from '../../pipeline/ports.js';
import type { Clock } from '../../util/clock.js';
import type { Logger } from '../../util/log.js';
import { ClusterOutage } from '../outage.js';
import { SpoutFailures } from './answers.js';
import { KeyRefill } from './key-query.js';
import { refreshIndex } from './refresh.js';
import { KeyShares } from './shares.js';
import { TimedQuery } from './timed-query.js';
import type { FetchDemand, PollResult, SpoutItem, SpoutOptions, SpoutStats } from './types.js';

export type { FetchDemand, PollResult, SpoutItem, SpoutOptions, SpoutStats } from './types.js';

/** A URL settled back due within this long gets a wake-up of its own (a deferral: 5 min at most). */
const WAKE_HORIZON_MS = 10 * 60_000;

/**
 * Reads due URLs from the status index (the only reader of it). Keeps a query date until
 * spout.reset.fetchdate.after or a result with nothing new, paces queries between the min and max
 * delays, serves a buffer round-robin by key, and never emits a URL that is in flight, nor one
 * settled whose acknowledged update a query does not show yet (the purgatory, in-flight.ts).
 *
 * Few keys: a query may return max.buckets x max.urls.per.bucket URLs (the budget); when fewer keys
 * are due, theirs take the unused share, bounded by what their hosts can fetch before the next query
 * at their politeness and by the room in the fetch queues (FetchDemand). And a key whose fetch queue
 * runs short while the index holds more due URLs of it gets a query of its own (HybridSpout's, from
 * where the last one ended) without waiting for the next timed query; so does a key whose settled
 * URL comes due again soon (a deferral that ends), once that time came.
 *
 * The parts: what it holds per key (shares.ts), the timed query (timed-query.ts), the per-key
 * queries (key-query.ts) and how it reads the cluster's failures (answers.ts); this class paces them
 * and keeps the lifecycle of a URL: poll or adopt, then settle.
 */
export class Spout {
  private readonly clock: Clock;
  private readonly shares: KeyShares;
  private readonly failures: SpoutFailures;
  private readonly timed: TimedQuery;
  private readonly refill: KeyRefill;
  private adoptedCount = 0;
  private onBuffered: (() => void) | undefined;

  constructor(
    private readonly client: Client,
    private readonly options: SpoutOptions,
    deps: {
      readonly clock: Clock;
      readonly log: Logger;
      /** Shared with the bulk writers, so an outage is logged once when it starts and once when it ends. */
      readonly outage?: ClusterOutage;
    },
  ) {
    const { clock, log, outage } = deps;
    this.clock = clock;
    this.shares = new KeyShares(options, clock);
    this.failures = new SpoutFailures(outage ?? new ClusterOutage(clock, log), log);
    const parts = { client, options, clock, shares: this.shares, failures: this.failures };
    this.refill = new KeyRefill(parts, () => this.onBuffered?.());
    this.timed = new TimedQuery(parts, log, {
      refresh: () => this.refresh(),
      topUp: (key) => this.refill.topUp(key),
    });
  }

  /**
   * Connects the fetch side: `demand` bounds what the spout hands out per key, and `buffered` is
   * called when URLs arrive in the buffer between polls (a per-key query came back).
   */
  serve(demand: FetchDemand, buffered: () => void): void {
    this.shares.demand = demand;
    this.onBuffered = buffered;
  }

  /** The last query failed (cluster down, bad settings): its 0 URLs say nothing about what is due. */
  get lastQueryFailed(): boolean {
    return this.timed.failed;
  }

  stats(): SpoutStats {
    const { timed, shares } = this;
    return {
      queries: timed.count,
      lastQueryMs: timed.lastMs,
      queryMsP50: timed.latency.percentile(50),
      queryMsP95: timed.latency.percentile(95),
      buffered: shares.buffer.size,
      inFlight: shares.inFlight.size,
      inPurgatory: shares.inFlight.inPurgatory,
      adopted: this.adoptedCount,
      keyQueries: this.refill.count,
      idleWithWorkMs: shares.work.idleWithWorkMs,
    };
  }

  /**
   * The next URL to fetch; 'wait' when a query may not be sent yet; 'empty' when a query just found
   * nothing new to emit. The URL is in flight until `settle(url)`.
   */
  async poll(): Promise<PollResult> {
    const { buffer, inFlight, work } = this.shares;
    const timed = this.timed;
    for (const key of work.wokenUp()) this.refill.topUp(key);
    const now = this.clock.now();
    const stale = now - timed.lastDone > this.options.maxDelayMs && timed.lastDone > 0;
    if (buffer.size === 0 || stale) {
      if (timed.running || now - timed.lastSent < this.options.minDelayMs) {
        if (buffer.size === 0) return 'wait';
      } else {
        const added = await timed.query();
        // A failed query is not an empty index: --once must not take it for the end of the crawl.
        if (added === 0 && buffer.size === 0) return timed.failed ? 'wait' : 'empty';
      }
    }
    const item = buffer.next();
    if (!item) return 'wait';
    inFlight.add(item.url);
    work.fed(item.key);
    return item;
  }

  /**
   * A URL the crawl just created in the status index, offered straight to the fetcher (the
   * UrlSource contract): taken in flight, as if a query had returned it, when it is this spout's to
   * emit. That is when its key is known to be routed to this spout's shards (a query of its share
   * returned the key; any key without a share), no filter query could exclude it, and it is not in
   * flight, in the purgatory or buffered. So it is never emitted twice, nor by two instances. And
   * only while its host's queue has room (what the key holds is below its share of the budget and
   * its pace; the fetch queues have room): otherwise a query finds it once the index shows it.
   */
  adopt(item: SpoutItem): boolean {
    const s = this.shares;
    if (this.options.filterQueries.length > 0) return false;
    if (!s.owns(item.key)) return false;
    if (s.inFlight.holds(item.url) || s.buffer.has(item.url)) return false;
    if (s.have(item.key) >= s.target(item.key) || (s.demand?.room() ?? 1) <= 0) {
      // No room for it now: a query finds it once the index shows it.
      s.work.wakeAt(item.key, this.clock.now() + s.refreshMs, false);
      return false;
    }
    s.inFlight.add(item.url);
    s.work.fed(item.key);
    this.adoptedCount++;
    return true;
  }

  /**
   * The URL's fate is written (`ack`: what OpenSearch acknowledged) or given up on (no `ack`): it may
   * be emitted again once a query shows the acknowledged update (or after the purgatory, when
   * nothing was written). A new nextFetchDate due soon (a deferral) wakes its key up then.
   */
  settle(url: string, ack?: Acknowledged): boolean {
    const s = this.shares;
    if (!s.inFlight.settle(url, ack?.version)) return false;
    const next = ack?.nextFetchDate;
    if (ack && ack.version !== undefined && next !== null && next !== undefined) {
      const now = this.clock.now();
      if (next <= now + WAKE_HORIZON_MS) s.work.wakeAt(ack.key, Math.max(next, now + s.refreshMs), true);
    }
    return true;
  }

  /** A URL of the key left its fetch queue: the key's queue may run short. */
  short(key: string): void {
    this.refill.topUp(key);
  }

  /**
   * The key's fetch queue has nothing to fetch from `at` on (its delay over): counted as idle with
   * work while URLs of it are known, and topped up when the index holds more.
   */
  drained(key: string, at: number): void {
    const { work, buffer } = this.shares;
    work.drained(key, at, buffer.count(key) > 0 || work.hasDue(key));
    this.refill.topUp(key);
  }

  /**
   * `--once`: refreshes the status index so that every acknowledged write is visible, then queries
   * for URLs due within `lookAheadMs` (URLs discovered during the run are due at their discovery
   * time, after the kept query date, and rounding may have put them a little past now). True when
   * none were found by a query that worked on every shard, nothing is in flight, and no due URL was
   * held back (a URL given up unchanged stays in the purgatory for a while, but it is still due: the
   * crawl is not over until it has been emitted again).
   */
  async isExhausted(lookAheadMs: number): Promise<boolean> {
    const { timed, shares } = this;
    // A query sent before the refresh below may not show the writes it makes visible: let it end,
    // and ask with a query of our own.
    while (timed.running) await timed.running;
    try {
      await this.refresh();
    } catch (e) {
      // Not visible yet is not exhausted: the crawl asks again once the cluster answers.
      this.failures.failure('index refresh', e);
      return false;
    }
    while (timed.running) await timed.running;
    timed.resetDate(lookAheadMs);
    const added = await timed.query();
    return (
      added === 0 &&
      !timed.failed &&
      !timed.partial &&
      shares.heldBack === 0 &&
      shares.inFlight.size === 0 &&
      !this.refill.busy &&
      shares.buffer.size === 0
    );
  }

  /**
   * The next query looks for URLs due now (plus `lookAheadMs`) rather than at the kept query date.
   * The look-ahead lets `--once` see URLs whose nextFetchDate was rounded up a little past now.
   */
  resetQueryDate(lookAheadMs = 0): void {
    this.timed.resetDate(lookAheadMs);
  }

  /** Runs one query now (for tests and --once); resolves to the number of URLs buffered. */
  query(): Promise<number> {
    return this.timed.query();
  }

  /** When the next URL of this spout's share is due, and how many are scheduled (UrlSource.nextDue). */
  async nextDue(): Promise<{ at: number | undefined; scheduled: number }> {
    const o = this.options;
    // The URLs settled last (acknowledged, maybe not yet searchable) must show their new dates.
    await this.client.indices.refresh({ index: o.index });
    const res = await this.client.search({
      index: o.index,
      body: {
        size: 0,
        track_total_hits: true,
        query: { exists: { field: 'nextFetchDate' } },
        aggs: { next: { min: { field: 'nextFetchDate' } } },
      } as never,
      ...(o.shards ? { preference: `_shards:${o.shards.join(',')}` } : {}),
    });
    const body = res.body as unknown as {
      hits: { total: { value: number } };
      aggregations: { next: { value: number | null } };
    };
    const at = body.aggregations.next.value;
    return { at: at === null ? undefined : at, scheduled: body.hits.total.value };
  }

  /** Refreshes the status index: every write acknowledged before it is then visible to queries. */
  private async refresh(): Promise<void> {
    const startedAt = await refreshIndex(this.client, this.options.index, () => this.clock.now());
    this.shares.inFlight.refreshed(startedAt);
  }
}
