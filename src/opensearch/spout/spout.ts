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
import { InFlight } from './in-flight.js';
import { aggregationQuery, collapseQuery, hitsOf, type QueryForm } from './query.js';
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
}

export type PollResult = SpoutItem | 'empty' | 'wait';

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
}

/** Keys remembered as this spout's own (see `adopt`): enough for every host a crawl has in flight. */
const OWN_KEYS_MAX = 10_000;

/**
 * Reads due URLs from the status index (the only reader of it). Keeps a query date until
 * spout.reset.fetchdate.after or an empty result, paces queries between the min and max delays,
 * serves a buffer round-robin by key, and never emits a URL that is in flight or in the purgatory.
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

  constructor(
    private readonly client: Client,
    private readonly options: SpoutOptions,
    private readonly clock: Clock,
    private readonly log: Logger,
    /** Shared with the bulk writers, so an outage is logged once when it starts and once when it ends. */
    outage?: ClusterOutage,
  ) {
    this.inFlight = new InFlight(options.purgatoryMs, clock);
    this.outage = outage ?? new ClusterOutage(clock, log);
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
    };
  }

  /**
   * The next URL to fetch; 'wait' when a query may not be sent yet; 'empty' when a query just found
   * nothing new to emit. The URL is in flight until `settle(url)`.
   */
  async poll(): Promise<PollResult> {
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
    return item;
  }

  /**
   * A URL the crawl just created in the status index, offered straight to the fetcher (the
   * UrlSource contract): taken in flight, as if a query had returned it, when it is this spout's to
   * emit. That is when its key is known to be routed to this spout's shards (a query of its share
   * returned the key; any key without a share), no filter query could exclude it, and it is not in
   * flight, in the purgatory or buffered. So it is never emitted twice, nor by two instances.
   */
  adopt(item: SpoutItem): boolean {
    if (this.options.filterQueries.length > 0) return false;
    if (this.options.shards && !this.ownKeys.has(item.key)) return false;
    if (this.inFlight.blocks(item.url) || this.buffer.has(item.url)) return false;
    this.inFlight.add(item.url);
    this.adoptedCount++;
    return true;
  }

  /** The URL's fate is written (or given up on): it may come back after the purgatory. */
  settle(url: string): boolean {
    return this.inFlight.settle(url);
  }

  /**
   * `--once`: refreshes the status index so that every acknowledged write is visible, then queries
   * for URLs due within `lookAheadMs` (URLs discovered during the run are due at their discovery
   * time, after the kept query date, and rounding may have put them a little past now). True when
   * none were found by a query that worked and nothing is in flight.
   */
  async isExhausted(lookAheadMs: number): Promise<boolean> {
    try {
      // A refresh waits for shards without an active copy until it times out: ask first.
      const health = await this.client.cluster.health({ index: this.options.index, timeout: '0s' });
      if (health.body.status === 'red') {
        this.outage.shardsUnavailable(this, 'index refresh', `index ${this.options.index} is red`);
        return false;
      }
      await this.client.indices.refresh({ index: this.options.index });
    } catch (e) {
      // Not visible yet is not exhausted: the crawl asks again once the cluster answers.
      this.failure('index refresh', e);
      return false;
    }
    this.resetQueryDate(lookAheadMs);
    return (await this.query()) === 0 && !this.failed && this.inFlight.size === 0;
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
    if (
      this.queryDate === undefined ||
      (o.resetFetchDateAfterMs >= 0 && started - this.queryDateSetAt > o.resetFetchDateAfterMs)
    ) {
      this.queryDate = started;
      this.queryDateSetAt = started;
    }
    const params = {
      queryDate: isoDate(this.queryDate),
      maxBuckets: o.maxBuckets,
      maxUrlsPerBucket: o.maxUrlsPerBucket,
      filterQueries: o.filterQueries,
      timeoutSecs: o.queryTimeoutSecs,
    };
    const body = o.form === 'collapse' ? collapseQuery(params) : aggregationQuery(params);
    let added = 0;
    let hits = 0;
    this.failed = false;
    try {
      const res = await this.client.search({
        index: o.index,
        body: body as never,
        ...(o.shards ? { preference: `_shards:${o.shards.join(',')}` } : {}),
      });
      this.outage.up();
      this.lastRefusal = undefined;
      // A shard that could not be searched (its node left, a primary is failing over) hides its due
      // URLs: what the others returned is used, but the query counts as failed, so that --once does
      // not take the missing shard for an exhausted crawl.
      const missing = missingShards(res.body);
      if (missing) {
        this.failed = true;
        this.outage.shardsUnavailable(this, 'spout query', missing);
      } else {
        this.outage.shardsAvailable(this);
      }
      this.inFlight.prune();
      for (const bucket of hitsOf(o.form, res.body)) {
        // A bucket is one key's hits.
        const bucketKey = (bucket[0]?._source as { key?: unknown } | undefined)?.key;
        if (o.shards && typeof bucketKey === 'string') this.ownKey(bucketKey);
        for (const hit of bucket) {
          hits++;
          // Most hits of a busy crawl are URLs still in flight: skip them before decoding metadata.
          const url = (hit._source as { url?: unknown } | undefined)?.url;
          if (typeof url === 'string' && (this.inFlight.blocks(url) || this.buffer.has(url))) continue;
          const doc = fromStatusSource(hit._source);
          if (!doc) continue;
          const key = doc.key ?? '_DEFAULT_';
          if (this.buffer.add(key, { url: doc.url, metadata: doc.metadata, status: doc.status, key }))
            added++;
        }
      }
    } catch (e) {
      this.failed = true;
      this.failure('spout query', e);
    } finally {
      this.queries++;
      this.lastQueryDone = this.clock.now();
      this.lastQueryMs = this.lastQueryDone - started;
      this.queryMs.record(this.lastQueryMs);
    }
    // Nothing due at this date: the next query looks at "now" again (new URLs may have become due).
    if (hits === 0 && !this.failed) this.queryDate = undefined;
    return added;
  }

  private ownKey(key: string): void {
    if (this.ownKeys.has(key)) this.ownKeys.delete(key);
    else if (this.ownKeys.size >= OWN_KEYS_MAX) this.ownKeys.delete(this.ownKeys.keys().next().value!);
    this.ownKeys.set(key, true);
  }

  /** A request failed: no answer, shards unavailable, or refused (bad settings). */
  private failure(what: string, e: unknown): void {
    if (noAnswer(e)) {
      this.outage.down(what, e);
    } else if (shardUnavailable(statusOf(e), errorType(e))) {
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

interface ShardCounts {
  total?: number;
  successful?: number;
  skipped?: number;
  failures?: { reason?: { type?: string; reason?: string } }[];
}

/**
 * Why shards of a search answer are missing ("1 of 4 shards not searched: <reason>"), or undefined.
 * A shard with no active copy (red) is neither successful nor counted in `failed`: it is found by
 * what is missing from `total`.
 */
export function missingShards(body: unknown): string | undefined {
  const s = (body as { _shards?: ShardCounts })._shards;
  if (!s || s.total === undefined) return undefined;
  const missing = s.total - (s.successful ?? 0) - (s.skipped ?? 0);
  if (missing <= 0) return undefined;
  const r = s.failures?.[0]?.reason;
  return `${missing} of ${s.total} shards not searched${r ? `: ${r.type}: ${r.reason}` : ' (no active copy)'}`;
}
