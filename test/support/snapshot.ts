import type { CrawlSnapshot } from '../../src/pipeline/crawl-report.js';

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
