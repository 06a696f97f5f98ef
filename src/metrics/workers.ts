import type { MetricFamily, MetricValue } from './registry.js';
import type { Reading } from './series.js';
import type { Origin } from './series-writer.js';

/** What a worker process reports of its metrics (`crawler run --workers`). */
export interface WorkerReport {
  /** Its crawl's registry. */
  readonly crawl: readonly MetricFamily[];
  /** Its default process metrics (prom-client), when sent (every few reports). */
  readonly process?: readonly MetricFamily[];
}

interface Proc {
  readonly worker: number;
  readonly since: number;
  crawl: readonly MetricFamily[];
  process: readonly MetricFamily[];
  live: boolean;
}

const key = (name: string, v: MetricValue) =>
  `${name}\u0000${v.metricName ?? ''}\u0000${JSON.stringify(Object.entries(v.labels).sort())}`;

/** Counters and histograms of several lists of families, equal series summed (gauges left out). */
export function sumCounters(sets: readonly (readonly MetricFamily[])[]): MetricFamily[] {
  const families = new Map<string, { f: MetricFamily; values: Map<string, MetricValue> }>();
  for (const set of sets) {
    for (const f of set) {
      if (f.type === 'gauge') continue;
      let e = families.get(f.name);
      if (!e) {
        e = { f, values: new Map() };
        families.set(f.name, e);
      }
      for (const v of f.values) {
        const k = key(f.name, v);
        const had = e.values.get(k);
        e.values.set(k, had ? { ...had, value: had.value + v.value } : v);
      }
    }
  }
  return [...families.values()].map(({ f, values }) => ({ ...f, values: [...values.values()] }));
}

/** A worker's process metrics, each value labelled with its number. */
function labelled(families: readonly MetricFamily[], worker: number): MetricFamily[] {
  return families.map((f) => ({
    ...f,
    values: f.values.map((v) => ({ ...v, labels: { ...v.labels, worker } })),
  }));
}

/**
 * The supervisor's view of its workers' metrics. Keyed by process: a worker that died and was
 * started again is two processes, and what the first one counted (up to its last report) stays
 * counted, so that every counter the supervisor serves only grows, whatever restarts. Gauges count
 * only live processes. The series is written per process (`readings`): an ended one once more with
 * its last report, then forgotten.
 */
export class WorkerMetrics {
  private readonly procs = new Map<number, Proc>();
  /** Counters of ended processes: crawl families summed, process families by worker, and per worker. */
  private retired: MetricFamily[] = [];

  constructor(
    /** Ended processes wait for one more reading (the series is written); else they are dropped at once. */
    private readonly series: boolean,
  ) {}

  started(pid: number, worker: number, at: number): void {
    this.procs.set(pid, { worker, since: at, crawl: [], process: [], live: true });
  }

  report(pid: number, r: WorkerReport): void {
    const p = this.procs.get(pid);
    if (!p) return;
    p.crawl = r.crawl;
    if (r.process) p.process = r.process;
  }

  exited(pid: number): void {
    const p = this.procs.get(pid);
    if (!p?.live) return;
    p.live = false;
    this.retired = sumCounters([this.retired, ...this.served(p)]);
    if (!this.series) this.procs.delete(pid);
  }

  /** What a process adds to the served families: its crawl's, its process's by worker, per-worker pages. */
  private served(p: Proc): MetricFamily[][] {
    const pages = p.crawl.find((f) => f.name === 'crawler_pages_fetched_total');
    const perWorker: MetricFamily = {
      name: 'crawler_worker_pages_fetched_total',
      help: 'pages fetched, by worker (every process of it since the start)',
      type: 'counter',
      aggregator: 'sum',
      values: [{ value: pages?.values[0]?.value ?? 0, labels: { worker: p.worker } }],
    };
    return [[...p.crawl], labelled(p.process, p.worker), [perWorker]];
  }

  /** Every worker's families, to be summed (prometheus.ts): live processes, and ended ones' counters. */
  families(): MetricFamily[][] {
    const live = [...this.procs.values()].filter((p) => p.live);
    return [this.retired, ...live.flatMap((p) => this.served(p))];
  }

  /** Live worker processes. */
  get running(): number {
    let n = 0;
    for (const p of this.procs.values()) if (p.live) n++;
    return n;
  }

  /** One reading per process for the metrics series; an ended process for the last time. */
  readings(origin: (worker: number, pid: number) => Origin): Reading[] {
    const out: Reading[] = [];
    for (const [pid, p] of this.procs) {
      if (p.crawl.length === 0 && p.live) continue;
      out.push({
        key: String(pid),
        families: [...p.crawl, ...p.process],
        origin: origin(p.worker, pid),
        since: p.since,
        ...(p.live ? {} : { last: true }),
      });
      if (!p.live) this.procs.delete(pid);
    }
    return out;
  }
}
