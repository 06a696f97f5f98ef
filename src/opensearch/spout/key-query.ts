import type { Client } from '@opensearch-project/opensearch';
import { isoDate } from '../../model/values.js';
import type { Clock } from '../../util/clock.js';
import type { SpoutFailures } from './answers.js';
import { keyHitsOf, keyQuery } from './query.js';
import type { KeyShares } from './shares.js';
import type { SpoutOptions } from './types.js';

/** What the spout's timed and per-key queries share: the cluster, the settings, the keys' state. */
export interface SpoutParts {
  readonly client: Client;
  readonly options: SpoutOptions;
  readonly clock: Clock;
  readonly shares: KeyShares;
  readonly failures: SpoutFailures;
}

/** Per-key queries in flight at once. */
const KEY_QUERIES_MAX = 4;
/** Pages of a per-key query at most, when its hits are URLs in flight already. */
const KEY_QUERY_PAGES = 4;

/**
 * The per-key top-up (HybridSpout's per-key query): a key whose fetch queue runs short while the
 * index holds more due URLs of it is asked for them from where its last hit ended (its cursor in
 * KeyWork), without waiting for the next timed query. A few at once at most; a failure leaves the
 * key to the timed query. `buffered` is called when one of them added URLs to the buffer.
 */
export class KeyRefill {
  /** Per-key queries answered so far. */
  count = 0;
  private running = 0;

  private readonly client: Client;
  private readonly options: SpoutOptions;
  private readonly clock: Clock;
  private readonly shares: KeyShares;
  private readonly failures: SpoutFailures;

  constructor(
    parts: SpoutParts,
    private readonly buffered: () => void,
  ) {
    this.client = parts.client;
    this.options = parts.options;
    this.clock = parts.clock;
    this.shares = parts.shares;
    this.failures = parts.failures;
  }

  /** True while a per-key query is in flight (it may still buffer URLs). */
  get busy(): boolean {
    return this.running > 0;
  }

  /**
   * A per-key query when the index holds due URLs of the key and its fetch queue runs short: when it
   * is empty, or half its target is missing and the key takes more than max.urls.per.bucket. Only
   * while the last query returned fewer keys than max.buckets (with more keys due, the timed query's
   * order by oldest due URL decides), or for a URL settled back that came due (a deferral).
   */
  topUp(key: string): void {
    const o = this.options;
    const s = this.shares;
    const w = s.work;
    if (!s.demand || this.running >= KEY_QUERIES_MAX || w.isRefilling(key) || !w.hasDue(key)) return;
    if (s.lastKeys >= o.maxBuckets && !w.isUrgent(key)) return;
    if (!s.owns(key)) return;
    const target = s.target(key);
    const have = s.have(key);
    const want = Math.min(target - have, s.room());
    if (want <= 0) return;
    if (have > 0 && (target <= o.maxUrlsPerBucket || want < target / 2)) return;
    void this.query(key, want);
  }

  /**
   * Asks for up to `want` due URLs of the key after its cursor. Hits of URLs in flight (adopted since
   * the cursor was set) take room in a page: a full page that added less than wanted is followed by
   * the next, a few pages at most.
   */
  private async query(key: string, want: number): Promise<void> {
    const o = this.options;
    const work = this.shares.work;
    const started = this.clock.now();
    work.refilling(key, true);
    this.running++;
    let added = 0;
    try {
      for (let page = 0; page < KEY_QUERY_PAGES && added < want; page++) {
        const body = keyQuery(
          { filterQueries: o.filterQueries, timeoutSecs: o.queryTimeoutSecs },
          key,
          want,
          work.cursorOf(key),
        );
        const res = await this.client.search({ index: o.index, routing: key, body: body as never });
        this.failures.up();
        this.count++;
        const hits = keyHitsOf(res.body, isoDate(started));
        added += this.shares.take(key, hits, want - added);
        const last = hits[hits.length - 1]?.sort;
        if (last) work.setCursor(key, last);
        if (hits.length < want) {
          work.exhausted(key, started);
          break;
        }
        work.due(key);
      }
    } catch (e) {
      // The timed query covers the key as before; an outage is logged once by whoever sees it.
      this.failures.failure('spout query', e);
    } finally {
      this.running--;
      work.refilling(key, false);
    }
    if (added > 0) this.buffered();
  }
}
