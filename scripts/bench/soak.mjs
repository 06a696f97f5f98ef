// @ts-check
// `npm run soak`: a long crawl through faults, then a check that nothing was lost. Not part of
// `npm test` (30 minutes by default).
//
// A loopback web of a few hundred hosts (scripts/bench/soak-web.mjs) is crawled by
// `crawler run --workers 2` on a three-node OpenSearch cluster (scripts/opensearch with
// OPENSEARCH_NODES=3), refetching every page every SOAK_REFETCH_MINUTES, while faults come at random
// moments: a worker SIGKILLed (the supervisor starts it again), a node SIGKILLed and started again,
// hosts going down (connections refused) and coming back, hosts answering 429 or 503, slow hosts.
// The faults stop a while before the end (the drain), the crawl is stopped with SIGTERM, and the
// invariants are checked:
//   - every URL found (the outlinks of every FETCHED page, and the seeds) is in the status index;
//   - every URL due before the end was fetched or carries a recorded reason (a deferral, ERROR);
//   - no content document without a fetch behind it (FETCHED, or FETCH_ERROR after a 200: a failed
//     refetch keeps the last content, as in StormCrawler), none twice;
//   - no content document whose URL is ERROR or REDIRECTION (deleted, or removed by the reconcile);
//   - no URL fetched twice at the same time (two workers, or a worker and its restarted self);
//   - the crawler's RSS does not trend upward over the last two thirds of the run.
// The summary goes to scripts/bench/sections/soak.md, which report.mjs appends to RESULTS.md (and
// this script splices into the RESULTS.md there is now); exit 1 when an invariant fails.
//
// Environment: SOAK_MINUTES (30), SOAK_HOSTS (300), SOAK_PAGES (pages per host: SOAK_MINUTES, 5 to 30),
// SOAK_REFETCH_MINUTES (10), SOAK_SEED (27), OPENSEARCH_PORT (first node's HTTP port, 9400; the
// cluster takes three ports from it and is stopped at the end unless it was running or
// OPENSEARCH_KEEP=1), OPENSEARCH_HEAP (per node, 512m).

import { execFile } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client } from '@opensearch-project/opensearch';
import { writeCrossHostFilters } from './crawl.mjs';
import { CLI } from './dist.mjs';
import { runNode } from './proc.mjs';
import { spliceSection } from './sections.mjs';
import { createSoakWeb, linksOf, soakHost } from './soak-web.mjs';
import { rng } from './web.mjs';

const run = promisify(execFile);
const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const SCRIPT = join(root, 'scripts/opensearch');

const MINUTES = Number(process.env.SOAK_MINUTES ?? 30);
const HOSTS = Number(process.env.SOAK_HOSTS ?? 300);
// A shortened run gets a smaller web (a page per host per minute, 5 to 30), so that it can catch up
// within its drain on a busy machine: the invariants then test the faults, not the CPU.
const PAGES = Number(process.env.SOAK_PAGES ?? Math.min(30, Math.max(5, Math.round(MINUTES))));
const REFETCH_MINUTES = Number(process.env.SOAK_REFETCH_MINUTES ?? 10);
const SEED = Number(process.env.SOAK_SEED ?? 27);
const PORT = Number(process.env.OPENSEARCH_PORT ?? 9400);
const HEAP = process.env.OPENSEARCH_HEAP ?? '512m';
const NODES = 3;
const WORKERS = 2;
/** No faults in the last part of the run: everything is back, the crawl catches up. */
const DRAIN_MS = Math.max(90_000, MINUTES * 60_000 * 0.2);
/** A URL due this long before the stop must have been handled. */
const GRACE_MS = 60_000;
/** Mean time between two faults. */
const FAULT_MEAN_MS = 35_000;
/** A worker is only killed once it has run this long (the supervisor gives up on one that keeps dying young). */
const WORKER_MIN_AGE_MS = 90_000;
const STATUS = 'soak-status';
const CONTENT = 'soak-content';

const started = Date.now();
/** @type {(line: string) => void} */
const say = (line) => console.log(`[${((Date.now() - started) / 1000).toFixed(0).padStart(5)} s] ${line}`);
const sleep = (/** @type {number} */ ms) => new Promise((r) => setTimeout(r, ms));
const random = rng(SEED);
/** @type {<T>(xs: readonly T[]) => T} */
const pick = (xs) => /** @type {any} */ (xs[Math.floor(random() * xs.length)]);
/** @type {(a: number, b: number) => number} */
const between = (a, b) => a + random() * (b - a);

const clusterEnv = {
  ...process.env,
  OPENSEARCH_PORT: String(PORT),
  OPENSEARCH_NODES: String(NODES),
  OPENSEARCH_HEAP: HEAP,
};
const addresses = Array.from({ length: NODES }, (_, i) => `http://127.0.0.1:${PORT + i}`);

/** Node name -> pid of its JVM (scripts/opensearch status). */
async function nodePids() {
  const out = await run(SCRIPT, ['status'], { env: clusterEnv }).then(
    (r) => r.stdout,
    (/** @type {{ stdout?: string }} */ e) => e.stdout ?? '',
  );
  /** @type {Map<string, number>} */
  const pids = new Map();
  for (const m of out.matchAll(/^(node-\d+) running \S+ \(pid (\d+)/gm)) pids.set(String(m[1]), Number(m[2]));
  return pids;
}

async function startCluster() {
  await run(SCRIPT, ['start'], { env: clusterEnv, timeout: 900_000 });
}

/**
 * @param {Client} client
 * @param {number} [timeoutSecs]
 */
async function waitGreen(client, timeoutSecs = 600) {
  await client.cluster.health({
    wait_for_status: 'green',
    wait_for_nodes: String(NODES),
    timeout: `${timeoutSecs}s`,
  });
}

/**
 * Direct children of a process (the supervisor's workers).
 * @param {number} pid
 * @returns {number[]}
 */
function childrenOf(pid) {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

/** @param {number} pid */
function rssMb(pid) {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** Milliseconds a process has run (from /proc/<pid>/stat's start time). */
function ageMs(/** @type {number} */ pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const startTicks = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
    const uptime = Number(readFileSync('/proc/uptime', 'utf8').split(' ')[0]);
    return (uptime - startTicks / 100) * 1000;
  } catch {
    return 0;
  }
}

/**
 * Every document of an index, by scrolling.
 * @param {Client} client
 * @param {string} index
 * @param {string[]} fields
 * @returns {Promise<Record<string, any>[]>}
 */
async function scrollAll(client, index, fields) {
  await client.indices.refresh({ index });
  /** @type {Record<string, any>[]} */
  const out = [];
  let res = await client.search({
    index,
    scroll: '2m',
    body: { size: 5000, _source: fields, query: { match_all: {} } },
  });
  while (res.body.hits.hits.length > 0) {
    for (const h of res.body.hits.hits) out.push(/** @type {Record<string, any>} */ (h._source));
    const id = /** @type {string} */ (res.body._scroll_id);
    res = await client.scroll({ scroll_id: id, scroll: '2m' });
  }
  return out;
}

/**
 * Least-squares slope of y over x.
 * @param {readonly [number, number][]} points
 */
function slope(points) {
  const n = points.length;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  let num = 0;
  let den = 0;
  for (const [x, y] of points) {
    num += (x - mx) * (y - my);
    den += (x - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

// --- The run ----------------------------------------------------------------------------

const dir = join(root, '.bench', 'soak');
mkdirSync(dir, { recursive: true });
say(
  `soak: ${MINUTES} min, ${HOSTS} hosts x ${PAGES} pages, --workers ${WORKERS}, ${NODES}-node cluster on ${addresses.join(',')} (heap ${HEAP})`,
);

const wasRunning = (await nodePids()).size === NODES;
say(
  wasRunning
    ? 'the cluster is running'
    : 'starting the cluster (scripts/opensearch start, OPENSEARCH_NODES=3)',
);
await startCluster();
const client = new Client({ nodes: addresses, maxRetries: NODES, requestTimeout: 120_000 });
await waitGreen(client);

const web = createSoakWeb({ hosts: HOSTS, pages: PAGES });
await web.start();
say(`web: ${HOSTS} hosts on 127.27.x.y:${web.port}`);

// The checks count the links of every FETCHED page as found, other hosts' included (a host whose own
// chain broke is still reached through them), so the crawl follows them (the default HostURLFilter
// would drop them: each host here is an IP address, a domain of its own).
const urlfilters = writeCrossHostFilters(dir, root);
const conf = join(dir, 'soak.yaml');
writeFileSync(
  conf,
  [
    `urlfilters.config.file: "${urlfilters}"`,
    `opensearch.addresses: "${addresses.join(',')}"`,
    `opensearch.status.index.name: "${STATUS}"`,
    `opensearch.indexer.index.name: "${CONTENT}"`,
    'http.agent.name: "soakbot"',
    'http.filter.ipaddress.exclude: []',
    `fetchInterval.default: ${REFETCH_MINUTES}`,
    // One line per status update (most of the log, ~10 MB): a URL the checks find lost can be traced
    // through the transitions of the pages that link to it.
    'status.transitions.log: true',
    // The soak's pages are alike: all indexed, and no soft-404 probes (the checks measure the cluster).
    'dedup.mode: "off"',
    'soft404.enabled: false',
    // The reconcile (content of ERROR/REDIRECTION URLs left by a killed worker) several times a run.
    'opensearch.indexer.reconcile.interval: "5m"',
    '',
  ].join('\n'),
);
const seeds = join(dir, 'seeds.txt');
writeFileSync(seeds, `${Array.from({ length: HOSTS }, (_, h) => web.url(h, 0)).join('\n')}\n`);
for (const args of [
  ['init', '--recreate', '--yes', '--conf', conf],
  ['inject', seeds, '--conf', conf],
]) {
  const { code, err } = await runNode([CLI, ...args, '--log-level', 'warn']).done;
  if (code !== 0) throw new Error(`crawler ${args[0]} failed (${code}): ${err.join('\n')}`);
}
await waitGreen(client);

// The crawler: a supervisor of two workers, its log kept in a file, the lines that matter counted.
const logFile = join(dir, 'crawler.log');
const logStream = createWriteStream(logFile);
/** @type {Record<string, number>} */
const logCounts = {};
/** @type {string[]} */
const warnings = [];
const COUNTED = [
  'OpenSearch cannot be reached',
  'OpenSearch is back',
  'OpenSearch shards unavailable',
  'OpenSearch shards available again',
  'status update failed',
  'content write failed',
];
const crawlStart = Date.now();
const crawl = runNode([CLI, 'run', '--workers', String(WORKERS), '--conf', conf], {
  env: { LOG_FORMAT: 'json' },
  onLine: (_stream, line) => {
    logStream.write(`${typeof line === 'string' ? line : JSON.stringify(line)}\n`);
    if (typeof line !== 'object') return;
    const msg = String(line.msg ?? '');
    for (const c of COUNTED) if (msg.startsWith(c)) logCounts[c] = (logCounts[c] ?? 0) + 1;
    if (Number(line.level) >= 40 && warnings.length < 200) warnings.push(msg.slice(0, 200));
  },
});
const supervisor = /** @type {number} */ (crawl.child.pid);
crawl.done.then(({ code }) => say(`crawler exited with ${code}`));

// RSS of the supervisor and each worker, every 5 s.
/** @type {{ t: number, pid: number, role: 'supervisor' | 'worker', mb: number }[]} */
const rss = [];
const sampler = setInterval(() => {
  const t = Date.now();
  rss.push({ t, pid: supervisor, role: 'supervisor', mb: rssMb(supervisor) });
  for (const pid of childrenOf(supervisor)) rss.push({ t, pid, role: 'worker', mb: rssMb(pid) });
}, 5000);

// --- Faults -----------------------------------------------------------------------------
/** @type {Record<string, number>} */
const faults = {};
/** @type {{ t: number, kind: string, detail: string }[]} */
const faultLog = [];
/** @param {string} kind @param {string} detail */
function record(kind, detail) {
  faults[kind] = (faults[kind] ?? 0) + 1;
  faultLog.push({ t: Date.now() - crawlStart, kind, detail });
  say(`fault: ${kind} ${detail}`);
}
/** @type {Set<Promise<void>>} */
const restorations = new Set();
/** @param {() => Promise<void>} f */
function later(f) {
  const p = f().finally(() => restorations.delete(p));
  restorations.add(p);
}
let nodeFault = false;
/** @type {Set<number>} */
const troubledHosts = new Set();

/** @param {'down' | '429' | '503' | 'slow'} mode */
async function hostFault(mode) {
  const count = Math.max(1, Math.round(HOSTS * 0.05));
  /** @type {number[]} */
  const chosen = [];
  for (let tries = 0; chosen.length < count && tries < count * 20; tries++) {
    const h = Math.floor(random() * HOSTS);
    if (!troubledHosts.has(h) && !chosen.includes(h)) chosen.push(h);
  }
  for (const h of chosen) {
    troubledHosts.add(h);
    await web.setMode(h, mode);
  }
  const ms = between(30_000, 120_000);
  record(`hosts ${mode}`, `${chosen.length} hosts for ${Math.round(ms / 1000)} s`);
  later(async () => {
    await sleep(ms);
    for (const h of chosen) {
      await web.setMode(h, 'ok');
      troubledHosts.delete(h);
    }
  });
}

async function workerKill() {
  const old = childrenOf(supervisor).filter((pid) => ageMs(pid) > WORKER_MIN_AGE_MS);
  if (old.length === 0) return false;
  const pid = pick(old);
  process.kill(pid, 'SIGKILL');
  record('worker SIGKILL', `pid ${pid}`);
  return true;
}

async function nodeKill() {
  if (nodeFault) return false;
  const pids = await nodePids();
  if (pids.size < NODES) return false;
  const [name, pid] = pick([...pids]);
  nodeFault = true;
  process.kill(pid, 'SIGKILL');
  const ms = between(20_000, 60_000);
  record('node SIGKILL and restart', `${name} (pid ${pid}), started again after ${Math.round(ms / 1000)} s`);
  later(async () => {
    await sleep(ms);
    await startCluster();
    await waitGreen(client);
    nodeFault = false;
  });
  return true;
}

const faultsEnd = started + MINUTES * 60_000 - DRAIN_MS;
const crawlEnd = started + MINUTES * 60_000;
// Faults start once the crawl is under way.
while (web.log.length < 50 && Date.now() < faultsEnd) await sleep(1000);
while (true) {
  const wait = -Math.log(1 - random()) * FAULT_MEAN_MS;
  if (Date.now() + wait >= faultsEnd) break;
  await sleep(wait);
  const kind = pick(/** @type {const} */ (['worker', 'node', 'down', '429', '503', 'slow']));
  if (kind === 'worker') {
    if (!(await workerKill())) await hostFault('slow');
  } else if (kind === 'node') {
    if (!(await nodeKill())) await hostFault('down');
  } else {
    await hostFault(kind);
  }
}
say(`drain: no more faults; ${restorations.size} restorations pending`);
// Hosts back at once; a node down is started again now.
for (let h = 0; h < HOSTS; h++) await web.setMode(h, 'ok');
await Promise.all([...restorations].map((p) => p.catch(() => {})));
await startCluster();
await waitGreen(client);
const drainedAt = Date.now();
if (crawlEnd > Date.now()) await sleep(crawlEnd - Date.now());

// --- Stop and check ---------------------------------------------------------------------
const stopAt = Date.now();
say('stopping the crawler (SIGTERM)');
crawl.child.kill('SIGTERM');
const { code } = await crawl.done;
clearInterval(sampler);
logStream.end();

say('checking the invariants');
const statusDocs = await scrollAll(client, STATUS, ['url', 'status', 'nextFetchDate', 'metadata']);
const contentDocs = await scrollAll(client, CONTENT, ['url']);
const hostIndex = new Map(Array.from({ length: HOSTS }, (_, h) => [soakHost(h), h]));
/** @type {Map<string, Record<string, any>>} */
const byUrl = new Map(statusDocs.map((d) => [String(d.url), d]));
/** @type {Record<string, number>} */
const byStatus = {};
for (const d of statusDocs) byStatus[d.status] = (byStatus[d.status] ?? 0) + 1;

/** @param {Record<string, any>} d @param {string} key */
const meta = (d, key) => d.metadata?.[key.replaceAll('.', '%2E')];
// 1. Every URL found is known.
/** @type {Set<string>} */
const found = new Set(Array.from({ length: HOSTS }, (_, h) => web.url(h, 0)));
for (const d of statusDocs) {
  if (d.status !== 'FETCHED') continue;
  const u = new URL(String(d.url));
  const h = hostIndex.get(u.hostname);
  const i = Number(/^\/p(\d+)$/.exec(u.pathname)?.[1]);
  if (h === undefined || !Number.isInteger(i)) continue;
  for (const l of linksOf(h, i, HOSTS, PAGES)) found.add(web.url(l.host, l.page));
}
const missing = [...found].filter((u) => !byUrl.has(u));
// 2. Every URL due before the end was fetched or carries a reason.
const dueBy = stopAt - GRACE_MS;
const overdue = statusDocs.filter(
  (d) =>
    d.status !== 'ERROR' &&
    meta(d, 'defer.cause') === undefined &&
    d.nextFetchDate !== undefined &&
    Date.parse(d.nextFetchDate) < dueBy,
);
// 3. Content documents: each of a URL fetched, none twice. A FETCH_ERROR URL keeps the content of
// its last good fetch (a refetch that failed, host down or 503: only ERROR and REDIRECTION delete
// content, as in StormCrawler), so its document is an orphan only when the web never served it.
const contentByUrl = new Map();
for (const c of contentDocs) contentByUrl.set(c.url, (contentByUrl.get(c.url) ?? 0) + 1);
const served = new Set(web.log.filter((r) => r.status === 200).map((r) => r.url));
const keptAfterError = new Set(
  [...contentByUrl.keys()].filter((u) => byUrl.get(u)?.status === 'FETCH_ERROR' && served.has(u)),
);
const orphans = [...contentByUrl.keys()].filter(
  (u) => byUrl.get(u)?.status !== 'FETCHED' && !keptAfterError.has(u),
);
const contentTwice = [...contentByUrl.values()].filter((n) => n > 1).length;
// ... and none of a URL whose status is ERROR or REDIRECTION (its deletion, or the reconcile, removed it).
const goneWithContent = [...contentByUrl.keys()].filter((u) =>
  ['ERROR', 'REDIRECTION'].includes(byUrl.get(u)?.status),
);
// 4. No URL fetched twice at the same time.
/** @type {Map<string, import('./soak-web.mjs').Logged[]>} */
const requestsByUrl = new Map();
for (const r of web.log) {
  const list = requestsByUrl.get(r.url) ?? [];
  list.push(r);
  requestsByUrl.set(r.url, list);
}
let overlaps = 0;
/** @type {string[]} */
const overlapSamples = [];
for (const [u, list] of requestsByUrl) {
  list.sort((a, b) => a.start - b.start);
  for (let i = 1; i < list.length; i++) {
    const prevEnd = list[i - 1]?.end || Number.POSITIVE_INFINITY;
    if (/** @type {import('./soak-web.mjs').Logged} */ (list[i]).start < prevEnd) {
      overlaps++;
      if (overlapSamples.length < 5) overlapSamples.push(u);
    }
  }
}
const pagesServed = web.log.filter((r) => r.status === 200 && /\/p\d+$/.test(r.url)).length;
const maxFetches = Math.max(0, ...[...requestsByUrl.values()].map((l) => l.length));
// 5. RSS over the last two thirds: per process that lived through at least half of that window.
const windowStart = crawlStart + (stopAt - crawlStart) / 3;
const windowMin = (stopAt - windowStart) / 60_000;
/** @type {Map<number, typeof rss>} */
const series = new Map();
for (const s of rss)
  if (s.t >= windowStart && Number.isFinite(s.mb)) series.set(s.pid, [...(series.get(s.pid) ?? []), s]);
const trends = [...series.values()]
  .filter((ss) => ss.length >= 6 && (ss.at(-1)?.t ?? 0) - (ss[0]?.t ?? 0) >= (stopAt - windowStart) * 0.5)
  .map((ss) => {
    const mean = ss.reduce((n, s) => n + s.mb, 0) / ss.length;
    const perMin = slope(ss.map((s) => [(s.t - windowStart) / 60_000, s.mb]));
    const first = /** @type {(typeof rss)[number]} */ (ss[0]);
    return { pid: first.pid, role: first.role, mean, perMin, growth: perMin * windowMin, samples: ss.length };
  });
const rssUp = trends.filter((t) => t.growth > Math.max(25, 0.15 * t.mean));
const workerTrends = trends.filter((t) => t.role === 'worker');
const peakRss = Math.max(0, ...rss.filter((s) => Number.isFinite(s.mb)).map((s) => s.mb));

const invariants = [
  [
    'every URL found is in the status index',
    missing.length === 0,
    `${missing.length} missing of ${found.size}`,
  ],
  [
    `every URL due before the end (${GRACE_MS / 1000} s grace) fetched or with a reason`,
    overdue.length === 0,
    `${overdue.length} overdue without a reason`,
  ],
  [
    'no content document without a fetch behind it (FETCHED, or FETCH_ERROR after a 200)',
    orphans.length === 0,
    `${orphans.length} (FETCH_ERROR keeping its last content: ${keptAfterError.size})`,
  ],
  ['no content document twice', contentTwice === 0, `${contentTwice}`],
  [
    'no content document whose URL is ERROR or REDIRECTION',
    goneWithContent.length === 0,
    `${goneWithContent.length}`,
  ],
  ['no URL fetched twice at the same time', overlaps === 0, `${overlaps}`],
  [
    'crawler RSS flat over the last two thirds',
    rssUp.length === 0,
    `${rssUp.length} of ${trends.length} processes growing`,
  ],
  ['the crawler stopped cleanly (exit 0)', code === 0, `exit ${code}`],
];
const ok = invariants.every(([, pass]) => pass);

// --- Report -----------------------------------------------------------------------------
/** @type {(n: number) => string} */
const f0 = (n) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : 'n/a');
/** @type {(n: number) => string} */
const f1 = (n) => (Number.isFinite(n) ? n.toFixed(1) : 'n/a');
const faultText = Object.entries(faults)
  .map(([k, n]) => `${k} ${n}`)
  .join(', ');
const lost = missing.length + overdue.length + orphans.length;
const section = `## Soak: ${f0(MINUTES)} minutes of crawling through faults (\`npm run soak\`)

${new Date(started).toISOString().slice(0, 16).replace('T', ' ')} UTC, ${cpus().length} x ${cpus()[0]?.model.trim()}, ${Math.round(totalmem() / 2 ** 30)} GiB (shared with other work: figures are of a busy machine).
\`crawler run --workers ${WORKERS}\` on a ${NODES}-node OpenSearch cluster (scripts/opensearch, OPENSEARCH_NODES=3, ${HEAP} heap
each, replicas "auto" = 1) over a loopback web of ${f0(HOSTS)} hosts x ${f0(PAGES)} pages (politeness defaults: 1 s
between requests to a host), every page due again ${REFETCH_MINUTES} minutes after its fetch. Faults at random
moments (seed ${SEED}, one every ${FAULT_MEAN_MS / 1000} s on average) until ${f1(DRAIN_MS / 60_000)} minutes before the end; then the
crawl is stopped with SIGTERM and checked. Exit 1 when an invariant fails.

| figure | value |
|---|---|
| faults injected | ${faultText || 'none'} |
| URLs in the status index | ${f0(statusDocs.length)} (${Object.entries(byStatus)
  .map(([k, v]) => `${k} ${f0(v)}`)
  .join(', ')}) |
| pages served (200), requests in all | ${f0(pagesServed)}, ${f0(web.log.length)} (at most ${f0(maxFetches)} of one URL) |
| content documents | ${f0(contentDocs.length)} |
| **lost** (found URLs missing + due and unhandled + content never fetched) | **${f0(lost)}** |
| duplicates (URLs fetched twice at once + content documents twice) | ${f0(overlaps + contentTwice)} |
| crawler RSS, last two thirds | workers: mean ${workerTrends.map((t) => f0(t.mean)).join(' / ') || 'n/a'} MB, trend ${workerTrends.map((t) => `${t.perMin >= 0 ? '+' : ''}${f1(t.perMin)}`).join(' / ') || 'n/a'} MB/min; peak ${f0(peakRss)} MB |
| outage lines in the log (unreachable start/end, shards unavailable start/end) | ${f0(logCounts['OpenSearch cannot be reached'] ?? 0)}/${f0(logCounts['OpenSearch is back'] ?? 0)}, ${f0(logCounts['OpenSearch shards unavailable'] ?? 0)}/${f0(logCounts['OpenSearch shards available again'] ?? 0)} |
| writes given up (status / content) | ${f0(logCounts['status update failed'] ?? 0)} / ${f0(logCounts['content write failed'] ?? 0)} |

| invariant | held | detail |
|---|---|---|
${invariants.map(([name, pass, detail]) => `| ${name} | ${pass ? 'yes' : '**NO**'} | ${detail} |`).join('\n')}
`;
console.log(`\n${section}`);
if (!ok) {
  say(`missing: ${missing.slice(0, 5).join(' ')}`);
  say(
    `overdue: ${overdue
      .slice(0, 5)
      .map((d) => `${d.url} ${d.status} ${d.nextFetchDate}`)
      .join(' | ')}`,
  );
  say(`orphans: ${orphans.slice(0, 5).join(' ')}`);
  say(`overlaps: ${overlapSamples.join(' ')}`);
  say(`rss: ${JSON.stringify(trends)}`);
}
writeFileSync(join(dir, 'faults.json'), JSON.stringify({ faultLog, warnings, logCounts, trends }, null, 1));
mkdirSync(join(here, 'sections'), { recursive: true });
writeFileSync(join(here, 'sections', 'soak.md'), section);
spliceSection(join(here, 'RESULTS.md'), 'soak', section);
say(
  `summary written to scripts/bench/sections/soak.md and RESULTS.md; crawler log ${logFile}; drained for ${f1((stopAt - drainedAt) / 60_000)} min`,
);

await web.close();
await client.close();
if (!wasRunning && process.env.OPENSEARCH_KEEP !== '1') {
  say('stopping the cluster');
  await run(SCRIPT, ['stop'], { env: clusterEnv });
}
process.exit(ok ? 0 : 1);
