import type { Clock } from '../../util/clock.js';

/**
 * URLs the spout emitted and that are not settled yet, plus a purgatory of recently settled ones.
 *
 * A query may return a settled URL in its state from before the write (OpenSearch shows a write to
 * searches only after a refresh), which would fetch it twice. So a settled URL is kept back from
 * query results for the purgatory time (spout.ttl.purgatory, as in StormCrawler) and, past it, until
 * a refresh that started after it settled has completed: never on time alone, which a loaded cluster
 * whose refreshes lag behind outruns. The spout asks for that refresh (`needsRefresh`) before a
 * query only when some URL waits for it, about once per purgatory time in a busy crawl.
 */
export class InFlight {
  private readonly active = new Set<string>();
  /** Settled URLs and when each was settled; Map order is settling order. */
  private readonly purgatory = new Map<string, number>();
  /** Writes settled before this time are visible to searches: a refresh started then has completed. */
  private visibleFrom = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly ttlMs: number,
    private readonly clock: Clock,
  ) {}

  get size(): number {
    return this.active.size;
  }

  get inPurgatory(): number {
    return this.purgatory.size;
  }

  add(url: string): void {
    this.active.add(url);
    this.purgatory.delete(url);
  }

  isActive(url: string): boolean {
    return this.active.has(url);
  }

  /** True while in flight or within the purgatory time (for a URL that no query returned). */
  holds(url: string): boolean {
    if (this.active.has(url)) return true;
    const at = this.purgatory.get(url);
    return at !== undefined && at + this.ttlMs > this.clock.now();
  }

  /**
   * True when a query's hit for `url` must not be emitted: in flight, within the purgatory time, or
   * settled after the last refresh known to have completed (the hit may show its state from before).
   */
  blocks(url: string): boolean {
    if (this.active.has(url)) return true;
    const at = this.purgatory.get(url);
    if (at === undefined) return false;
    if (at + this.ttlMs > this.clock.now() || at >= this.visibleFrom) return true;
    this.purgatory.delete(url);
    return false;
  }

  /** Settled (written, or given up): out of flight, into the purgatory. False if it was not in flight. */
  settle(url: string): boolean {
    if (!this.active.delete(url)) return false;
    this.purgatory.set(url, this.clock.now());
    return true;
  }

  /** A refresh of the index that started at `startedAt` has completed. */
  refreshed(startedAt: number): void {
    if (startedAt > this.visibleFrom) this.visibleFrom = startedAt;
  }

  /**
   * True when a URL is past its purgatory time but settled after the last completed refresh: a
   * refresh before the next query lets that query show its new state (and the URL leave).
   */
  needsRefresh(): boolean {
    this.prune();
    const first = this.purgatory.values().next();
    return !first.done && first.value + this.ttlMs <= this.clock.now();
  }

  /** Drops entries past their purgatory time whose write a completed refresh made visible. */
  prune(): void {
    const now = this.clock.now();
    for (const [url, at] of this.purgatory) {
      if (at + this.ttlMs > now || at >= this.visibleFrom) break;
      this.purgatory.delete(url);
    }
  }
}
