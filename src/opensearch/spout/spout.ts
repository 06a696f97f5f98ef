import type { Client } from '@opensearch-project/opensearch';
import type { Metadata } from '../../model/metadata.js';
import type { Status } from '../../model/status.js';
import { isoDate } from '../../model/values.js';
import type { Clock } from '../../util/clock.js';
import { errorMessage } from '../../util/errors.js';
import { LatencyWindow } from '../../util/latency.js';
import type { Logger } from '../../util/log.js';
import { ClusterOutage, errorType, noAnswer, shardUnavailable, statusOf } from '../outage.js';
import { fromStatusSource } from '../status-doc.js';
import type { Acknowledged } from '../status-store.js';
import { InFlight } from './in-flight.js';
import { KeyWork } from './key-work.js';
import {
  aggregationQuery,
  collapseQuery,
  type Hit,
  hitsOf,
  keyHitsOf,
  keyQuery,
  type QueryForm,
} from './query.js';
import { refreshIntervalMs } from './refresh.js';
import { UrlBuffer } from './url-buffer.js';

export interface SpoutItem {
  readonly url: string;
  readonly metadata: Metadata;
  readonly status: Status | undefined;
  readonly key: string;
}

export interface SpoutOptions {
  readonly index: string;
  readonly form: QueryForm;
  readonly maxBuckets: number;
  readonly maxUrlsPerBucket: number;
  readonly filterQueries: readonly string[];
  readonly queryTimeoutSecs: number;
  readonly minDelayMs: number;
  readonly maxDelayMs: number;
  /** ms; negative = never. */
  readonly resetFetchDateAfterMs: number;
  readonly purgatoryMs: number;
  /** The status shards this instance reads; undefined = all (one instance). */
  readonly shards?: readonly number[];
  /** Told each query's duration in ms, answered or not (metrics). */
  readonly onQuery?: (ms: number) => void;
}

export type PollResult = SpoutItem | 'empty' | 'wait';

/**
 * What the fetch side can take, by key: the crawl loop answers (`Spout.serve`). Without it the
 * spout knows no bounds but its budget.
 */
export interface FetchDemand {
  /** URLs of the key handed out and not fetched yet (in its fetch queue, or about to be). */
  waiting(key: string): number;
  /** URLs of the key its host may fetch within `ms` at its politeness; Infinity without a delay. */
  pace(key: string, ms: number): number;
  /** URLs the fetch queues can still take (fetcher.max.urls.in.queues); Infinity when unbounded. */
  room(): number;
}

export interface SpoutStats {
  readonly queries: number;
  readonly lastQueryMs: number;
  /** Over the last 1024 queries, in ms (NaN before the first). */
  readonly queryMsP50: number;
  readonly queryMsP95: number;
  readonly buffered: number;
  readonly inFlight: number;
  readonly inPurgatory: number;
  /** URLs taken in flight by `adopt` rather than from a query. */
  readonly adopted: number;
  /** Per-key queries: a host's queue ran short, or a URL settled back came due. */
  readonly keyQueries: number;
  /** Host-ms a key's fetch queue sat idle while due URLs of it were known (see KeyWork). */
  readonly idleWithWorkMs: number;
}

/** Keys remembered as this spout's own (see `adopt`): enough for every host a crawl has in flight. */
const OWN_KEYS_MAX = 10_000;
/** The most hits a bucket of either query form returns (index.max_inner_result_window). */
const INNER_HITS_MAX = 100;
/** Per-key queries in flight at once. */
const KEY_QUERIES_MAX = 4;
/** Pages of a per-key query at most, when its hits are URLs in flight already. */
const KEY_QUERY_PAGES = 4;
/** A URL settled back due within this long gets a wake-up of its own (a deferral: 5 min at most). */
const WAKE_HORIZON_MS = 10 * 60_000;
/** Assumed until the status index's own refresh interval is read. */
const DEFAULT_REFRESH_MS = 1000;

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
 */
export class Spout {
  private readonly buffer = new UrlBuffer<SpoutItem>();
  private readonly inFlight: InFlight;
  private queryDate: number | undefined;
  private queryDateSetAt = 0;
  private lastQuerySent = Number.NEGATIVE_INFINITY;
  private lastQueryDone = Number.NEGATIVE_INFINITY;
  private querying: Promise<number> | undefined;
  private queries = 0;
  private lastQueryMs = 0;
  private failed = false;
  /** The reason of the last failed query the cluster answered, logged once until one works. */
  private lastRefusal: string | undefined;
  private readonly queryMs = new LatencyWindow();
  private readonly outage: ClusterOutage;
  /**
   * With a share of the shards: keys its queries returned, most recent last (bounded), which are
   * therefore routed to its shards. Without one every key is its own and this stays empty.
   */
  private readonly ownKeys = new Map<string, true>();
  private adoptedCount = 0;
  private readonly work: KeyWork;
  private demand: FetchDemand | undefined;
  private onBuffered: (() => void) | undefined;
  /** Keys the last query returned (the budget's share is split among them). */
  private lastKeys: number;
  private keyQueriesRunning = 0;
  private keyQueries = 0;
  private refreshMs = DEFAULT_REFRESH_MS;
  private refreshRead = false;
  /** Due hits the last timed query held back: settled URLs whose new state a query cannot show yet. */
  private heldBack = 0;
  /** The last timed query's answer missed shards (failed or timed out): it did not see every due URL. */
  private partial = false;

  constructor(
    private readonly client: Client,
    private readonly options: SpoutOptions,
    private readonly clock: Clock,
    private readonly log: Logger,
    /** Shared with the bulk writers, so an outage is logged once when it starts and once when it ends. */
    outage?: ClusterOutage,
  ) {
    this.inFlight = new InFlight(options.purgatoryMs, clock);
    this.work = new KeyWork(clock);
    this.lastKeys = options.maxBuckets;
    this.outage = outage ?? new ClusterOutage(clock, log);
  }

  /**
   * Connects the fetch side: `demand` bounds what the spout hands out per key, and `buffered` is
   * called when URLs arrive in the buffer between polls (a per-key query came back).
   */
  serve(demand: FetchDemand, buffered: () => void): void {
    this.demand = demand;
    this.onBuffered = buffered;
  }

  /** The last query failed (cluster down, bad settings): its 0 URLs say nothing about what is due. */
  get lastQueryFailed(): boolean {
    return this.failed;
  }

  stats(): SpoutStats {
    return {
      queries: this.queries,
      lastQueryMs: this.lastQueryMs,
      queryMsP50: this.queryMs.percentile(50),
      queryMsP95: this.queryMs.percentile(95),
      buffered: this.buffer.size,
      inFlight: this.inFlight.size,
      inPurgatory: this.inFlight.inPurgatory,
      adopted: this.adoptedCount,
      keyQueries: this.keyQueries,
      idleWithWorkMs: this.work.idleWithWorkMs,
    };
  }

  /**
   * The next URL to fetch; 'wait' when a query may not be sent yet; 'empty' when a query just found
   * nothing new to emit. The URL is in flight until `settle(url)`.
   */
  async poll(): Promise<PollResult> {
    for (const key of this.work.wokenUp()) this.topUp(key);
    const now = this.clock.now();
    const stale = now - this.lastQueryDone > this.options.maxDelayMs && this.lastQueryDone > 0;
    if (this.buffer.size === 0 || stale) {
      if (this.querying || now - this.lastQuerySent < this.options.minDelayMs) {
        if (this.buffer.size === 0) return 'wait';
      } else {
        const added = await this.query();
        // A failed query is not an empty index: --once must not take it for the end of the crawl.
        if (added === 0 && this.buffer.size === 0) return this.failed ? 'wait' : 'empty';
      }
    }
    const item = this.buffer.next();
    if (!item) return 'wait';
    this.inFlight.add(item.url);
    this.work.fed(item.key);
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
    if (this.options.filterQueries.length > 0) return false;
    if (this.options.shards && !this.ownKeys.has(item.key)) return false;
    if (this.inFlight.holds(item.url) || this.buffer.has(item.url)) return false;
    if (this.have(item.key) >= this.target(item.key) || (this.demand?.room() ?? 1) <= 0) {
      // No room for it now: a query finds it once the index shows it.
      this.work.wakeAt(item.key, this.clock.now() + this.refreshMs, false);
      return false;
    }
    this.inFlight.add(item.url);
    this.work.fed(item.key);
    this.adoptedCount++;
    return true;
  }

  /**
   * The URL's fate is written (`ack`: what OpenSearch acknowledged) or given up on (no `ack`): it may
   * be emitted again once a query shows the acknowledged update (or after the purgatory, when
   * nothing was written). A new nextFetchDate due soon (a deferral) wakes its key up then.
   */
  settle(url: string, ack?: Acknowledged): boolean {
    if (!this.inFlight.settle(url, ack?.version)) return false;
    const next = ack?.nextFetchDate;
    if (ack && ack.version !== undefined && next !== null && next !== undefined) {
      const now = this.clock.now();
      if (next <= now + WAKE_HORIZON_MS)
        this.work.wakeAt(ack.key, Math.max(next, now + this.refreshMs), true);
    }
    return true;
  }

  /** A URL of the key left its fetch queue: the key's queue may run short. */
  short(key: string): void {
    this.topUp(key);
  }

  /**
   * The key's fetch queue has nothing to fetch from `at` on (its delay over): counted as idle with
   * work while URLs of it are known, and topped up when the index holds more.
   */
  drained(key: string, at: number): void {
    this.work.drained(key, at, this.buffer.count(key) > 0 || this.work.hasDue(key));
    this.topUp(key);
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
    // A query sent before the refresh below may not show the writes it makes visible: let it end,
    // and ask with a query of our own.
    while (this.querying) await this.querying;
    try {
      await this.refresh();
    } catch (e) {
      // Not visible yet is not exhausted: the crawl asks again once the cluster answers.
      this.failure('index refresh', e);
      return false;
    }
    while (this.querying) await this.querying;
    this.resetQueryDate(lookAheadMs);
    const added = await this.query();
    return (
      added === 0 &&
      !this.failed &&
      !this.partial &&
      this.heldBack === 0 &&
      this.inFlight.size === 0 &&
      this.keyQueriesRunning === 0 &&
      this.buffer.size === 0
    );
  }

  /**
   * The next query looks for URLs due now (plus `lookAheadMs`) rather than at the kept query date.
   * The look-ahead lets `--once` see URLs whose nextFetchDate was rounded up a little past now.
   */
  resetQueryDate(lookAheadMs = 0): void {
    const now = this.clock.now();
    this.queryDate = now + lookAheadMs;
    this.queryDateSetAt = now;
  }

  /** Runs one query now (for tests and --once); resolves to the number of URLs buffered. */
  query(): Promise<number> {
    if (!this.querying) {
      this.querying = this.runQuery().finally(() => {
        this.querying = undefined;
      });
    }
    return this.querying;
  }

  private async runQuery(): Promise<number> {
    const o = this.options;
    const started = this.clock.now();
    this.lastQuerySent = started;
    if (!this.refreshRead) void this.readRefreshInterval();
    if (
      this.queryDate === undefined ||
      (o.resetFetchDateAfterMs >= 0 && started - this.queryDateSetAt > o.resetFetchDateAfterMs)
    ) {
      this.queryDate = started;
      this.queryDateSetAt = started;
    }
    // Each key's bucket is asked for its share of the budget among as many keys as last time.
    const budget = o.maxBuckets * o.maxUrlsPerBucket;
    const perBucket = Math.min(
      INNER_HITS_MAX,
      Math.max(o.maxUrlsPerBucket, Math.floor(budget / this.lastKeys)),
    );
    const params = {
      queryDate: isoDate(this.queryDate),
      maxBuckets: o.maxBuckets,
      maxUrlsPerBucket: perBucket,
      filterQueries: o.filterQueries,
      timeoutSecs: o.queryTimeoutSecs,
    };
    const body = o.form === 'collapse' ? collapseQuery(params) : aggregationQuery(params);
    let added = 0;
    let hits = 0;
    const keys: string[] = [];
    this.failed = false;
    const wasPartial = this.partial;
    this.partial = false;
    this.heldBack = 0;
    try {
      // A URL that waited its purgatory time, settled since the last refresh: the query must show its
      // new state, or it could emit the URL again (see InFlight).
      if (this.inFlight.needsRefresh()) await this.refresh();
      const res = await this.client.search({
        index: o.index,
        body: body as never,
        ...(o.shards ? { preference: `_shards:${o.shards.join(',')}` } : {}),
      });
      this.outage.up();
      this.lastRefusal = undefined;
      this.inFlight.prune();
      // A shard that failed (rejected, out of memory) or a query that timed out answers without error,
      // with the hits of the other shards only: fine to fetch, but no proof that nothing else is due.
      const unavailable = unavailableShards(res.body);
      this.partial = unavailable !== undefined || missedShards(res.body);
      if (unavailable) {
        // A shard with no copy to search (its node left, a primary is failing over) hides its due
        // URLs until it is back: an outage, logged as one, and a failed query.
        this.failed = true;
        this.outage.shardsUnavailable(this, 'spout query', unavailable);
      } else {
        this.outage.shardsAvailable(this);
        if (this.partial && !wasPartial)
          this.log.warn(
            { index: o.index },
            'a spout query missed shards (failed or timed out): its URLs are fetched, but --once asks again',
          );
      }
      const buckets = hitsOf(o.form, res.body);
      if (buckets.length > 0) this.lastKeys = buckets.length;
      // The extra share beyond max.urls.per.bucket is bounded by the room in the fetch queues.
      let room = Math.max(0, (this.demand?.room() ?? Number.POSITIVE_INFINITY) - this.buffer.size);
      for (const bucket of buckets) {
        // A bucket is one key's hits.
        const key = (bucket[0]?._source as { key?: unknown } | undefined)?.key;
        if (typeof key !== 'string') continue;
        if (o.shards) this.ownKey(key);
        keys.push(key);
        hits += bucket.length;
        const extra = Math.min(room, Math.max(0, this.target(key) - this.have(key) - o.maxUrlsPerBucket));
        const took = this.take(key, bucket, o.maxUrlsPerBucket + extra);
        added += took;
        room -= Math.max(0, took - o.maxUrlsPerBucket);
        this.work.setCursor(key, bucket[bucket.length - 1]?.sort);
        // A full bucket: the key may have more due URLs than the query showed.
        if (bucket.length >= perBucket) this.work.due(key);
      }
    } catch (e) {
      this.failed = true;
      this.failure('spout query', e);
    } finally {
      this.queries++;
      this.lastQueryDone = this.clock.now();
      this.lastQueryMs = this.lastQueryDone - started;
      this.queryMs.record(this.lastQueryMs);
      this.options.onQuery?.(this.lastQueryMs);
    }
    // Nothing new at this date (nothing due, or all of it in hand): the next query looks at "now"
    // again, where new URLs (found or settled since) may be due.
    if ((hits === 0 || added === 0) && !this.failed) this.queryDate = undefined;
    for (const key of keys) this.topUp(key);
    return added;
  }

  /**
   * Buffers up to `max` of a key's hits that are not in flight, not settled and still invisible,
   * and not buffered already; returns how many it buffered.
   */
  private take(key: string, hits: readonly Hit[], max: number): number {
    let added = 0;
    for (const hit of hits) {
      if (added >= max) {
        this.work.due(key);
        break;
      }
      // Most hits of a busy crawl are URLs still in flight: skip them before decoding metadata.
      const url = (hit._source as { url?: unknown } | undefined)?.url;
      if (typeof url === 'string' && (this.inFlight.blocks(url, hit._version) || this.buffer.has(url))) {
        // A settled URL the index does not show updated yet: ask again once it may.
        if (!this.inFlight.isActive(url) && !this.buffer.has(url)) {
          this.heldBack++;
          this.work.wakeAt(key, this.clock.now() + this.refreshMs, false);
        }
        continue;
      }
      const doc = fromStatusSource(hit._source);
      if (!doc) continue;
      if (this.buffer.add(key, { url: doc.url, metadata: doc.metadata, status: doc.status, key })) added++;
    }
    if (added > 0) this.work.buffered(key);
    return added;
  }

  /** URLs of the key the fetch side holds and the buffer has for it. */
  private have(key: string): number {
    return (this.demand?.waiting(key) ?? 0) + this.buffer.count(key);
  }

  /**
   * URLs of the key worth holding: its share of the budget among the keys of the last query, no
   * more than its host can fetch before the next query at its politeness, and at least
   * max.urls.per.bucket (what a StormCrawler query gives it).
   */
  private target(key: string): number {
    const o = this.options;
    const share = Math.max(
      o.maxUrlsPerBucket,
      Math.floor((o.maxBuckets * o.maxUrlsPerBucket) / this.lastKeys),
    );
    const pace = this.demand?.pace(key, o.minDelayMs) ?? Number.POSITIVE_INFINITY;
    return Math.max(o.maxUrlsPerBucket, Math.min(share, pace));
  }

  /**
   * A per-key query when the index holds due URLs of the key and its fetch queue runs short: when it
   * is empty, or half its target is missing and the key takes more than max.urls.per.bucket. Only
   * while the last query returned fewer keys than max.buckets (with more keys due, the timed query's
   * order by oldest due URL decides), or for a URL settled back that came due (a deferral).
   */
  private topUp(key: string): void {
    const o = this.options;
    const w = this.work;
    if (!this.demand || this.keyQueriesRunning >= KEY_QUERIES_MAX || w.isRefilling(key) || !w.hasDue(key))
      return;
    if (this.lastKeys >= o.maxBuckets && !w.isUrgent(key)) return;
    if (o.shards && !this.ownKeys.has(key)) return;
    const target = this.target(key);
    const have = this.have(key);
    const want = Math.min(target - have, this.demand.room() - this.buffer.size);
    if (want <= 0) return;
    if (have > 0 && (target <= o.maxUrlsPerBucket || want < target / 2)) return;
    void this.keyQuery(key, want);
  }

  /**
   * Asks for up to `want` due URLs of the key after its cursor. Hits of URLs in flight (adopted since
   * the cursor was set) take room in a page: a full page that added less than wanted is followed by
   * the next, a few pages at most.
   */
  private async keyQuery(key: string, want: number): Promise<void> {
    const o = this.options;
    const started = this.clock.now();
    this.work.refilling(key, true);
    this.keyQueriesRunning++;
    let added = 0;
    try {
      for (let page = 0; page < KEY_QUERY_PAGES && added < want; page++) {
        const body = keyQuery(
          { queryDate: isoDate(started), filterQueries: o.filterQueries, timeoutSecs: o.queryTimeoutSecs },
          key,
          want,
          this.work.cursorOf(key),
        );
        const res = await this.client.search({ index: o.index, routing: key, body: body as never });
        this.outage.up();
        this.keyQueries++;
        const hits = keyHitsOf(res.body);
        added += this.take(key, hits, want - added);
        const last = hits[hits.length - 1]?.sort;
        if (last) this.work.setCursor(key, last);
        if (hits.length < want) {
          this.work.exhausted(key, started);
          break;
        }
        this.work.due(key);
      }
    } catch (e) {
      // The timed query covers the key as before; an outage is logged once by whoever sees it.
      this.failure('spout query', e);
    } finally {
      this.keyQueriesRunning--;
      this.work.refilling(key, false);
    }
    if (added > 0) this.onBuffered?.();
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
    // A refresh waits for a shard without an active copy until it times out: ask first.
    const health = await this.client.cluster.health({ index: this.options.index, timeout: '0s' });
    if (health.body.status === 'red') throw new IndexRed(`index ${this.options.index} is red`);
    const startedAt = this.clock.now();
    await this.client.indices.refresh({ index: this.options.index });
    this.inFlight.refreshed(startedAt);
  }

  /** The status index's refresh interval: how long after an acknowledged write a query may see it. */
  private async readRefreshInterval(): Promise<void> {
    this.refreshRead = true;
    const ms = await refreshIntervalMs(this.client, this.options.index);
    // -1 (refreshes only on demand): the purgatory's time-to-live is the only bound left.
    if (ms !== undefined) this.refreshMs = ms < 0 ? this.options.purgatoryMs : ms;
  }

  private ownKey(key: string): void {
    if (this.ownKeys.has(key)) this.ownKeys.delete(key);
    else if (this.ownKeys.size >= OWN_KEYS_MAX) this.ownKeys.delete(this.ownKeys.keys().next().value!);
    this.ownKeys.set(key, true);
  }

  /** A request failed: no answer (an outage), shards unavailable (an outage too), or refused. */
  private failure(what: string, e: unknown): void {
    if (noAnswer(e) && !(e instanceof IndexRed)) {
      this.outage.down(what, e);
    } else if (e instanceof IndexRed || shardUnavailable(statusOf(e), errorType(e))) {
      this.outage.up();
      this.outage.shardsUnavailable(this, what, errorMessage(e));
    } else {
      this.refused(e);
    }
  }

  /** A query the cluster answered with an error (bad settings, a bad filter query): logged once per reason. */
  private refused(e: unknown): void {
    const reason = errorMessage(e);
    if (reason === this.lastRefusal) return;
    this.lastRefusal = reason;
    this.log.warn(
      { err: reason },
      'spout query failed; retrying every spout.min.delay.queries (logged again only if the reason changes)',
    );
  }
}

/** True when a search answer lacks some shards' hits (`_shards.failed`, or `timed_out`). */
function missedShards(body: unknown): boolean {
  const b = body as { timed_out?: boolean; _shards?: { failed?: number } } | undefined;
  return b?.timed_out === true || (b?._shards?.failed ?? 0) > 0;
}

/** The status index is red: a refresh would wait for its missing shards. */
class IndexRed extends Error {}

interface ShardCounts {
  total?: number;
  successful?: number;
  skipped?: number;
  failed?: number;
  failures?: { status?: number; reason?: { type?: string; reason?: string } }[];
}

/**
 * Why shards of a search answer could not be searched for want of a copy ("1 of 4 shards not
 * searched: <reason>"), or undefined. A shard with no active copy (red) is neither successful nor
 * counted in `failed`: it is found by what is missing from `total`. A shard that failed for another
 * reason (rejected, out of memory) is not an outage: missedShards covers it.
 */
export function unavailableShards(body: unknown): string | undefined {
  const s = (body as { _shards?: ShardCounts } | undefined)?._shards;
  if (!s || s.total === undefined) return undefined;
  const missing = s.total - (s.successful ?? 0) - (s.skipped ?? 0);
  if (missing <= 0) return undefined;
  const unreported = missing - (s.failed ?? 0);
  const failure = s.failures?.find((f) => shardUnavailable(f.status ?? 0, f.reason?.type));
  if (unreported <= 0 && !failure) return undefined;
  const r = failure?.reason;
  return `${missing} of ${s.total} shards not searched${r ? `: ${r.type}: ${r.reason}` : ' (no active copy)'}`;
}
