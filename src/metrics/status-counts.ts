import type { Client } from '@opensearch-project/opensearch';
import { STATUSES } from '../model/status.js';
import type { Clock } from '../util/clock.js';
import { errorMessage } from '../util/errors.js';
import type { Logger } from '../util/log.js';
import type { MetricsRegistry } from './registry.js';

/** What the status index holds, as of `at`. */
export interface IndexCounts {
  readonly at: number;
  /** Documents by status, and TOTAL. */
  readonly byStatus: Readonly<Record<string, number>>;
  /** URLs due now, and within the hour. */
  readonly dueNow: number;
  readonly dueHour: number;
}

/** How often the counts are taken (StormCrawler's StatusMetricsBolt: every 60 s). */
export const STATUS_COUNT_MS = 60_000;

/**
 * StormCrawler's StatusMetricsBolt: the status index's documents by status (and TOTAL), plus the
 * URLs due now and within the hour, taken every minute by one process of the crawl with one
 * aggregation request. A failed request keeps the last counts (logged at debug). The console asks
 * for fresher ones while it is watched (`fresh`).
 */
export class StatusCounts {
  last: IndexCounts | undefined;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  /** When the last count was asked for, and how long the last one took. */
  private triedAt = Number.NEGATIVE_INFINITY;
  private tookMs = 0;

  constructor(
    private readonly client: Client,
    private readonly index: string,
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {}

  /** crawler_status_count{status} and crawler_urls_due{within}. */
  register(registry: MetricsRegistry): void {
    registry.gauge(
      {
        name: 'crawler_status_count',
        help: 'documents of the status index by status, and TOTAL (every minute)',
        label: { name: 'status', values: [...STATUSES, 'TOTAL'] },
        aggregator: 'max',
      },
      () => Object.entries(this.last?.byStatus ?? {}),
    );
    registry.gauge(
      {
        name: 'crawler_urls_due',
        help: 'URLs of the status index due now, and within the hour (every minute)',
        label: { name: 'within', values: ['now', '1h'] },
        aggregator: 'max',
      },
      () =>
        this.last
          ? [
              ['now', this.last.dueNow],
              ['1h', this.last.dueHour],
            ]
          : [],
    );
  }

  start(): void {
    void this.refresh();
    this.timer = setInterval(() => void this.refresh(), STATUS_COUNT_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /**
   * A count taken now if the last was asked for more than `maxAgeMs` ago, or 20 times as long as
   * it took (a big index is not counted more than 5% of the time, nor a down cluster asked at
   * every call); resolves when it is taken, or at once when none is needed.
   */
  fresh(maxAgeMs: number): Promise<void> {
    if (this.clock.now() - this.triedAt < Math.max(maxAgeMs, 20 * this.tookMs)) return Promise.resolve();
    return this.refresh();
  }

  /** One count (skipped while the previous one is still running). */
  refresh(): Promise<void> {
    this.running ??= this.count().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async count(): Promise<void> {
    const now = this.clock.now();
    this.triedAt = now;
    const iso = (t: number) => new Date(t).toISOString();
    try {
      const res = await this.client.search({
        index: this.index,
        body: {
          size: 0,
          track_total_hits: true,
          aggs: {
            status: { terms: { field: 'status', size: 10 } },
            dueNow: { filter: { range: { nextFetchDate: { lte: iso(now) } } } },
            dueHour: { filter: { range: { nextFetchDate: { lte: iso(now + 3_600_000) } } } },
          },
        } as never,
      });
      const body = res.body as unknown as {
        hits: { total: { value: number } };
        aggregations: {
          status: { buckets: { key: string; doc_count: number }[] };
          dueNow: { doc_count: number };
          dueHour: { doc_count: number };
        };
      };
      const byStatus: Record<string, number> = Object.fromEntries(STATUSES.map((s) => [s, 0]));
      for (const b of body.aggregations.status.buckets) byStatus[b.key] = b.doc_count;
      byStatus.TOTAL = body.hits.total.value;
      this.last = {
        at: now,
        byStatus,
        dueNow: body.aggregations.dueNow.doc_count,
        dueHour: body.aggregations.dueHour.doc_count,
      };
      this.tookMs = this.clock.now() - now;
    } catch (e) {
      this.log.debug({ err: errorMessage(e) }, 'status counts not taken this minute');
    }
  }
}
