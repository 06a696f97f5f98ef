// @ts-check
// The monitoring section of RESULTS.md: the small profile with the metrics series and the console on
// and off (scripts/bench/monitoring.mjs). report.mjs places it.

/** @typedef {import('./report.mjs').CrawlRun} CrawlRun */
/** @typedef {import('./monitoring.mjs').MonitoringResult} MonitoringResult */

/** @type {(n: number) => string} */
const f0 = (n) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : 'n/a');
/** @type {(n: number) => string} */
const f3 = (n) => (Number.isFinite(n) ? n.toFixed(3) : 'n/a');

/** @param {readonly number[]} v */
function median(v) {
  const s = [...v].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] ?? Number.NaN) : ((s[m - 1] ?? Number.NaN) + (s[m] ?? Number.NaN)) / 2;
}

/**
 * Crawler CPU per page with monitoring on over off, medians: what monitoring costs (a share).
 * @param {MonitoringResult} m
 */
export function monitoringOverhead(m) {
  const on = median(m.on.map((r) => r.msPerPage.crawler));
  const off = median(m.off.map((r) => r.msPerPage.crawler));
  return { on, off, share: on / off - 1 };
}

/** @param {MonitoringResult} m */
export function monitoringSection(m) {
  /** @param {readonly CrawlRun[]} runs @param {(r: CrawlRun) => number} f */
  const spread = (runs, f) => {
    const v = runs.map(f);
    return `${f3(median(v))} (${f3(Math.min(...v))}–${f3(Math.max(...v))})`;
  };
  const rows = [...m.on.map((r, i) => ['on', i, r]), ...m.off.map((r, i) => ['off', i, r])].map(
    ([mode, i, r]) =>
      `| ${mode} ${Number(i) + 1} | ${f0(/** @type {CrawlRun} */ (r).fetched)} | ${f0(/** @type {CrawlRun} */ (r).pagesPerSec)} | ${f3(/** @type {CrawlRun} */ (r).msPerPage.crawler)} | ${f3(/** @type {CrawlRun} */ (r).msPerPage.opensearch)} |`,
  );
  const o = monitoringOverhead(m);
  return `### Variant: monitoring on and off

The same crawl with the metrics series and the console on (\`metrics.interval: 10s\`, the console on a
free port, polled every 2 s as an open page does, \`/metrics\` scraped every 15 s, the chart every 30 s;
${f0(m.requests)} console requests, ${f0(m.failed)} failed) and off (\`metrics.interval: 0\`,
\`console.port: 0\`), in pairs whose order alternates (the machine is shared).

| run | pages | pages/s | crawler CPU ms/page | OpenSearch CPU ms/page |
|---|---:|---:|---:|---:|
${rows.join('\n')}
| **on, median (min–max)** | | | **${spread(m.on, (r) => r.msPerPage.crawler)}** | ${spread(m.on, (r) => r.msPerPage.opensearch)} |
| **off, median (min–max)** | | | **${spread(m.off, (r) => r.msPerPage.crawler)}** | ${spread(m.off, (r) => r.msPerPage.opensearch)} |

Monitoring costs the crawler **${(o.share * 100).toFixed(1)}%** of its CPU per page (medians: ${f3(o.on)} on, ${f3(o.off)} off);
compare with the spread between runs of the same setting.

`;
}
