import type { Status } from '../model/status.js';

/** Counters of a crawl, for the progress line and `--once` summaries. */
export class CrawlMetrics {
  readonly byStatus = new Map<Status, number>();
  /** ERROR and FETCH_ERROR by error.cause or fetch.exception. */
  readonly errors = new Map<string, number>();
  /** URLs put back unfetched, by defer.cause (not counted in byStatus). */
  readonly deferred = new Map<string, number>();
  fetched = 0;
  bytes = 0;
  emitted = 0;
  discovered = 0;
  /** URLs handed straight to the fetcher after their DISCOVERED write (the loop's `offer`). */
  adopted = 0;
  /** URLs given up unchanged at the shutdown deadline: their status updates were not written. */
  abandoned = 0;
  /** DISCOVERED writes still pending at the shutdown deadline. */
  discoveredNotWritten = 0;
  private lastFetched = 0;
  private lastAt = 0;

  status(status: Status, cause?: string): void {
    this.byStatus.set(status, (this.byStatus.get(status) ?? 0) + 1);
    if (cause && (status === 'ERROR' || status === 'FETCH_ERROR')) {
      this.errors.set(cause, (this.errors.get(cause) ?? 0) + 1);
    }
  }

  defer(cause: string): void {
    this.deferred.set(cause, (this.deferred.get(cause) ?? 0) + 1);
  }

  /** Pages per second since the previous call (the first call starts the count and says 0). */
  rate(now: number): number {
    const dt = (now - this.lastAt) / 1000;
    const r = this.lastAt === 0 || dt <= 0 ? 0 : (this.fetched - this.lastFetched) / dt;
    this.lastAt = now;
    this.lastFetched = this.fetched;
    return r;
  }

  errorSummary(): string {
    return countSummary(this.errors);
  }

  deferredSummary(): string {
    return countSummary(this.deferred);
  }
}

/** Counts as one string, largest first: "timeout=3 http.404=1". */
export function countSummary(counts: Iterable<readonly [string, number]>): string {
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
}
