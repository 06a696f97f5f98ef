import { hostname } from 'node:os';
import type { Client } from '@opensearch-project/opensearch';
import type { Config } from '../config/schema.js';
import { combine, prometheusText } from '../metrics/prometheus.js';
import type { MetricFamily, MetricsRegistry } from '../metrics/registry.js';
import { MetricsSeries, type ReadingSource } from '../metrics/series.js';
import { type Origin, SeriesWriter } from '../metrics/series-writer.js';
import { StatusCounts } from '../metrics/status-counts.js';
import { type UrlReportConfig, urlReport } from '../opensearch/url-report.js';
import type { Clock } from '../util/clock.js';
import { errorMessage } from '../util/errors.js';
import { type LiveStatus, type Logger, tapWarnings } from '../util/log.js';
import {
  type Chart,
  type ConsoleConfig,
  type ConsoleView,
  consoleSettings,
  type RunningConsole,
  startConsole,
} from './server.js';
import {
  type ConsoleState,
  consoleState,
  type LogEntry,
  Samples,
  sampleOf,
  Tail,
  type TransitionEntry,
} from './state.js';
import { statusLine } from './status-line.js';
import { urlReportLines } from './url-text.js';

/** What a monitor watches: one crawl process, or a supervisor's workers. */
export interface MonitorSource {
  /** The crawl's metrics now (summed over workers), without process metrics: cheap, read every second. */
  crawl(): Promise<readonly MetricFamily[]>;
  /** Everything /metrics serves, as lists that are summed: the crawl's, the processes'. */
  all(): Promise<readonly (readonly MetricFamily[])[]>;
  /** The processes whose series this monitor writes. */
  readonly readings: ReadingSource;
  transitions(): readonly TransitionEntry[];
  workers?(): ConsoleState['workers'];
  /** The members of the elastic crawl, read from the lease index when the console asks. */
  members?(): Promise<NonNullable<ConsoleState['members']>>;
}

/** The keys a monitor reads: its listener, the metrics series, the indices it counts and explains. */
export type MonitorConfig = ConsoleConfig &
  UrlReportConfig &
  Pick<Config, 'metrics.interval' | 'metrics.retention.days' | 'opensearch.metrics.index.name'>;

export interface MonitorParts {
  readonly config: MonitorConfig;
  readonly log: Logger;
  readonly clock: Clock;
  readonly client: Client;
  readonly source: MonitorSource;
  /** Where the monitor's own metrics go (status counts, the series writer's counts). */
  readonly registry: MetricsRegistry;
  /**
   * This process is instance `instance`: instance 0 counts the status index every minute (the
   * crawler_status_count gauges); any console counts it while watched.
   */
  readonly instance: number;
  /**
   * The terminal's live status line (`liveStatus`), taken before the crawl is built so that its
   * first transitions (the seeds') are not shown either; none off a terminal.
   */
  readonly live: LiveStatus | undefined;
}

/** Samples kept for "now" rates and the chart without a metrics series: 6 h at one per 5 s. */
const SAMPLES = 4320;
const SAMPLE_MS = 5000;
/**
 * While the console is watched, its status index counts are taken again when older than this (the
 * status index refreshes every second): they follow the run, not StormCrawler's minute.
 */
const CONSOLE_COUNT_MS = 5000;
/** How long the console's answer waits for such a count (else it shows the last, with its age). */
const CONSOLE_COUNT_WAIT_MS = 1000;
/** The last interval of the series gets this long at stop to be written. */
const LAST_WRITE_MS = 5000;

/** This process's origin in the metrics series (`member`: a member of an elastic crawl). */
export function originOf(
  instance: number,
  instances: number,
  worker: number | undefined,
  member?: string,
): Origin {
  return {
    instance,
    ...(worker === undefined ? {} : { worker }),
    task: instance + instances * (worker ?? 0),
    host: hostname(),
    ...(member === undefined ? {} : { member }),
  };
}

/**
 * The operator's views of a running crawl: the metrics series (every metrics.interval), the status
 * index counted every minute (instance 0 only; every 5 s while the console is watched), the console with /metrics (console.port), and on a
 * terminal the live status line. Nothing here slows the crawl: it reads counters, and writes in the
 * background.
 */
export class Monitor {
  private readonly warnings = new Tail<LogEntry>(20);
  private readonly samples = new Samples(SAMPLES);
  private readonly startedAt: number;
  private counts: StatusCounts | undefined;
  private series: MetricsSeries | undefined;
  private console: RunningConsole | undefined;
  private live: LiveStatus | undefined;
  private timer: NodeJS.Timeout | undefined;
  private sampling = false;

  constructor(private readonly p: MonitorParts) {
    this.startedAt = p.clock.now();
  }

  async start(): Promise<void> {
    const { config, log, clock, client, registry } = this.p;
    tapWarnings(log, (line) => this.warn(line));
    this.counts = new StatusCounts(client, config['opensearch.status.index.name'], clock, log);
    if (this.p.instance === 0) {
      this.counts.register(registry);
      this.counts.start();
    }
    const settings = consoleSettings(config);
    if (settings) {
      this.console = await startConsole(this.view(), settings, log);
      if (this.console) {
        log.info(
          { console: settings.explicit ? this.console.url : undefined },
          `console: ${this.console.url}${settings.explicit ? ' (token: console.token)' : ''}; /metrics serves Prometheus (Authorization: Bearer <token>)`,
        );
      }
    }
    const interval = config['metrics.interval'];
    if (interval > 0) {
      const writer = new SeriesWriter(
        client,
        {
          base: config['opensearch.metrics.index.name'],
          crawl: config['opensearch.status.index.name'],
          retentionDays: config['metrics.retention.days'],
          maxBuffered: 20_000,
        },
        clock,
        log,
      );
      this.series = new MetricsSeries(writer, this.p.source.readings, interval, { clock, log });
      this.series.register(registry);
      await this.series.start();
    }
    this.live = this.p.live;
    this.timer = setInterval(() => void this.sample(), this.live ? 1000 : SAMPLE_MS);
    this.timer.unref();
  }

  /** After the crawl: the last interval of the series written (within a deadline), everything closed. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    const live = this.live;
    // A sample still running must not draw the line again.
    this.live = undefined;
    await live?.end();
    this.counts?.stop();
    await this.series?.stop(LAST_WRITE_MS);
    await this.console?.close();
  }

  private warn(line: string): void {
    try {
      const o = JSON.parse(line) as { time?: number; level?: number; msg?: string; worker?: number };
      this.warnings.push({
        time: new Date(o.time ?? this.p.clock.now()).toISOString(),
        level: o.level === 40 ? 'warn' : o.level === 50 ? 'error' : o.level === 60 ? 'fatal' : 'notice',
        msg: String(o.msg ?? ''),
        ...(typeof o.worker === 'number' ? { worker: o.worker } : {}),
      });
    } catch {
      // Not JSON: nothing to show.
    }
  }

  private async sample(): Promise<void> {
    if (this.sampling) return;
    this.sampling = true;
    try {
      const now = this.p.clock.now();
      const families = await this.p.source.crawl();
      const s = sampleOf(families, now);
      const last = this.samples.all.at(-1);
      if (!last || now - last.t >= SAMPLE_MS - 100) this.samples.push(s);
      if (this.live) this.live.set(statusLine(this.state(families, now), this.live.columns));
    } catch (e) {
      this.p.log.debug({ err: errorMessage(e) }, 'monitor sample failed');
    } finally {
      this.sampling = false;
    }
  }

  private state(
    families: readonly MetricFamily[],
    now: number,
    members?: NonNullable<ConsoleState['members']>,
  ): ConsoleState {
    const workers = this.p.source.workers?.();
    return consoleState({
      ...(members ? { members } : {}),
      families,
      now,
      startedAt: this.startedAt,
      samples: this.samples,
      index: this.counts?.last,
      ...(workers ? { workers } : {}),
      warnings: this.warnings.all,
      transitions: this.p.source.transitions(),
    });
  }

  private view(): ConsoleView {
    const { client, config, clock, source } = this.p;
    return {
      state: async () => {
        await this.freshCounts();
        const members = await source.members?.().catch((e) => {
          this.p.log.debug({ err: errorMessage(e) }, 'console: the members were not read');
          return undefined;
        });
        const now = clock.now();
        return this.state(await combine(...(await source.all())), now, members);
      },
      prometheus: async () => prometheusText(...(await source.all())),
      explain: async (url) => {
        const found = await urlReport(client, config, url, clock.now());
        return {
          known: found.doc !== undefined,
          lines: urlReportLines(url, found, config['opensearch.indexer.index.name']),
        };
      },
      chart: (hours) => this.chart(hours),
    };
  }

  /** The status index counted again if its counts are old, waiting a little for it. */
  private async freshCounts(): Promise<void> {
    const counts = this.counts;
    if (!counts) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      counts.fresh(CONSOLE_COUNT_MS),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, CONSOLE_COUNT_WAIT_MS);
      }),
    ]);
    clearTimeout(timer);
  }

  /** Pages/s and errors/s from the metrics series, or from this process's samples without one. */
  private async chart(hours: number): Promise<Chart> {
    const now = this.p.clock.now();
    const from = now - hours * 3_600_000;
    if (this.series) {
      const interval = this.p.config['metrics.interval'] / 1000;
      const bucketSec = Math.max(interval, Math.ceil((hours * 3600) / 180 / interval) * interval);
      try {
        const points = await seriesChart(
          this.p.client,
          this.p.config['opensearch.metrics.index.name'],
          from,
          bucketSec,
        );
        if (points.length > 0) return { source: 'metrics index', bucketSec, points };
      } catch (e) {
        this.p.log.debug({ err: errorMessage(e) }, 'chart: metrics index not read; showing this run');
      }
    }
    const kept = this.samples.all.filter((s) => s.t >= from);
    const points = kept.slice(1).map((s, i) => {
      const a = kept[i]!;
      const dt = (s.t - a.t) / 1000 || 1;
      return { t: s.t, pagesPerSec: (s.fetched - a.fetched) / dt, errorsPerSec: (s.errors - a.errors) / dt };
    });
    return { source: 'since start', bucketSec: SAMPLE_MS / 1000, points };
  }
}

async function seriesChart(
  client: Client,
  base: string,
  from: number,
  bucketSec: number,
): Promise<Chart['points']> {
  const fetched = { term: { name: 'fetcher_counter.fetched' } };
  const errors = { prefix: { name: 'errors.' } };
  const res = await client.search({
    index: `${base}-*`,
    ignore_unavailable: true,
    allow_no_indices: true,
    body: {
      size: 0,
      query: {
        bool: {
          filter: [
            { range: { timestamp: { gte: new Date(from).toISOString() } } },
            { bool: { should: [fetched, errors], minimum_should_match: 1 } },
          ],
        },
      },
      aggs: {
        t: {
          date_histogram: { field: 'timestamp', fixed_interval: `${bucketSec}s` },
          aggs: {
            pages: { filter: fetched, aggs: { v: { sum: { field: 'value' } } } },
            errors: { filter: errors, aggs: { v: { sum: { field: 'value' } } } },
          },
        },
      },
    } as never,
  });
  const buckets =
    (
      res.body as unknown as {
        aggregations?: {
          t: {
            buckets: { key: number; pages: { v: { value: number } }; errors: { v: { value: number } } }[];
          };
        };
      }
    ).aggregations?.t.buckets ?? [];
  return buckets.map((b) => ({
    t: b.key,
    pagesPerSec: b.pages.v.value / bucketSec,
    errorsPerSec: b.errors.v.value / bucketSec,
  }));
}
