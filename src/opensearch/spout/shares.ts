import type { Clock } from '../../util/clock.js';
import { fromStatusSource } from '../status-doc.js';
import { InFlight } from './in-flight.js';
import { KeyWork } from './key-work.js';
import type { Hit } from './query.js';
import type { FetchDemand, SpoutItem, SpoutOptions } from './types.js';
import { UrlBuffer } from './url-buffer.js';

/** Keys remembered as this spout's own (see `owns`): enough for every host a crawl has in flight. */
const OWN_KEYS_MAX = 10_000;
/** Assumed until the status index's own refresh interval is read. */
const DEFAULT_REFRESH_MS = 1000;

/**
 * What the spout holds, per key (host): the buffer it serves from, the URLs in flight and in the
 * purgatory, what it knows of each key's due work (KeyWork), and how many URLs each key is worth
 * holding. Both kinds of query put their hits here through `take`, which never buffers a URL that is
 * in flight, buffered, or settled with an update a query cannot show yet (`heldBack` counts those).
 */
export class KeyShares {
  readonly buffer = new UrlBuffer<SpoutItem>();
  readonly inFlight: InFlight;
  readonly work: KeyWork;
  /** What the fetch side can take (`Spout.serve`); none: bounded by the budget alone. */
  demand: FetchDemand | undefined;
  /** Keys the last timed query returned (the budget's share is split among them). */
  lastKeys: number;
  /** Due hits held back since the last timed query began: settled URLs whose new state is not searchable yet. */
  heldBack = 0;
  /** How long after an acknowledged write a query may see it (the status index's refresh interval). */
  refreshMs = DEFAULT_REFRESH_MS;
  /**
   * With a share of the shards: keys its queries returned, most recent last (bounded), which are
   * therefore routed to its shards. Without one every key is its own and this stays empty.
   */
  private readonly ownKeys = new Map<string, true>();

  constructor(
    private readonly options: SpoutOptions,
    private readonly clock: Clock,
  ) {
    this.inFlight = new InFlight(options.purgatoryMs, clock);
    this.work = new KeyWork(clock);
    this.lastKeys = options.maxBuckets;
  }

  /** True when the key is known to be routed to this spout's shards (always, without a share). */
  owns(key: string): boolean {
    return !this.options.shards || this.ownKeys.has(key);
  }

  /** A query of this spout's share returned the key: it is routed to its shards. */
  ownKey(key: string): void {
    if (this.ownKeys.has(key)) this.ownKeys.delete(key);
    else if (this.ownKeys.size >= OWN_KEYS_MAX) this.ownKeys.delete(this.ownKeys.keys().next().value!);
    this.ownKeys.set(key, true);
  }

  /** URLs of the key the fetch side holds and the buffer has for it. */
  have(key: string): number {
    return (this.demand?.waiting(key) ?? 0) + this.buffer.count(key);
  }

  /**
   * URLs of the key worth holding: its share of the budget among the keys of the last query, no
   * more than its host can fetch before the next query at its politeness, and at least
   * max.urls.per.bucket (what a StormCrawler query gives it).
   */
  target(key: string): number {
    const o = this.options;
    const share = Math.max(
      o.maxUrlsPerBucket,
      Math.floor((o.maxBuckets * o.maxUrlsPerBucket) / this.lastKeys),
    );
    const pace = this.demand?.pace(key, o.minDelayMs) ?? Number.POSITIVE_INFINITY;
    return Math.max(o.maxUrlsPerBucket, Math.min(share, pace));
  }

  /** URLs the fetch queues can still take beyond what is buffered; Infinity when unbounded. */
  room(): number {
    return (this.demand?.room() ?? Number.POSITIVE_INFINITY) - this.buffer.size;
  }

  /**
   * Buffers up to `max` of a key's hits that are not in flight, not settled and still invisible,
   * and not buffered already; returns how many it buffered.
   */
  take(key: string, hits: readonly Hit[], max: number): number {
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
}
