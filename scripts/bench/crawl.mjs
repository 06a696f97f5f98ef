// @ts-check
// End to end: `crawler run --once` (the built CLI, its own process) seeded with each host's first
// page, until nothing is due. Timed from its "crawling" log line to its "crawl stopped" line, whose
// summary gives statuses, status writes, spout query latency, CPU and peak RSS. The OpenSearch node's
// and the web server's CPU over the same window come from /proc.

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { stringify } from 'yaml';
import { cpuSeconds, machineBusySeconds, runNode } from './proc.mjs';

/** @typedef {import('../../src/pipeline/crawler.js').CrawlSummary} CrawlSummary */
/** @typedef {{ t: number, busy: number, cpu: Record<string, number> }} Mark */
/** @typedef {Awaited<ReturnType<typeof crawlEndToEnd>>} CrawlResult */

/**
 * Writes `dir`/urlfilters.json: the default URL filters, except that HostURLFilter keeps links to
 * other hosts. The synthetic webs' hosts are IP addresses, which it treats as domains of their own;
 * a crawl of many sites follows such links.
 * @param {string} dir
 * @param {string} root the repository
 * @returns {string} the file's path, for `urlfilters.config.file`
 */
export function writeCrossHostFilters(dir, root) {
  /** @type {Record<string, { name: string, params: Record<string, unknown> }[]>} */
  const filters = JSON.parse(readFileSync(join(root, 'conf/urlfilters.json'), 'utf8'));
  for (const f of filters['org.apache.stormcrawler.filtering.URLFilters'] ?? []) {
    if (f.name === 'HostURLFilter') f.params.ignoreOutsideDomain = false;
  }
  const path = join(dir, 'urlfilters.json');
  writeFileSync(path, JSON.stringify(filters, null, 2));
  return path;
}

/**
 * The crawl's config: StormCrawler-style defaults, with politeness off for the measurement.
 * @param {string} dir where the files go
 * @param {string} root the repository
 * @param {{ opensearchUrl: string, concurrency: number, hosts: number, extra?: Record<string, unknown> }} options
 */
export function writeBenchConf(dir, root, { opensearchUrl, concurrency, hosts, extra = {} }) {
  mkdirSync(dir, { recursive: true });
  const urlfilters = writeCrossHostFilters(dir, root);
  const settings = {
    'opensearch.addresses': opensearchUrl,
    'opensearch.status.index.name': 'bench-status',
    'opensearch.indexer.index.name': 'bench-content',
    'opensearch.hosts.index.name': 'bench-hosts',
    'http.agent.name': 'benchbot',
    // Loopback addresses are refused by default (SSRF guard); the synthetic web lives there.
    'http.filter.ipaddress.exclude': [],
    'urlfilters.config.file': urlfilters,
    // Politeness off for the measurement: one connection per host, no delay between fetches.
    'fetcher.server.delay': 0,
    'fetcher.threads.number': concurrency,
    // A host can only be fetched as fast as its due URLs become visible to the spout: a query shows
    // the oldest max.urls.per.bucket of each host (100 at most for the aggregation form, the
    // index.max_inner_result_window), and the next ones appear once the fetched URLs' statuses are
    // written and refreshed. Short flush intervals shorten that cycle; the defaults (5 s and 2 s)
    // suit polite crawls, where a host's next URL is seconds away anyway.
    'opensearch.status.max.buckets': hosts,
    'opensearch.status.max.urls.per.bucket': 100,
    'spout.min.delay.queries': 250,
    'opensearch.status.flushInterval': '500ms',
    'opensearch.indexer.flushInterval': '500ms',
    // Well below one query's worth of URLs (hosts x 100): the spout then keeps the rest of a query
    // in its buffer and queries again when that runs out, instead of every spout.min.delay.queries
    // for 5,000 hits that are nearly all in flight already (measured: 130 queries -> 27 in 45 s,
    // +30% pages/s).
    'fetcher.max.urls.in.queues': 1000,
    ...extra,
  };
  const path = join(dir, `bench${Object.keys(extra).length ? '-variant' : ''}.yaml`);
  writeFileSync(path, stringify(settings));
  return { path, settings };
}

/**
 * @param {readonly number[]} values
 * @returns {number}
 */
function median(values) {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
}

/**
 * With `--workers N` (in `args`), the supervisor's lines are the ones without a "worker" field: its
 * "crawling" line starts the clock, its "crawl stopped" summary (the workers' summed, their CPU and
 * RSS included) ends it, and its progress lines are the rates.
 * @param {{
 *   root: string,
 *   conf: string,
 *   seeds: readonly string[],
 *   pids: Record<string, number | undefined>,
 *   log?: (line: string) => void,
 *   nodeArgs?: readonly string[],
 *   stopAfterSecs?: number,
 *   args?: readonly string[],
 * }} options `nodeArgs` go to node (e.g. --cpu-prof); `stopAfterSecs` sends SIGINT that long after
 *   the crawl started (a window of the crawl rather than all of it); `args` are more options of
 *   `crawler run` (e.g. --workers 2).
 */
export async function crawlEndToEnd({
  root,
  conf,
  seeds,
  pids,
  log = () => {},
  nodeArgs = [],
  stopAfterSecs,
  args: extra = [],
}) {
  const args = [...nodeArgs, join(root, 'dist/cli/main.js'), 'run', '--once', '--conf', conf, ...extra];
  for (const s of seeds) args.push('--seed', s);
  /** @type {Mark | undefined} */
  let start;
  /** @type {(Mark & { summary: CrawlSummary }) | undefined} */
  let end;
  /** @type {number[]} */
  const rates = [];
  /** @type {NodeJS.Timeout | undefined} */
  let stopper;
  const { child, done } = runNode(args, {
    env: { LOG_FORMAT: 'json', LOG_LEVEL: 'info' },
    onLine: (_stream, v) => {
      if (typeof v !== 'object') return;
      if (Number(v.level) >= 50)
        log(`  crawler error${v.worker === undefined ? '' : ` (worker ${v.worker})`}: ${v.msg}`);
      if (v.worker !== undefined) return;
      /** @type {() => Mark} */
      const mark = () => ({
        t: performance.now(),
        busy: machineBusySeconds(),
        cpu: {
          ...Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, cpuSeconds(pid)])),
          // The crawler itself, from /proc: its CPU between the two marks leaves out the start-up
          // (module loading, cluster checks, seeds), which a short crawl would spread over its pages.
          crawling: child.pid === undefined ? Number.NaN : cpuSeconds(child.pid),
        },
      });
      if (v.msg === 'crawling' && !start) {
        start = mark();
        if (stopAfterSecs !== undefined)
          stopper = setTimeout(() => child.kill('SIGINT'), stopAfterSecs * 1000);
      }
      if (v.msg === 'crawl stopped')
        end = { ...mark(), summary: /** @type {CrawlSummary} */ (/** @type {unknown} */ (v)) };
      if (v.msg === 'progress') {
        const fetchedPerSec = Number(v.fetchedPerSec);
        // The first line has no previous one to compare with; the rest are 10-s windows.
        if (rates.length > 0 || fetchedPerSec > 0) rates.push(fetchedPerSec);
        log(`  ${v.fetched} fetched, ${fetchedPerSec} pages/s`);
      }
    },
  });
  const { code, err } = await done;
  clearTimeout(stopper);
  if (code !== 0 || !start || !end) {
    const tail = err.slice(-5).map((l) => (typeof l === 'string' ? l : JSON.stringify(l)));
    throw new Error(`crawler run exited ${code}:\n${tail.join('\n')}`);
  }
  const secs = (end.t - start.t) / 1000;
  const s = end.summary;
  const cpuSecs = (s.cpuUserMs + s.cpuSystemMs) / 1000;
  // Narrowed copies for the closure below.
  const [from, to] = [start, end];
  /** @type {(k: string) => number} CPU seconds of a process over the crawl */
  const used = (k) => (to.cpu[k] ?? Number.NaN) - (from.cpu[k] ?? Number.NaN);
  const cores = cpus().length;
  /** @type {(k: string) => number} */
  const share = (k) => used(k) / secs / cores;
  return {
    secs,
    cores,
    fetched: s.fetched,
    adopted: s.adopted,
    // Host-ms a host sat without a URL while the index held due URLs of it (few-host profile).
    idleWithWorkMs: s.idleWithWorkMs ?? Number.NaN,
    byStatus: s.byStatus,
    pagesPerSec: s.fetched / secs,
    // Over the 10-s progress windows: the ramp-up (seeds only) and the tail (the last URLs of each
    // host) pull the whole-crawl average down; the median window is the steady state.
    windows: { median: median(rates), max: Math.max(0, ...rates), count: rates.length },
    cpuSecs,
    cpuPer1000: (cpuSecs / s.fetched) * 1000,
    maxRssMb: s.maxRssMb,
    statusWrites: s.statusWrites,
    statusWritesPerSec: s.statusWrites.written / secs,
    spout: s.spout,
    share: {
      opensearch: share('opensearch'),
      web: share('web'),
      machine: (end.busy - start.busy) / secs / cores,
    },
    // CPU ms per page fetched, per process: what the machine limit is made of.
    msPerPage: {
      crawler: (cpuSecs * 1000) / s.fetched,
      // The crawler's CPU from 'crawling' to 'crawl stopped' only (no start-up): the figure A/B
      // comparisons of short crawls should read.
      crawling: (used('crawling') * 1000) / s.fetched,
      opensearch: (used('opensearch') * 1000) / s.fetched,
      web: (used('web') * 1000) / s.fetched,
    },
    // The same for every process in `pids` (e.g. Tika, for the documents profile).
    msPerPageOf: Object.fromEntries(Object.keys(pids).map((k) => [k, (used(k) * 1000) / s.fetched])),
    logLinesDropped: s.logLinesDropped,
    // Near-duplicate and soft-404 checks: lookups, pages looked up, duplicates, soft 404s, probes.
    dedup: s.dedup,
  };
}

/**
 * Deletes what a bench crawl wrote: writeBenchConf's indices, and the metrics series of runs that
 * name them `bench-metrics`.
 * @param {import('@opensearch-project/opensearch').Client} client
 */
export function deleteBenchIndices(client) {
  return client.indices.delete({
    index: 'bench-status,bench-content,bench-hosts,bench-metrics*',
    ignore_unavailable: true,
  });
}
