import type { CrawlSnapshot, CrawlSummary } from '../../pipeline/crawler.js';
import { countSummary } from '../../pipeline/metrics.js';
import { count } from '../../util/plural.js';

/** The supervisor's "crawl stopped" line: the workers' summaries summed, and how many there were. */
export interface WorkersSummary extends CrawlSummary {
  readonly workers: number;
  /** Worker processes started again after one died. */
  readonly restarts: number;
}

/** The figures of the supervisor's own process, added to the workers'. */
export interface OwnUsage {
  readonly cpuUserMs: number;
  readonly cpuSystemMs: number;
  readonly maxRssMb: number;
  readonly logLinesDropped: number;
}

interface Proc {
  readonly worker: number;
  snapshot: CrawlSnapshot | undefined;
  summary: CrawlSummary | undefined;
  live: boolean;
}

/** Snapshot counters of work done: every process's count, a dead one's up to its last report. */
const COUNTED = ['fetched', 'discovered', 'adopted'] as const;
/** Snapshot counters of what a process holds now: live processes only. */
const IN_HAND = [
  'inFlight',
  'queued',
  'fetching',
  'hosts',
  'hostsBackingOff',
  'hostsDown',
  'parsing',
  'writesPending',
] as const;

const add = (into: Record<string, number>, from: Readonly<Record<string, number>>) => {
  for (const [k, v] of Object.entries(from)) into[k] = (into[k] ?? 0) + v;
};

/**
 * The workers' figures summed, for the supervisor's progress line and summary. Keyed by process: a
 * worker that died and was started again is two processes, and the first one's work (up to its last
 * report, about a second old) still counts; what is in hand now counts only live processes.
 */
export class Aggregate {
  private readonly procs = new Map<number, Proc>();
  private lastAt = 0;
  private lastFetched = 0;

  started(pid: number, worker: number): void {
    this.procs.set(pid, { worker, snapshot: undefined, summary: undefined, live: true });
  }

  progress(pid: number, snapshot: CrawlSnapshot): void {
    const p = this.procs.get(pid);
    if (p) p.snapshot = snapshot;
  }

  ended(pid: number, summary: CrawlSummary, snapshot: CrawlSnapshot): void {
    const p = this.procs.get(pid);
    if (!p) return;
    p.summary = summary;
    p.snapshot = snapshot;
  }

  exited(pid: number): void {
    const p = this.procs.get(pid);
    if (p) p.live = false;
  }

  /** Counters over every process, now in hand over the live ones. */
  totals(): CrawlSnapshot & { readonly running: number } {
    const byStatus: Record<string, number> = {};
    const errors: Record<string, number> = {};
    const deferred: Record<string, number> = {};
    const sum = Object.fromEntries([...COUNTED, ...IN_HAND].map((k) => [k, 0])) as Record<
      (typeof COUNTED)[number] | (typeof IN_HAND)[number],
      number
    >;
    let unreachable: number | undefined;
    let running = 0;
    for (const p of this.procs.values()) {
      if (p.live) running++;
      const s = p.snapshot;
      if (!s) continue;
      for (const k of COUNTED) sum[k] += s[k];
      add(byStatus, s.byStatus);
      add(errors, s.errors);
      add(deferred, s.deferred);
      if (!p.live) continue;
      for (const k of IN_HAND) sum[k] += s[k];
      if (s.opensearchUnreachableSec !== undefined)
        unreachable = Math.max(unreachable ?? 0, s.opensearchUnreachableSec);
    }
    return {
      ...(unreachable === undefined ? {} : { opensearchUnreachableSec: unreachable }),
      ...sum,
      byStatus,
      errors,
      deferred,
      running,
    };
  }

  /** The fields and message of the supervisor's progress line; pages/s since the previous one. */
  progressLine(now: number): { fields: Record<string, unknown>; msg: string } {
    const t = this.totals();
    const dt = (now - this.lastAt) / 1000;
    const rate = this.lastAt === 0 || dt <= 0 ? 0 : (t.fetched - this.lastFetched) / dt;
    this.lastAt = now;
    this.lastFetched = t.fetched;
    const {
      opensearchUnreachableSec: down,
      discovered,
      adopted,
      byStatus,
      running,
      errors,
      deferred,
      ...held
    } = t;
    return {
      fields: {
        ...(down === undefined ? {} : { opensearchUnreachableSec: down }),
        fetchedPerSec: Math.round(Math.max(0, rate) * 10) / 10,
        ...held,
        errors: countSummary(Object.entries(errors)),
        deferred: countSummary(Object.entries(deferred)),
        workers: running,
      },
      msg: down === undefined ? 'progress' : `progress: OpenSearch unreachable for ${down} s`,
    };
  }

  /** Starts the pages/s count of the first progress line. */
  startRate(now: number): void {
    this.lastAt = now;
    this.lastFetched = 0;
  }

  /**
   * The summary of the whole run: sums of the workers' own summaries (or last reports, for a process
   * that died), spout latencies as the slowest worker's, peak RSS as the sum of the peaks (what they
   * may have held together), plus the supervisor's own CPU and memory.
   */
  summary(own: OwnUsage, workers: number, restarts: number): WorkersSummary {
    const t = this.totals();
    const statusWrites = { written: 0, existing: 0, skippedCached: 0, failed: 0 };
    const spout = { queries: 0, queryMsP50: 0, queryMsP95: 0 };
    let cpuUserMs = own.cpuUserMs;
    let cpuSystemMs = own.cpuSystemMs;
    let maxRssMb = own.maxRssMb;
    let logLinesDropped = own.logLinesDropped;
    let notWritten = 0;
    let discoveredNotWritten = 0;
    let idleWithWorkMs = 0;
    const urlFilterDrops: Record<string, number> = {};
    let dedup: Record<string, number> | undefined;
    for (const p of this.procs.values()) {
      const s = p.summary;
      if (!s) continue;
      add(urlFilterDrops, s.urlFilterDrops);
      if (s.dedup) {
        dedup = dedup ?? {};
        add(dedup, s.dedup);
      }
      for (const k of Object.keys(statusWrites) as (keyof typeof statusWrites)[])
        statusWrites[k] += s.statusWrites[k];
      spout.queries += s.spout.queries;
      // NaN (no query) never wins.
      if (s.spout.queryMsP50 > spout.queryMsP50) spout.queryMsP50 = s.spout.queryMsP50;
      if (s.spout.queryMsP95 > spout.queryMsP95) spout.queryMsP95 = s.spout.queryMsP95;
      cpuUserMs += s.cpuUserMs;
      cpuSystemMs += s.cpuSystemMs;
      maxRssMb += s.maxRssMb;
      logLinesDropped += s.logLinesDropped;
      notWritten += s.notWritten ?? 0;
      discoveredNotWritten += s.discoveredNotWritten ?? 0;
      idleWithWorkMs += s.idleWithWorkMs ?? 0;
    }
    return {
      byStatus: t.byStatus,
      errors: countSummary(Object.entries(t.errors)),
      deferred: countSummary(Object.entries(t.deferred)),
      fetched: t.fetched,
      discovered: t.discovered,
      adopted: t.adopted,
      idleWithWorkMs,
      ...(notWritten > 0 ? { notWritten } : {}),
      ...(discoveredNotWritten > 0 ? { discoveredNotWritten } : {}),
      statusWrites,
      spout,
      cpuUserMs,
      cpuSystemMs,
      maxRssMb,
      logLinesDropped,
      urlFilterDrops,
      ...(dedup ? { dedup } : {}),
      workers,
      restarts,
    };
  }
}

/**
 * The one line `crawler run` prints on stdout when it ends: pages fetched, statuses, links found,
 * errors, and what was not written. With workers, their count.
 */
export function outcomeLine(
  s: Pick<CrawlSummary, 'fetched' | 'byStatus' | 'discovered' | 'errors' | 'notWritten'>,
  workers = 1,
): string {
  const notWritten = s.notWritten ?? 0;
  return (
    `fetched ${count(s.fetched, 'page')}${workers > 1 ? ` (${workers} workers)` : ''}; statuses ${JSON.stringify(s.byStatus)}; ` +
    `discovered ${count(s.discovered, 'link')}${s.errors ? `; errors ${s.errors}` : ''}` +
    (notWritten > 0
      ? `; ${notWritten} status updates not written (those URLs keep their previous state and come back when due)`
      : '')
  );
}
