import type { Clock } from '../util/clock.js';
import type { Logger } from '../util/log.js';
import { type Baseline, intervalPoints } from './points.js';
import type { MetricFamily, MetricsRegistry } from './registry.js';
import type { Origin, SeriesWriter } from './series-writer.js';

/** One process's metrics as read now. */
export interface Reading {
  /** Which process (its baseline is kept under this key). */
  readonly key: string;
  readonly families: readonly MetricFamily[];
  readonly origin: Origin;
  /** When its counters started from zero (its first interval begins here). */
  readonly since: number;
  /** Its last reading (the process has ended): its baseline is dropped after it. */
  readonly last?: boolean;
}

/** The processes a series is written for: this one, or a supervisor's workers. */
export interface ReadingSource {
  readings(): Promise<readonly Reading[]>;
}

const HOUR_MS = 3_600_000;
/** What the series may take of the crawl's start-up, at most. */
const START_MS = 5000;

/**
 * The metrics series of a crawl: every `intervalMs` each process's points since its previous
 * interval go to the writer, which sends them in the background (the crawl never waits for it).
 * Retention runs at start and every hour. `stop` takes the last interval and waits (up to a
 * deadline) for it to be written, so that a crawl's counters sum up to its totals.
 */
export class MetricsSeries {
  private readonly last = new Map<string, { baseline: Baseline; at: number }>();
  private timer: NodeJS.Timeout | undefined;
  private retentionTimer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> = Promise.resolve();
  private readonly clock: Clock;
  private readonly log: Logger;

  constructor(
    private readonly writer: SeriesWriter,
    private readonly source: ReadingSource,
    private readonly intervalMs: number,
    deps: { readonly clock: Clock; readonly log: Logger },
  ) {
    this.clock = deps.clock;
    this.log = deps.log;
  }

  /** crawler_metrics_points_written_total and _dropped_total, of this writer. */
  register(registry: MetricsRegistry): void {
    registry.counterOf(
      {
        name: 'crawler_metrics_points_written_total',
        help: 'points of the metrics series OpenSearch acknowledged',
      },
      () => this.writer.written,
    );
    registry.counterOf(
      {
        name: 'crawler_metrics_points_dropped_total',
        help: 'points of the metrics series dropped (buffer full during an outage, or refused)',
      },
      () => this.writer.dropped,
    );
  }

  /** Before the crawl starts: today's index created and old ones deleted, then the timers. */
  async start(): Promise<void> {
    const daily = async () => {
      await this.writer.prepare();
      await this.writer.enforceRetention();
    };
    // At most a few seconds: a cluster slow to create an index does not hold the crawl back.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([daily(), new Promise<void>((resolve) => (timer = setTimeout(resolve, START_MS)))]);
    clearTimeout(timer);
    this.retentionTimer = setInterval(() => void daily(), HOUR_MS);
    this.retentionTimer.unref();
    this.timer = setInterval(() => void this.tick(), this.intervalMs);
    this.timer.unref();
  }

  /** Takes one interval of every process and hands its points to the writer (sent in the background). */
  tick(): Promise<void> {
    this.ticking = this.ticking.then(async () => {
      try {
        const at = this.clock.now();
        for (const r of await this.source.readings()) this.record(r, at);
      } catch (e) {
        this.log.debug({ err: String(e) }, 'metrics interval not taken');
      }
      void this.writer.flush();
    });
    return this.ticking;
  }

  private record(r: Reading, at: number): void {
    const prev = this.last.get(r.key);
    const from = prev?.at ?? r.since;
    const { points, baseline } = intervalPoints(r.families, prev?.baseline, Math.max(0, (at - from) / 1000));
    this.writer.add(points, at, r.origin);
    if (r.last) this.last.delete(r.key);
    else this.last.set(r.key, { baseline, at });
  }

  /** The last interval, written within `deadlineMs` if OpenSearch takes it. */
  async stop(deadlineMs: number): Promise<void> {
    clearInterval(this.timer);
    clearInterval(this.retentionTimer);
    await this.tick();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, deadlineMs);
      timer.unref();
    });
    await Promise.race([this.writer.flush(), late]);
    clearTimeout(timer);
  }
}
