import { droppedLogLines, type Logger } from '../util/log.js';
import type { CrawlMetrics } from './metrics.js';
import type { SourceStats, StatusStoreStats } from './ports.js';

/*
 * What a crawl reports: its last log line ("crawl stopped"), the figures of its progress lines
 * (`crawlSnapshot`), which `crawler run --workers` sums over its workers, and the progress line.
 */

/** The last log line of a crawl ("crawl stopped"): operators and scripts/bench read it. */
export interface CrawlSummary {
  readonly byStatus: Record<string, number>;
  readonly errors: string;
  /** URLs deferred because of their host (or robots.txt, or a queue timeout), by cause. */
  readonly deferred: string;
  readonly fetched: number;
  readonly discovered: number;
  /** URLs handed straight to the fetcher once their DISCOVERED write was acknowledged (no query). */
  readonly adopted: number;
  /**
   * Host-ms a host's queue could have fetched but had no URL while due URLs of the host were known
   * (in the spout's buffer or in the index): near zero when work flows.
   */
  readonly idleWithWorkMs: number;
  /** URLs given up at the shutdown deadline (absent when none were). */
  readonly notWritten?: number;
  /** DISCOVERED links not written at the shutdown deadline (absent when none). */
  readonly discoveredNotWritten?: number;
  readonly statusWrites: StatusStoreStats;
  readonly spout: { readonly queries: number; readonly queryMsP50: number; readonly queryMsP95: number };
  readonly cpuUserMs: number;
  readonly cpuSystemMs: number;
  readonly maxRssMb: number;
  readonly logLinesDropped: number;
  /** URLs each URL filter dropped (outlinks, redirect targets, sitemap entries, seeds), by name. */
  readonly urlFilterDrops: Record<string, number>;
  /**
   * Near-duplicate and soft-404 checks (absent when off): lookups and the pages they covered,
   * duplicates and soft 404s found, probes sent.
   */
  readonly dedup?: Record<string, number>;
}

/** Counters since the start, and what is in the crawl's hands now (`Crawler.snapshot`). */
export interface CrawlSnapshot {
  /** Seconds OpenSearch has been unreachable; absent while it answers. */
  readonly opensearchUnreachableSec?: number;
  readonly fetched: number;
  readonly discovered: number;
  readonly adopted: number;
  readonly inFlight: number;
  readonly queued: number;
  readonly fetching: number;
  readonly hosts: number;
  readonly hostsBackingOff: number;
  readonly hostsDown: number;
  readonly parsing: number;
  readonly writesPending: number;
  readonly byStatus: Readonly<Record<string, number>>;
  /** ERROR and FETCH_ERROR by error.cause or fetch.exception. */
  readonly errors: Readonly<Record<string, number>>;
  /** Deferred URLs by defer.cause. */
  readonly deferred: Readonly<Record<string, number>>;
}

/** The summary of a crawl from its counters and what its source and status store report. */
export function crawlSummary(
  m: CrawlMetrics,
  from: {
    readonly spout: SourceStats;
    readonly statusWrites: StatusStoreStats;
    readonly urlFilterDrops: ReadonlyMap<string, number>;
    readonly dedup?: Record<string, number> | undefined;
  },
): CrawlSummary {
  const usage = process.resourceUsage();
  const round = (n: number) => Math.round(n * 10) / 10;
  const s = from.spout;
  return {
    byStatus: Object.fromEntries(m.byStatus),
    errors: m.errorSummary(),
    deferred: m.deferredSummary(),
    fetched: m.fetched,
    discovered: m.discovered,
    adopted: m.adopted,
    idleWithWorkMs: Math.round(s.idleWithWorkMs ?? 0),
    ...(m.abandoned > 0 ? { notWritten: m.abandoned } : {}),
    ...(m.discoveredNotWritten > 0 ? { discoveredNotWritten: m.discoveredNotWritten } : {}),
    statusWrites: { ...from.statusWrites },
    spout: { queries: s.queries, queryMsP50: round(s.queryMsP50), queryMsP95: round(s.queryMsP95) },
    cpuUserMs: Math.round(usage.userCPUTime / 1000),
    cpuSystemMs: Math.round(usage.systemCPUTime / 1000),
    maxRssMb: Math.round(usage.maxRSS / 1024),
    logLinesDropped: droppedLogLines(),
    urlFilterDrops: Object.fromEntries(from.urlFilterDrops),
    ...(from.dedup ? { dedup: from.dedup } : {}),
  };
}

/** What the crawl holds right now, besides its counters (for `crawlSnapshot`). */
export interface CrawlHoldings {
  /** Ms OpenSearch has been unreachable; undefined while it answers. */
  readonly unreachableMs: number | undefined;
  /** URLs in flight at the source (emitted, not settled). */
  readonly inFlight: number;
  readonly fetcher: {
    readonly queued: number;
    readonly inFlight: number;
    readonly queues: number;
    readonly hostsBackingOff: number;
    readonly hostsDown: number;
  };
  readonly parsing: number;
  readonly writesPending: number;
}

/** The crawl's counters and what it holds now: the progress line's figures, and a worker's report. */
export function crawlSnapshot(m: CrawlMetrics, h: CrawlHoldings): CrawlSnapshot {
  const down = h.unreachableMs;
  const f = h.fetcher;
  return {
    ...(down === undefined ? {} : { opensearchUnreachableSec: Math.round(down / 1000) }),
    fetched: m.fetched,
    discovered: m.discovered,
    adopted: m.adopted,
    inFlight: h.inFlight,
    queued: f.queued,
    fetching: f.inFlight,
    hosts: f.queues,
    hostsBackingOff: f.hostsBackingOff,
    hostsDown: f.hostsDown,
    parsing: h.parsing,
    writesPending: h.writesPending,
    byStatus: Object.fromEntries(m.byStatus),
    errors: Object.fromEntries(m.errors),
    deferred: Object.fromEntries(m.deferred),
  };
}

/** Logs the progress line of `snapshot`, with the fetch rate since the last one (at `now`). */
export function logProgress(log: Logger, m: CrawlMetrics, snapshot: CrawlSnapshot, now: number): void {
  const { opensearchUnreachableSec: unreachable, discovered, adopted, byStatus, ...rest } = snapshot;
  log.info(
    {
      ...(unreachable === undefined ? {} : { opensearchUnreachableSec: unreachable }),
      fetchedPerSec: Math.round(m.rate(now) * 10) / 10,
      ...rest,
      errors: m.errorSummary(),
      deferred: m.deferredSummary(),
    },
    unreachable === undefined ? 'progress' : `progress: OpenSearch unreachable for ${unreachable} s`,
  );
}
