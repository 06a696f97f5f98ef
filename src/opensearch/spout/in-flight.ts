import type { Clock } from '../../util/clock.js';

/**
 * URLs the spout emitted and that are not settled yet, plus a purgatory of recently settled ones.
 * The purgatory covers the time OpenSearch needs to make a new nextFetchDate searchable (refresh
 * interval), so that a URL is not emitted twice by a query that still sees its old date.
 */
export class InFlight {
  private readonly active = new Set<string>();
  private readonly purgatory = new Map<string, number>();

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

  /** True while in flight or in the purgatory. */
  blocks(url: string): boolean {
    if (this.active.has(url)) return true;
    const until = this.purgatory.get(url);
    if (until === undefined) return false;
    if (until > this.clock.now()) return true;
    this.purgatory.delete(url);
    return false;
  }

  /** Settled (written, or given up): out of flight, into the purgatory. False if it was not in flight. */
  settle(url: string): boolean {
    if (!this.active.delete(url)) return false;
    if (this.ttlMs > 0) this.purgatory.set(url, this.clock.now() + this.ttlMs);
    return true;
  }

  /** Drops expired purgatory entries; Map order is insertion order, i.e. expiry order. */
  prune(): void {
    const now = this.clock.now();
    for (const [url, until] of this.purgatory) {
      if (until > now) break;
      this.purgatory.delete(url);
    }
  }
}
