import type { CacheSpec } from '../../model/cache-spec.js';
import type { Clock } from '../../util/clock.js';

interface Entry<V> {
  readonly value: V;
  readonly written: number;
  accessed: number;
}

/**
 * A bounded key/value cache with Caffeine's expiry semantics (expireAfterWrite, expireAfterAccess),
 * checked lazily against the injected Clock. Beyond `maximumSize` the least recently used entry
 * goes (Caffeine's frequency sketch would keep popular hosts a little longer; LRU is close enough
 * for robots.txt, where every host is read many times in a row).
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, Entry<V>>();

  constructor(
    private readonly spec: CacheSpec,
    private readonly clock: Clock,
  ) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    const now = this.clock.now();
    if (this.expired(entry, now)) {
      this.entries.delete(key);
      return undefined;
    }
    entry.accessed = now;
    // Re-inserting keeps the Map in order of last use, so the first key is the eviction candidate.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: V): void {
    if (this.spec.maximumSize === 0) return;
    const now = this.clock.now();
    this.entries.delete(key);
    this.entries.set(key, { value, written: now, accessed: now });
    for (const [k, entry] of this.entries) {
      if (this.entries.size > this.spec.maximumSize || this.expired(entry, now)) this.entries.delete(k);
      else break;
    }
  }

  /** When the entry for `key` expires as things stand (ms), or undefined for none or no expiry. */
  expiresAt(key: string): number | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    const { expireAfterAccess, expireAfterWrite } = this.spec;
    const times = [
      ...(expireAfterWrite !== undefined ? [entry.written + expireAfterWrite] : []),
      ...(expireAfterAccess !== undefined ? [entry.accessed + expireAfterAccess] : []),
    ];
    return times.length > 0 ? Math.min(...times) : undefined;
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  /** Entries held, expired ones not yet dropped included. */
  get size(): number {
    return this.entries.size;
  }

  private expired(entry: Entry<V>, now: number): boolean {
    const { expireAfterAccess, expireAfterWrite } = this.spec;
    return (
      (expireAfterWrite !== undefined && now - entry.written >= expireAfterWrite) ||
      (expireAfterAccess !== undefined && now - entry.accessed >= expireAfterAccess)
    );
  }
}
