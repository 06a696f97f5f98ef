// @ts-check
// The peer: Crawlee's CheerioCrawler on the same synthetic web, in-memory storage, the same
// concurrency as the crawler, same-host links enqueued from every page, no retries.
//
//   node scripts/bench/peer.mjs '{"seeds": [...], "concurrency": 50, "maxRequests": 20000}'
//
// prints one JSON line: pages, failed, secs, pagesPerSec, cpuSecs, maxRssMb.

/**
 * @typedef {object} PeerResult
 * @property {number} pages pages handled
 * @property {number} failed requests that failed
 * @property {number} secs
 * @property {number} pagesPerSec
 * @property {number} cpuSecs
 * @property {number} maxRssMb
 */

import { performance } from 'node:perf_hooks';
import { CheerioCrawler, Configuration, log } from '@crawlee/cheerio';

/** @type {{ seeds: string[], concurrency: number, maxRequests: number }} */
const o = JSON.parse(process.argv[2] ?? '{}');
log.setLevel(log.LEVELS.ERROR);
const config = new Configuration({ persistStorage: false, purgeOnStart: true, availableMemoryRatio: 0.5 });
let pages = 0;
let failed = 0;
const crawler = new CheerioCrawler(
  {
    minConcurrency: o.concurrency,
    maxConcurrency: o.concurrency,
    maxRequestRetries: 0,
    maxRequestsPerCrawl: o.maxRequests,
    requestHandlerTimeoutSecs: 30,
    async requestHandler({ enqueueLinks }) {
      pages++;
      await enqueueLinks({ strategy: 'same-hostname' });
    },
    failedRequestHandler() {
      failed++;
    },
  },
  config,
);
const t0 = performance.now();
const cpu0 = process.cpuUsage();
await crawler.run(o.seeds);
const secs = (performance.now() - t0) / 1000;
const cpu = process.cpuUsage(cpu0);
/** @type {PeerResult} */
const result = {
  pages,
  failed,
  secs,
  pagesPerSec: pages / secs,
  cpuSecs: (cpu.user + cpu.system) / 1e6,
  maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
};
process.stdout.write(`${JSON.stringify(result)}\n`);
process.exit(0);
