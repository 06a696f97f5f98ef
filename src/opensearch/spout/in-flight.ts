import type { Clock } from '../../util/clock.js';

interface Settled {
  readonly settledAt: number;
  /** The document version OpenSearch acknowledged; undefined when nothing was written. */
  readonly version: number | undefined;
}

/**
 * URLs the spout emitted and that are not settled yet, plus a purgatory of recently settled ones.
 *
 * A query may return a settled URL in its state from before the write (OpenSearch shows a write to
 * searches only after a refresh), which would fetch it twice. A settled URL whose update OpenSearch
 * acknowledged with a document version is kept back only until that update is searchable, and no
 * longer: a hit of an older version is the index before its refresh (skipped), a hit of the
 * acknowledged version or a later one is current, and the URL may go again at once (it is due by
 * its new state). Without a version to compare (a URL given up unchanged, or a caller without a
 * hit), the purgatory time holds it (spout.ttl.purgatory, as in StormCrawler). Either way an entry
 * leaves once a refresh that started after the settle has completed, never on time alone, which a
 * loaded cluster whose refreshes lag behind outruns: the spout asks for that refresh
 * (`needsRefresh`) before a query when an entry waited the purgatory time, about once per purgatory
 * time in a busy crawl. So memory follows the recent settles only.
 */
export class InFlight {
  private readonly active = new Set<string>();
  /** Settled URLs; Map order is settling order. */
  private readonly purgatory = new Map<string, Settled>();
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
    const s = this.purgatory.get(url);
    return s !== undefined && s.settledAt + this.ttlMs > this.clock.now();
  }

  /**
   * True when a query's hit for `url` (with the document `version` the query returned, when it
   * asked for versions) must not be emitted: in flight, or settled and its update not known to be
   * searchable.
   */
  blocks(url: string, version?: number): boolean {
    if (this.active.has(url)) return true;
    const s = this.purgatory.get(url);
    if (s === undefined) return false;
    if (s.version !== undefined && version !== undefined) {
      // The hit shows the acknowledged update (or a later one): the index alone decides from here.
      if (version < s.version) return true;
    } else if (s.settledAt + this.ttlMs > this.clock.now() || s.settledAt >= this.visibleFrom) {
      return true;
    }
    this.purgatory.delete(url);
    return false;
  }

  /**
   * Settled (written, or given up): out of flight, into the purgatory (see the class). `version`: the
   * acknowledged document version; undefined when nothing was written. False if it was not in flight.
   */
  settle(url: string, version?: number): boolean {
    if (!this.active.delete(url)) return false;
    this.purgatory.set(url, { settledAt: this.clock.now(), version });
    return true;
  }

  /** A refresh of the index that started at `startedAt` has completed. */
  refreshed(startedAt: number): void {
    if (startedAt > this.visibleFrom) this.visibleFrom = startedAt;
  }

  /**
   * True when a URL waited its purgatory time and no refresh since it settled is known: a refresh
   * before the next query lets that query show its new state (and the URL leave).
   */
  needsRefresh(): boolean {
    this.prune();
    const first = this.purgatory.values().next();
    return !first.done && first.value.settledAt + this.ttlMs <= this.clock.now();
  }

  /**
   * Drops the entries that protect nothing any more: acknowledged updates a completed refresh made
   * searchable, and URLs given up unchanged past their purgatory time once a refresh followed.
   */
  prune(): void {
    const now = this.clock.now();
    for (const [url, s] of this.purgatory) {
      if (s.settledAt >= this.visibleFrom) break;
      if (s.version === undefined && s.settledAt + this.ttlMs > now) break;
      this.purgatory.delete(url);
    }
  }
}
