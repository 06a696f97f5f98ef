/**
 * The last `capacity` durations of a repeated operation (spout queries), for p50/p95 in progress
 * lines and benchmark reports. A ring buffer: memory stays fixed however long the crawl runs.
 */
export class LatencyWindow {
  private readonly values: Float64Array;
  private count = 0;
  private next = 0;

  constructor(readonly capacity = 1024) {
    this.values = new Float64Array(capacity);
  }

  record(ms: number): void {
    this.values[this.next] = ms;
    this.next = (this.next + 1) % this.capacity;
    this.count = Math.min(this.count + 1, this.capacity);
  }

  get size(): number {
    return this.count;
  }

  /** The nearest-rank percentile (0 < p <= 100) of the recorded values; NaN when there are none. */
  percentile(p: number): number {
    if (this.count === 0) return Number.NaN;
    const sorted = this.values.slice(0, this.count).sort();
    const rank = Math.ceil((p / 100) * this.count);
    return sorted[Math.min(this.count, Math.max(1, rank)) - 1]!;
  }
}
