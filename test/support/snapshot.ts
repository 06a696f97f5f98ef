import type { CrawlSnapshot } from '../../src/pipeline/crawl-report.js';
import type { CrawlSummary } from '../../src/pipeline/crawler.js';

/** A crawl's snapshot with every count at zero, and `over` on top: what a test feeds a reader of it. */
export const snapshot = (over: Partial<CrawlSnapshot> = {}): CrawlSnapshot => ({
  fetched: 0,
  discovered: 0,
  adopted: 0,
  inFlight: 0,
  queued: 0,
  fetching: 0,
  hosts: 0,
  hostsBackingOff: 0,
  hostsDown: 0,
  parsing: 0,
  writesPending: 0,
  byStatus: {},
  errors: {},
  deferred: {},
  ...over,
});

/** A crawl's summary with every count at zero, and `over` on top. */
export const summary = (over: Partial<CrawlSummary> = {}): CrawlSummary => ({
  byStatus: {},
  errors: '',
  deferred: '',
  fetched: 0,
  discovered: 0,
  adopted: 0,
  idleWithWorkMs: 0,
  statusWrites: { written: 0, existing: 0, skippedCached: 0, failed: 0 },
  spout: { queries: 0, queryMsP50: Number.NaN, queryMsP95: Number.NaN },
  cpuUserMs: 0,
  cpuSystemMs: 0,
  maxRssMb: 0,
  logLinesDropped: 0,
  urlFilterDrops: {},
  ...over,
});
