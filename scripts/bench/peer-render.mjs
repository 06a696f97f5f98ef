// @ts-check
// The rendering peer: Crawlee's PlaywrightCrawler on the app host of render.mjs, with the system's
// Chromium (playwright-core's launcher, executablePath, the crawler's own flags; no browser
// download), in-memory storage, the same pages at once as the crawler (playwright.pages.max),
// images, fonts and media blocked as the crawler does by default, same-host links enqueued, no
// retries.
//
//   node scripts/bench/peer-render.mjs '{"seeds": [...], "concurrency": 4, "maxRequests": 200}'
//
// prints one JSON line: pages, failed, secs, pagesPerSec, cpuSecs (its own process and its
// browser's), maxRssMb (its own process).

/**
 * @typedef {object} PeerRenderResult
 * @property {number} pages pages handled
 * @property {number} failed requests that failed
 * @property {number} secs
 * @property {number} pagesPerSec
 * @property {number} cpuSecs this process and the browser processes it waited for
 * @property {number} nodeCpuSecs this process alone
 * @property {number} maxRssMb
 * @property {number} textChars characters of text over all pages (all rendered)
 */

import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { Configuration, log, PlaywrightCrawler, playwrightUtils } from '@crawlee/playwright';
import { chromium } from 'playwright-core';

/** @type {{ seeds: string[], concurrency: number, maxRequests: number }} */
const o = JSON.parse(process.argv[2] ?? '{}');
log.setLevel(log.LEVELS.ERROR);
const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/** CPU of this process's ended children (its browsers, once closed), seconds. */
function childrenCpuSecs() {
  const stat = readFileSync('/proc/self/stat', 'latin1');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[13]) + Number(f[14])) / 100;
}

const config = new Configuration({ persistStorage: false, purgeOnStart: true, availableMemoryRatio: 0.5 });
let pages = 0;
let failed = 0;
let textChars = 0;
const crawler = new PlaywrightCrawler(
  {
    minConcurrency: o.concurrency,
    maxConcurrency: o.concurrency,
    maxRequestRetries: 0,
    maxRequestsPerCrawl: o.maxRequests,
    requestHandlerTimeoutSecs: 30,
    headless: true,
    launchContext: {
      launcher: chromium,
      launchOptions: { executablePath: '/usr/bin/chromium', args: FLAGS, chromiumSandbox: false },
    },
    // One browser, its pages reused as long as it lives (Crawlee's default retires it after 100).
    browserPoolOptions: { useFingerprints: false },
    preNavigationHooks: [
      async ({ page }) => {
        await playwrightUtils.blockRequests(page, {
          urlPatterns: ['.png', '.jpg', '.gif', '.woff', '.woff2', '.mp4'],
        });
      },
    ],
    async requestHandler({ page, enqueueLinks }) {
      await page.waitForSelector('#root h1', { timeout: 10_000 });
      textChars += ((await page.textContent('body')) ?? '').length;
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
const children0 = childrenCpuSecs();
await crawler.run(o.seeds);
await crawler.teardown();
const secs = (performance.now() - t0) / 1000;
const cpu = process.cpuUsage(cpu0);
const nodeCpuSecs = (cpu.user + cpu.system) / 1e6;
/** @type {PeerRenderResult} */
const result = {
  pages,
  failed,
  secs,
  pagesPerSec: pages / secs,
  cpuSecs: nodeCpuSecs + childrenCpuSecs() - children0,
  nodeCpuSecs,
  maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
  textChars,
};
process.stdout.write(`${JSON.stringify(result)}\n`);
process.exit(0);
