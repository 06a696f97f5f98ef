// @ts-check
// What monitoring costs: the small profile crawled end to end with the metrics series and the
// console on (metrics.interval 10 s, the console on a free port, polled as an open browser tab does
// every 2 s and scraped as Prometheus does every 15 s) and with both off (metrics.interval 0,
// console.port 0), in pairs whose order alternates, since the machine is shared. The figure is the
// CPU per page of the crawler process (and of OpenSearch, which stores the series), median and
// spread over the runs.

import { createServer } from 'node:net';
import { writeBenchConf } from './crawl.mjs';

/** @typedef {import('./report.mjs').CrawlRun} CrawlRun */
/** @typedef {{ on: CrawlRun[], off: CrawlRun[], requests: number, failed: number }} MonitoringResult */

/** @returns {Promise<number>} a port free on 127.0.0.1 now */
export function freePort() {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = /** @type {import('node:net').AddressInfo} */ (s.address()).port;
      s.close(() => resolve(port));
    });
  });
}

/**
 * Polls the console as a person with the page open and a Prometheus scraper would, until stopped.
 * @param {number} port
 * @param {string} token
 */
export function pollConsole(port, token) {
  const stats = { requests: 0, failed: 0 };
  const headers = { authorization: `Bearer ${token}` };
  /** @param {string} path */
  const get = (path) =>
    fetch(`http://127.0.0.1:${port}${path}`, { headers })
      .then((r) => {
        stats.requests++;
        if (!r.ok) stats.failed++;
        return r.arrayBuffer();
      })
      // Before the console listens, or after the crawl ended.
      .catch(() => undefined);
  const page = setInterval(() => void get('/api/state'), 2000);
  const scrape = setInterval(() => void get('/metrics'), 15_000);
  const chart = setInterval(() => void get('/api/chart?hours=3'), 30_000);
  return {
    stats,
    stop: () => {
      clearInterval(page);
      clearInterval(scrape);
      clearInterval(chart);
    },
  };
}

/**
 * @param {{
 *   endToEnd: (confPath: string) => Promise<CrawlRun>,
 *   dir: string,
 *   root: string,
 *   confOptions: { opensearchUrl: string, concurrency: number, hosts: number },
 *   pairs: number,
 *   log: (line: string) => void,
 *   clear: () => Promise<unknown>,
 * }} o `clear` deletes the series' indices after each run
 * @returns {Promise<MonitoringResult>}
 */
export async function monitoringVariant({ endToEnd, dir, root, confOptions, pairs, log, clear }) {
  /** @type {MonitoringResult} */
  const result = { on: [], off: [], requests: 0, failed: 0 };
  for (let i = 0; i < pairs; i++) {
    for (const mode of i % 2 === 0 ? ['on', 'off'] : ['off', 'on']) {
      const port = await freePort();
      const token = `bench-console-${process.pid}-${i}`;
      const extra =
        mode === 'on'
          ? {
              'metrics.interval': '10s',
              'opensearch.metrics.index.name': 'bench-metrics',
              'console.port': port,
              'console.token': token,
            }
          : { 'metrics.interval': 0, 'console.port': 0 };
      const conf = writeBenchConf(dir, root, { ...confOptions, extra });
      log(`monitoring ${mode} (pair ${i + 1} of ${pairs})`);
      const poll = mode === 'on' ? pollConsole(port, token) : undefined;
      try {
        const r = await endToEnd(conf.path);
        (mode === 'on' ? result.on : result.off).push(r);
        log(
          `  crawler ${r.msPerPage.crawler.toFixed(3)} CPU ms/page, OpenSearch ${r.msPerPage.opensearch.toFixed(3)}`,
        );
      } finally {
        poll?.stop();
        result.requests += poll?.stats.requests ?? 0;
        result.failed += poll?.stats.failed ?? 0;
        await clear();
      }
    }
  }
  return result;
}
