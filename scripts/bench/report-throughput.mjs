// @ts-check
// The throughput sections of RESULTS.md: the small profile with two worker processes, and the deep
// site beside Crawlee (with the politeness check). report.mjs places them.

/** @typedef {import('./report.mjs').CrawlRun} CrawlRun */
/** @typedef {import('./deep.mjs').DeepResult} DeepResult */
/** @typedef {[string, string, string, boolean]} TargetRow */

/** @type {(n: number) => string} */
const f0 = (n) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : 'n/a');
/** @type {(n: number) => string} */
const f1 = (n) => (Number.isFinite(n) ? n.toFixed(1) : 'n/a');
/** @type {(n: number) => string} */
const f2 = (n) => (Number.isFinite(n) ? n.toFixed(2) : 'n/a');
/** @type {(n: number) => string} */
const pct = (n) => (Number.isFinite(n) ? `${Math.round(n * 100)}%` : 'n/a');

/** @param {CrawlRun} c the crawler's own share of the cores */
const crawlerShare = (c) => c.cpuSecs / c.secs / c.cores;

/**
 * What bounds the two-worker run, in a few sentences: the cores the one-worker run left idle, the
 * most a second worker could add with them at the same CPU per page, and what it did add.
 * @param {CrawlRun} one
 * @param {CrawlRun} two
 */
function bound(one, two) {
  const cores = one.cores;
  const idle = Math.max(0, (1 - one.share.machine) * cores);
  const crawler = crawlerShare(one) * cores;
  const ceiling = 1 + idle / crawler;
  const ratio = two.pagesPerSec / one.pagesPerSec;
  const cpuBound = two.share.machine >= 0.9;
  return (
    `With one worker the machine's ${cores} cores were ${pct(one.share.machine)} busy (crawler ${f2(crawler)} ` +
    `cores, OpenSearch ${f2(one.share.opensearch * cores)}, web server ${f2(one.share.web * cores)}): ` +
    `${f2(idle)} cores idle, so a second worker could add at most about ${pct(ceiling - 1)} ` +
    `(${f2(ceiling)}x) at the same CPU per page. With two, the machine was ${pct(two.share.machine)} busy ` +
    `and the CPU per page went from ${f2(one.cpuPer1000)} to ${f2(two.cpuPer1000)} ms (two processes, ` +
    'each with its own caches and spout queries, and the supervisor passing their log lines on): ' +
    `${f2(ratio)}x. ${cpuBound ? '**CPU bounds it**: no core was left idle. ' : ''}` +
    'On a machine with idle cores each worker adds about one core of crawling.'
  );
}

/**
 * @param {CrawlRun} one the default run (one process)
 * @param {CrawlRun} two `--workers 2`
 */
export function workersSection(one, two) {
  const share = (/** @type {CrawlRun} */ c) =>
    `${pct(crawlerShare(c))} / ${pct(c.share.opensearch)} / ${pct(c.share.web)} / ${pct(c.share.machine)}`;
  return `### Variant: \`--workers 2\` (two worker processes, half of the status shards each)

This machine has **${one.cores} cores**; the crawler, OpenSearch and the web server share them.

| figure | 1 worker (default) | 2 workers |
|---|---:|---:|
| pages/s (whole crawl) | ${f0(one.pagesPerSec)} | ${f0(two.pagesPerSec)} |
| pages/s, median 10-s window | ${f0(one.windows.median)} | ${f0(two.windows.median)} |
| crawler CPU s per 1,000 pages (every process) | ${f2(one.cpuPer1000)} | ${f2(two.cpuPer1000)} |
| crawler peak RSS MB (sum over the processes) | ${f0(one.maxRssMb)} | ${f0(two.maxRssMb)} |
| CPU share of the ${one.cores} cores: crawler / OpenSearch / web server / whole machine | ${share(one)} | ${share(two)} |
| **2 workers / 1 worker, pages/s** | | **${f2(two.pagesPerSec / one.pagesPerSec)}x** |

${bound(one, two)}

`;
}

/** @param {DeepResult} d */
export function deepSection(d) {
  const c = d.crawl;
  const per1000 = (/** @type {number} */ cpuSecs, /** @type {number} */ pages) => (cpuSecs / pages) * 1000;
  return `## Deep site: one host found page by page

One host of ${f0(d.pages)} pages, page i linking to the next ${d.fanout}, each answered after ${d.delayMs} ms;
\`fetcher.server.delay: 0\` and every other setting the crawler's default (status bulks every 5 s,
spout queries 2 s apart, index refresh 1 s). A crawl that waited on those timers would fetch about
${d.fanout} pages per round of flush, refresh and query; the crawler instead writes at once when it has
nothing to fetch and hands each new URL to its fetcher once the URL's DISCOVERED write is acknowledged
("adopted"). One connection to the host, as by default (\`fetcher.threads.per.queue: 1\`). Crawlee
CheerioCrawler: in-memory queue, concurrency 50, same-host links.

| figure | crawler | Crawlee | crawler / Crawlee |
|---|---:|---:|---:|
| pages crawled | ${f0(c.fetched)} | ${f0(d.peer.pages)} | |
| **wall time, s** (the crawl; start-up excluded) | **${f1(c.secs)}** | **${f1(d.peer.secs)}** | **${f2(c.secs / d.peer.secs)}x** |
| the crawler's whole command, s (start-up, indices, the seed) | ${f1(d.commandSecs)} | | |
| pages handed straight to the fetcher (adopted) | ${f0(c.adopted)} | | |
| spout queries | ${f0(c.spout.queries)} | | |
| CPU s per 1,000 pages | ${f2(c.cpuPer1000)} | ${f2(per1000(d.peer.cpuSecs, d.peer.pages))} | |

Politeness on the same kind of site with \`fetcher.server.delay: 1\` (${f0(d.polite.pages)} pages, ${f1(d.polite.secs)} s):
the smallest gap between two requests, start to start, measured at the server: **${f0(d.polite.minGapMs)} ms**.
`;
}

/**
 * Rows of the targets table.
 * @param {CrawlRun | undefined} one
 * @param {CrawlRun | undefined} two
 * @param {DeepResult | undefined} d
 * @returns {TargetRow[]}
 */
export function throughputTargets(one, two, d) {
  /** @type {TargetRow[]} */
  const rows = [];
  if (d) {
    const ratio = d.crawl.secs / d.peer.secs;
    rows.push([
      `deep site: all ${f0(d.pages)} pages, wall time / Crawlee's`,
      '<= 3x',
      `${f0(d.crawl.fetched)} pages, ${f1(d.crawl.secs)} s / ${f1(d.peer.secs)} s = ${f2(ratio)}x`,
      d.crawl.fetched === d.pages && ratio <= 3,
    ]);
    rows.push([
      'politeness: smallest gap between requests to a host, fetcher.server.delay 1',
      '>= 1,000 ms',
      `${f0(d.polite.minGapMs)} ms`,
      d.polite.minGapMs >= 1000,
    ]);
  }
  if (one && two) {
    const ratio = two.pagesPerSec / one.pagesPerSec;
    rows.push([
      `small: 2 workers / 1 worker pages/s (${one.cores} cores; machine ${pct(one.share.machine)} busy with 1)`,
      '>= 1.6x with idle cores',
      `${f2(ratio)}x`,
      ratio >= 1.6,
    ]);
  }
  return rows;
}
