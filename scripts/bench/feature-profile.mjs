// @ts-check
// What HTML pages pay for this round's features, read from a CPU profile rather than from the
// difference of two noisy crawls: the small profile's web (plain HTML) crawled end to end once with
// the defaults (Tika enabled, adaptive rendering, near-duplicate and soft-404 checks, the metrics
// series every 10 s and the console, polled as an open browser tab and a Prometheus scraper do),
// the crawler under `node --cpu-prof` (every thread, should parser.threads be set: each writes a profile).
// Each CPU sample is charged to the code of the project that did the work: the innermost frame of
// its stack in dist/. A sample in a library or in Node.js (the OpenSearch client, undici, JSON) goes
// to the project's code that called it, so the metrics series' bulk requests count as monitoring,
// while the crawl's own work that a feature's wrapper calls (the soft-404 check wraps the fetcher's
// sink, the render protocol wraps the HTTP protocol) stays the crawl's.
//
//   npm run bench:feature-profile [-- --hosts 50 --pages 400]
// (needs OpenSearch at OPENSEARCH_URL, default http://127.0.0.1:9200). Prints a RESULTS.md section.
//
// The profiler itself slows the process a little; the shares are of the profiled process, and the
// CPU ms per page quoted beside them is the profiled run's.

import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@opensearch-project/opensearch';
import { crawlEndToEnd, deleteBenchIndices, writeBenchConf } from './crawl.mjs';
import { openSearchPid, startSmallWeb } from './dedup.mjs';
import { freePort, pollConsole } from './monitoring.mjs';
import { numberOption } from './proc.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const hosts = numberOption('hosts', 50);
const pages = numberOption('pages', 400);
const opensearchUrl = process.env.OPENSEARCH_URL ?? 'http://127.0.0.1:9200';
const dir = join(root, '.bench', 'feature-profile');
const profiles = join(dir, 'profiles');
rmSync(profiles, { recursive: true, force: true });
mkdirSync(profiles, { recursive: true });

/** Features by where their code lives in dist/ (the innermost matching frame of a sample wins). */
const FEATURES = /** @type {const} */ ([
  ['monitoring (metrics series, counters, console)', /\/dist\/(metrics|console)\//],
  ['rendering (adaptive detection)', /\/dist\/render\//],
  ['Tika (document shunt)', /\/dist\/(tika\/|parse\/shunt\.js)/],
  [
    'near-duplicates and soft 404s',
    /\/dist\/(dedup|soft404|fingerprint)\/|\/dist\/opensearch\/dedup-index\.js|simhash/i,
  ],
  ['feeds (detection in HTML)', /\/dist\/parse\/feed\//],
]);

/**
 * @typedef {{ id: number, callFrame: { url: string, functionName: string }, children?: number[] }} ProfileNode
 * @typedef {{ nodes: ProfileNode[], samples: number[], timeDeltas: number[] }} Profile
 */

/**
 * CPU microseconds of one profile by feature (and in all, idle excluded).
 * @param {Profile} p
 */
function charge(p) {
  /** @type {Map<number, number>} */
  const parent = new Map();
  /** @type {Map<number, ProfileNode>} */
  const byId = new Map();
  for (const n of p.nodes) {
    byId.set(n.id, n);
    for (const c of n.children ?? []) parent.set(c, n.id);
  }
  /** @type {Map<number, number>} node id -> feature index, -1 for the crawl's own, -2 for idle */
  const feature = new Map();
  /** @param {number} id @returns {number} */
  const featureOf = (id) => {
    const known = feature.get(id);
    if (known !== undefined) return known;
    const n = byId.get(id);
    let f = -1;
    if (n?.callFrame.functionName === '(idle)') f = -2;
    else if (n?.callFrame.url.includes('/dist/'))
      f = FEATURES.findIndex(([, re]) => re.test(n.callFrame.url));
    else {
      const up = parent.get(id);
      f = up === undefined ? -1 : featureOf(up);
    }
    feature.set(id, f);
    return f;
  };
  const us = FEATURES.map(() => 0);
  let total = 0;
  p.samples.forEach((id, i) => {
    const dt = p.timeDeltas[i] ?? 0;
    const f = featureOf(id);
    if (f === -2) return;
    total += dt;
    if (f >= 0) us[f] = (us[f] ?? 0) + dt;
  });
  return { us, total };
}

const { child, web } = await startSmallWeb(hosts, pages);
const client = new Client({ node: opensearchUrl });
const clear = () => deleteBenchIndices(client);
const port = await freePort();
const token = `bench-console-${process.pid}`;
const extra = {
  'metrics.interval': '10s',
  'opensearch.metrics.index.name': 'bench-metrics',
  'console.port': port,
  'console.token': token,
};
/** @type {import('./crawl.mjs').CrawlResult} */
let run;
const poll = pollConsole(port, token);
try {
  await clear();
  const conf = writeBenchConf(dir, root, { opensearchUrl, concurrency: 50, hosts, extra });
  run = await crawlEndToEnd({
    root,
    conf: conf.path,
    seeds: web.seeds,
    pids: { opensearch: openSearchPid(), web: child.pid },
    nodeArgs: ['--cpu-prof', '--cpu-prof-dir', profiles],
    log: (l) => console.log(l),
  });
  await clear();
} finally {
  poll.stop();
  child.kill('SIGTERM');
  await client.close();
}

const us = FEATURES.map(() => 0);
let total = 0;
const files = readdirSync(profiles).filter((f) => f.endsWith('.cpuprofile'));
for (const f of files) {
  const c = charge(JSON.parse(readFileSync(join(profiles, f), 'utf8')));
  c.us.forEach((v, i) => {
    us[i] = (us[i] ?? 0) + v;
  });
  total += c.total;
}
const fetched = run.fetched;
const lines = [
  '## What HTML pages pay for each feature, from a CPU profile (`npm run bench:feature-profile`)',
  '',
  `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${cpus().length} x ${cpus()[0]?.model.trim()}, ${Math.round(totalmem() / 2 ** 30)} GiB.`,
  `The small profile's web (${hosts} hosts x ${pages} pages of ~10 KB, plain HTML) crawled once end to end`,
  'with the defaults, the metrics series every 10 s and the console on, polled every 2 s as an open',
  'tab does and scraped every 15 s as Prometheus does; the crawler under `node --cpu-prof` (its',
  `${files.length === 1 ? 'one thread: parser.threads 0, the default' : `${files.length} threads`}). ${fetched.toLocaleString('en-US')} pages in ${run.secs.toFixed(1)} s; crawler CPU ${run.msPerPage.crawler.toFixed(2)} ms/page (profiled).`,
  "Each sample is charged to the project's code that did the work (the innermost frame of its stack in",
  "dist/: a library call, e.g. the OpenSearch client's for the metrics series, goes to its caller);",
  "what the features' code does not do is the crawl's own work.",
  '',
  '| feature | share of the crawler CPU | CPU ms per page |',
  '|---|---:|---:|',
];
FEATURES.forEach(([name], i) => {
  const share = (us[i] ?? 0) / total;
  lines.push(`| ${name} | ${(share * 100).toFixed(2)}% | ${(share * run.msPerPage.crawler).toFixed(3)} |`);
});
console.log(`\n${lines.join('\n')}`);
