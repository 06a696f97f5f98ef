import type { Clock } from '../util/clock.js';
import type { CacheSpec } from './cache-spec.js';

interface Entry {
  written: number;
  accessed: number;
  /** The `tick` when the entry last moved to the back of the map. */
  moved: number;
}

export interface CacheStats {
  readonly hits: number;
  readonly misses: number;
  readonly size: number;
}

/**
 * The URLs this process stored recently, so that the flood of DISCOVERED updates for already known
 * pages (every page links to the home page) is dropped before it reaches OpenSearch.
 *
 * `has` is the check (counted as hit or miss, and a read for expireAfterAccess); `put` is the fill,
 * done only once OpenSearch acknowledged the write. Eviction beyond `maximumSize` drops the least
 * recently used entry (Caffeine uses a frequency sketch; for a cache of "seen recently" the effect
 * is the same). Expiry is checked lazily against the Clock.
 */
export class DiscoveredCache {
  private readonly entries = new Map<string, Entry>();
  private hits = 0;
  private misses = 0;
  private tick = 0;

  constructor(
    private readonly spec: CacheSpec,
    private readonly clock: Clock,
  ) {}

  has(url: string): boolean {
    const now = this.clock.now();
    const entry = this.entries.get(url);
    if (!entry || this.expired(entry, now)) {
      if (entry) this.entries.delete(url);
      this.misses++;
      return false;
    }
    entry.accessed = now;
    // Re-inserting keeps the map ordered by last use, which makes eviction LRU. An entry that moved
    // back recently (within the newer half of the map) stays where it is: it is far from eviction,
    // and the home-page links that make most hits would otherwise cost a delete and a set each.
    this.tick++;
    if (this.tick - entry.moved >= this.entries.size / 2) {
      entry.moved = this.tick;
      this.entries.delete(url);
      this.entries.set(url, entry);
    }
    this.hits++;
    return true;
  }

  put(url: string): void {
    if (this.spec.maximumSize === 0) return;
    const now = this.clock.now();
    this.entries.delete(url);
    this.entries.set(url, { written: now, accessed: now, moved: ++this.tick });
    this.purgeOldest(now);
  }

  get size(): number {
    const now = this.clock.now();
    for (const [url, entry] of this.entries) if (this.expired(entry, now)) this.entries.delete(url);
    return this.entries.size;
  }

  stats(): CacheStats {
    return { hits: this.hits, misses: this.misses, size: this.size };
  }

  private expired(entry: Entry, now: number): boolean {
    const { expireAfterAccess, expireAfterWrite } = this.spec;
    return (
      (expireAfterAccess !== undefined && now - entry.accessed >= expireAfterAccess) ||
      (expireAfterWrite !== undefined && now - entry.written >= expireAfterWrite)
    );
  }

  // The oldest entries sit at the front: drop the expired ones there, then whatever exceeds the size.
  private purgeOldest(now: number): void {
    for (const [url, entry] of this.entries) {
      if (this.entries.size > this.spec.maximumSize || this.expired(entry, now)) this.entries.delete(url);
      else break;
    }
  }
}
