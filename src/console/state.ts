import type { MetricFamily } from '../metrics/registry.js';
import type { IndexCounts } from '../metrics/status-counts.js';
import type { TransitionRecord } from '../model/transition.js';
import type { MemberRow } from '../opensearch/member-rows.js';

/*
 * What the live console shows, computed from the crawl's metric families (one process's, or a
 * supervisor's workers' summed), so that one page serves both. Pure: the server passes the inputs.
 */

/** Sum of every value of a family (histograms: of NAME_sum, or NAME_count with `count`). */
export function total(families: readonly MetricFamily[], name: string, part?: 'sum' | 'count'): number {
  const f = families.find((x) => x.name === name);
  if (!f) return 0;
  let n = 0;
  for (const v of f.values) {
    if (part ? v.metricName === `${name}_${part}` : v.metricName === undefined) n += v.value;
  }
  return n;
}

/** A family's values summed by one label's value. */
export function byLabel(
  families: readonly MetricFamily[],
  name: string,
  label: string,
): Record<string, number> {
  const out: Record<string, number> = {};
  const f = families.find((x) => x.name === name);
  for (const v of f?.values ?? []) {
    const k = v.labels[label];
    if (k === undefined || v.metricName !== undefined) continue;
    out[String(k)] = (out[String(k)] ?? 0) + v.value;
  }
  return out;
}

/** The crawl's totals at one moment. */
export interface Sample {
  readonly t: number;
  readonly fetched: number;
  readonly bytes: number;
  readonly errors: number;
  readonly spoutMs: number;
  readonly spoutQueries: number;
}

export function sampleOf(families: readonly MetricFamily[], t: number): Sample {
  return {
    t,
    fetched: total(families, 'crawler_pages_fetched_total'),
    bytes: total(families, 'crawler_fetched_bytes_total'),
    errors: total(families, 'crawler_errors_total'),
    spoutMs: total(families, 'crawler_spout_query_duration_seconds', 'sum') * 1000,
    spoutQueries: total(families, 'crawler_spout_query_duration_seconds', 'count'),
  };
}

/** A bounded list of the latest items, oldest first. */
export class Tail<T> {
  private readonly items: T[] = [];
  constructor(private readonly max: number) {}
  push(item: T): void {
    this.items.push(item);
    if (this.items.length > this.max) this.items.shift();
  }
  get all(): readonly T[] {
    return this.items;
  }
}

/** Samples of the last hours, oldest first; bounded. */
export class Samples extends Tail<Sample> {
  /** The latest sample at least `ms` older than `s`, or the oldest. */
  before(s: Sample, ms: number): Sample | undefined {
    const ring = this.all;
    for (let i = ring.length - 1; i >= 0; i--) if (ring[i]!.t <= s.t - ms) return ring[i];
    return ring[0];
  }
}

export interface Rates {
  readonly pagesPerSec: number;
  readonly bytesPerSec: number;
  readonly errorsPerSec: number;
  /** Mean spout query time over the window, ms (null: no query). */
  readonly spoutMs: number | null;
}

export function ratesBetween(a: Sample | undefined, b: Sample): Rates {
  const dt = a ? (b.t - a.t) / 1000 : 0;
  const per = (x: number) => (dt > 0 ? Math.max(0, x) / dt : 0);
  const queries = a ? b.spoutQueries - a.spoutQueries : 0;
  return {
    pagesPerSec: per(b.fetched - (a?.fetched ?? 0)),
    bytesPerSec: per(b.bytes - (a?.bytes ?? 0)),
    errorsPerSec: per(b.errors - (a?.errors ?? 0)),
    spoutMs: a && queries > 0 ? (b.spoutMs - a.spoutMs) / queries : null,
  };
}

export interface LogEntry {
  readonly time: string;
  readonly level: string;
  readonly msg: string;
  readonly worker?: number;
}

export interface TransitionEntry {
  readonly time: string;
  readonly url: string;
  readonly from: string;
  readonly to: string;
  readonly reason: string;
}

/** A transition as the console's tail shows it. */
export function transitionEntry(r: TransitionRecord): TransitionEntry {
  return { time: r.appliedAt, url: r.url, from: r.previousStatus ?? '-', to: r.status, reason: r.reason };
}

/** The console's JSON (`/api/state`). */
export interface ConsoleState {
  readonly now: string;
  readonly startedAt: string;
  readonly workers: { readonly running: number; readonly of: number; readonly restarts: number } | null;
  /** The members of the elastic crawl (`crawler run --join`), oldest first; null for other crawls. */
  readonly members: readonly MemberRow[] | null;
  readonly rates: { readonly now: Rates; readonly average: Rates };
  readonly totals: {
    readonly fetched: number;
    readonly bytes: number;
    readonly discovered: number;
    readonly byStatus: Record<string, number>;
    readonly errors: Record<string, number>;
    readonly deferred: Record<string, number>;
  };
  readonly load: {
    readonly fetching: number;
    readonly queued: number;
    readonly hosts: number;
    readonly hostsBackingOff: number;
    readonly hostsDown: number;
    readonly inFlight: number;
    readonly parsing: number;
  };
  readonly index: IndexCounts | null;
  readonly opensearch: {
    readonly reachable: boolean;
    readonly unreachableSec: number;
    readonly writesPending: number;
    readonly spoutMs: number | null;
  };
  readonly memory: { readonly rssMb: number; readonly heapUsedMb: number };
  readonly metricsPointsDropped: number;
  readonly warnings: readonly LogEntry[];
  readonly transitions: readonly TransitionEntry[];
}

export interface StateInput {
  readonly families: readonly MetricFamily[];
  readonly now: number;
  readonly startedAt: number;
  /** The sample of `families` now, and the ones before. */
  readonly samples: Samples;
  readonly index: IndexCounts | undefined;
  readonly workers?: ConsoleState['workers'];
  readonly members?: readonly MemberRow[];
  readonly warnings: readonly LogEntry[];
  readonly transitions: readonly TransitionEntry[];
}

/** Pages and errors are counted "now" over this window. */
export const NOW_WINDOW_MS = 10_000;

/**
 * Where the "now" rates count from: the latest sample a window old, or the crawl's start while no
 * sample reaches that far back (the first seconds of a run, or a run that stopped moving before its
 * first sample): the oldest sample there would hide the pages fetched before it.
 */
function nowBaseline(samples: Samples, current: Sample, first: Sample): Sample {
  const old = samples.before(current, NOW_WINDOW_MS);
  return old && old.t <= current.t - NOW_WINDOW_MS ? old : first;
}

export function consoleState(i: StateInput): ConsoleState {
  const f = i.families;
  const current = sampleOf(f, i.now);
  const first: Sample = { t: i.startedAt, fetched: 0, bytes: 0, errors: 0, spoutMs: 0, spoutQueries: 0 };
  const hosts = byLabel(f, 'crawler_hosts', 'state');
  const mb = (b: number) => Math.round(b / 1048576);
  const up = f.find((x) => x.name === 'crawler_opensearch_up');
  return {
    now: new Date(i.now).toISOString(),
    startedAt: new Date(i.startedAt).toISOString(),
    workers: i.workers ?? null,
    members: i.members ?? null,
    rates: {
      now: ratesBetween(nowBaseline(i.samples, current, first), current),
      average: ratesBetween(first, current),
    },
    totals: {
      fetched: current.fetched,
      bytes: current.bytes,
      discovered: total(f, 'crawler_discovered_total'),
      byStatus: byLabel(f, 'crawler_status_updates_total', 'status'),
      errors: byLabel(f, 'crawler_errors_total', 'cause'),
      deferred: byLabel(f, 'crawler_deferred_total', 'cause'),
    },
    load: {
      fetching: total(f, 'crawler_fetches_in_flight'),
      queued: total(f, 'crawler_fetch_queue_urls'),
      hosts: hosts.queued ?? 0,
      hostsBackingOff: hosts.backing_off ?? 0,
      hostsDown: hosts.down ?? 0,
      inFlight: total(f, 'crawler_urls_in_flight'),
      parsing: total(f, 'crawler_parsing'),
    },
    index: i.index ?? null,
    opensearch: {
      reachable: !up || up.values.every((v) => v.value > 0),
      unreachableSec: Math.round(
        Math.max(
          0,
          ...(f.find((x) => x.name === 'crawler_opensearch_unreachable_seconds')?.values ?? []).map(
            (v) => v.value,
          ),
        ),
      ),
      writesPending: total(f, 'crawler_status_writes_pending'),
      spoutMs: ratesBetween(i.samples.before(current, 60_000), current).spoutMs,
    },
    memory: {
      rssMb: mb(total(f, 'process_resident_memory_bytes')),
      heapUsedMb: mb(total(f, 'nodejs_heap_size_used_bytes')),
    },
    metricsPointsDropped: total(f, 'crawler_metrics_points_dropped_total'),
    warnings: i.warnings,
    transitions: i.transitions,
  };
}
