import type { Clock } from '../../util/clock.js';

interface Settled {
  /** Dropped from here on whatever a query shows (spout.ttl.purgatory after the settle). */
  readonly until: number;
  /** The document version OpenSearch acknowledged; undefined when nothing was written. */
  readonly version: number | undefined;
}

/**
 * URLs the spout emitted and that are not settled yet, plus a purgatory of recently settled ones.
 *
 * A settled URL whose update OpenSearch acknowledged is kept out only until a query shows that
 * update: a hit of an older document version is the index before its refresh (stale), a hit of the
 * acknowledged version or a later one is current, and the URL may go again at once (it is due by its
 * new state). A URL settled without a write (given up unchanged) has no version to wait for and
 * stays out for the whole time-to-live, as in StormCrawler. The time-to-live also bounds how long
 * any entry is kept, so memory follows the recent settles only.
 */
export class InFlight {
  private readonly active = new Set<string>();
  private readonly purgatory = new Map<string, Settled>();

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

  /**
   * True while in flight, or settled and not yet visible: `version` is the document version a query
   * returned (undefined when unknown, e.g. a caller that has no hit).
   */
  blocks(url: string, version?: number): boolean {
    if (this.active.has(url)) return true;
    const s = this.purgatory.get(url);
    if (s === undefined) return false;
    if (s.until <= this.clock.now()) {
      this.purgatory.delete(url);
      return false;
    }
    if (s.version !== undefined && version !== undefined && version >= s.version) {
      // The query saw the acknowledged update: the index alone decides from here.
      this.purgatory.delete(url);
      return false;
    }
    return true;
  }

  /**
   * Settled (written, or given up): out of flight, into the purgatory until a query shows `version`
   * (the acknowledged document version; undefined = nothing written) or the time-to-live ends.
   * False if it was not in flight.
   */
  settle(url: string, version?: number): boolean {
    if (!this.active.delete(url)) return false;
    if (this.ttlMs > 0) this.purgatory.set(url, { until: this.clock.now() + this.ttlMs, version });
    return true;
  }

  /** Drops expired purgatory entries; Map order is insertion order, i.e. expiry order. */
  prune(): void {
    const now = this.clock.now();
    for (const [url, s] of this.purgatory) {
      if (s.until > now) break;
      this.purgatory.delete(url);
    }
  }
}
