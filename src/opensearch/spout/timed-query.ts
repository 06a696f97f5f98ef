import type { Client } from '@opensearch-project/opensearch';
import { isoDate } from '../../model/values.js';
import type { Clock } from '../../util/clock.js';
import { LatencyWindow } from '../../util/latency.js';
import type { Logger } from '../../util/log.js';
import { missedShards, type SpoutFailures, unavailableShards } from './answers.js';
import type { SpoutParts } from './key-query.js';
import { indexSortWarning } from './per-key.js';
import { hitsOf } from './query.js';
import { refreshIntervalMs } from './refresh.js';
import { selectDue } from './select.js';
import type { KeyShares } from './shares.js';
import type { SpoutOptions } from './types.js';

/** The most hits a bucket of either query form returns (index.max_inner_result_window). */
const INNER_HITS_MAX = 100;

/**
 * The spout's timed query: due URLs spread over keys (max.buckets x max.urls.per.bucket, the
 * budget), one at a time. Keeps its query date until spout.reset.fetchdate.after or an answer with
 * nothing new; splits the budget among as many keys as the last answer had, a key with few
 * neighbours taking the unused share within the room of the fetch queues; records what the answer
 * proves (`failed`: nothing; `partial`: shards missed, so not that nothing else is due). After each
 * answer every key it returned is offered to `topUp` (a per-key query when its queue runs short).
 */
export class TimedQuery {
  /** The last query failed (cluster down, bad settings): its 0 URLs say nothing about what is due. */
  failed = false;
  /** The last query's answer missed shards (failed or timed out): it did not see every due URL. */
  partial = false;
  count = 0;
  lastMs = 0;
  /** When the last query was sent and answered (or failed); -Infinity before the first. */
  lastSent = Number.NEGATIVE_INFINITY;
  lastDone = Number.NEGATIVE_INFINITY;
  readonly latency = new LatencyWindow();
  private queryDate: number | undefined;
  private queryDateSetAt = 0;
  private current: Promise<number> | undefined;
  private refreshRead = false;

  private readonly client: Client;
  private readonly options: SpoutOptions;
  private readonly clock: Clock;
  private readonly shares: KeyShares;
  private readonly failures: SpoutFailures;
  /** Refreshes the status index (a settled URL's new state must show). */
  private readonly refresh: () => Promise<void>;
  private readonly topUp: (key: string) => void;

  constructor(
    parts: SpoutParts,
    private readonly log: Logger,
    hooks: { readonly refresh: () => Promise<void>; readonly topUp: (key: string) => void },
  ) {
    this.client = parts.client;
    this.options = parts.options;
    this.clock = parts.clock;
    this.shares = parts.shares;
    this.failures = parts.failures;
    this.refresh = hooks.refresh;
    this.topUp = hooks.topUp;
  }

  /** The query in flight, if any. */
  get running(): Promise<number> | undefined {
    return this.current;
  }

  /**
   * The next query looks for URLs due now (plus `lookAheadMs`) rather than at the kept query date.
   * The look-ahead lets `--once` see URLs whose nextFetchDate was rounded up a little past now.
   */
  resetDate(lookAheadMs = 0): void {
    const now = this.clock.now();
    this.queryDate = now + lookAheadMs;
    this.queryDateSetAt = now;
  }

  /** Runs one query now, or joins the one in flight; resolves to the number of URLs buffered. */
  query(): Promise<number> {
    if (!this.current) {
      this.current = this.run().finally(() => {
        this.current = undefined;
      });
    }
    return this.current;
  }

  private async run(): Promise<number> {
    const o = this.options;
    const s = this.shares;
    const started = this.clock.now();
    this.lastSent = started;
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
    const perBucket = Math.min(INNER_HITS_MAX, Math.max(o.maxUrlsPerBucket, Math.floor(budget / s.lastKeys)));
    const params = {
      queryDate: isoDate(this.queryDate),
      maxBuckets: o.maxBuckets,
      maxUrlsPerBucket: perBucket,
      filterQueries: o.filterQueries,
      timeoutSecs: o.queryTimeoutSecs,
    };
    let added = 0;
    let hits = 0;
    const keys: string[] = [];
    this.failed = false;
    const wasPartial = this.partial;
    this.partial = false;
    s.heldBack = 0;
    try {
      // A URL that waited its purgatory time, settled since the last refresh: the query must show its
      // new state, or it could emit the URL again (see InFlight).
      if (s.inFlight.needsRefresh()) await this.refresh();
      const res = await selectDue(this.client, o.form, params, {
        index: o.index,
        ...(o.shards ? { preference: `_shards:${o.shards.join(',')}` } : {}),
      });
      this.failures.answered();
      s.inFlight.prune();
      // A shard that failed (rejected, out of memory) or a query that timed out answers without error,
      // with the hits of the other shards only: fine to fetch, but no proof that nothing else is due.
      const unavailable = res.answers.map(unavailableShards).find((u) => u !== undefined);
      this.partial = unavailable !== undefined || res.answers.some(missedShards);
      // A shard with no copy to search (its node left, a primary is failing over) hides its due
      // URLs until it is back: an outage, logged as one, and a failed query.
      this.failures.shards('spout query', unavailable);
      if (unavailable) this.failed = true;
      else if (this.partial && !wasPartial)
        this.log.warn(
          { index: o.index },
          'a spout query missed shards (failed or timed out): its URLs are fetched, but --once asks again',
        );
      const buckets = hitsOf(o.form, res.body);
      if (buckets.length > 0) s.lastKeys = buckets.length;
      // The extra share beyond max.urls.per.bucket is bounded by the room in the fetch queues.
      let room = Math.max(0, s.room());
      for (const bucket of buckets) {
        // A bucket is one key's hits.
        const key = (bucket[0]?._source as { key?: unknown } | undefined)?.key;
        if (typeof key !== 'string') continue;
        if (o.shards) s.ownKey(key);
        keys.push(key);
        hits += bucket.length;
        const extra = Math.min(room, Math.max(0, s.target(key) - s.have(key) - o.maxUrlsPerBucket));
        const took = s.take(key, bucket, o.maxUrlsPerBucket + extra);
        added += took;
        room -= Math.max(0, took - o.maxUrlsPerBucket);
        s.work.setCursor(key, bucket[bucket.length - 1]?.sort);
        // A full bucket: the key may have more due URLs than the query showed.
        if (bucket.length >= perBucket) s.work.due(key);
      }
    } catch (e) {
      this.failed = true;
      this.failures.failure('spout query', e);
    } finally {
      this.count++;
      this.lastDone = this.clock.now();
      this.lastMs = this.lastDone - started;
      this.latency.record(this.lastMs);
      this.options.onQuery?.(this.lastMs);
    }
    // Nothing new at this date (nothing due, or all of it in hand): the next query looks at "now"
    // again, where new URLs (found or settled since) may be due.
    if ((hits === 0 || added === 0) && !this.failed) this.queryDate = undefined;
    for (const key of keys) this.topUp(key);
    return added;
  }

  /** Warns once when the status index lacks the sort the per-key and keys-first forms rely on. */
  private async checkIndexSort(): Promise<void> {
    const why = await indexSortWarning(this.client, this.options.index);
    if (why)
      this.log.warn(
        { index: this.options.index, form: this.options.form },
        `${why}: each spout query reads every due URL (slow past a million). Made before the sort was in mappings/status.json; recreate it (crawler init --recreate --yes deletes the crawl state) or reindex into a new index made by crawler init`,
      );
  }

  /** The status index's refresh interval: how long after an acknowledged write a query may see it. */
  private async readRefreshInterval(): Promise<void> {
    this.refreshRead = true;
    if (this.options.form === 'per-key' || this.options.form === 'keys-first') void this.checkIndexSort();
    const ms = await refreshIntervalMs(this.client, this.options.index);
    // -1 (refreshes only on demand): the purgatory's time-to-live is the only bound left.
    if (ms !== undefined) this.shares.refreshMs = ms < 0 ? this.options.purgatoryMs : ms;
  }
}
