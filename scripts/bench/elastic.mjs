// Throughput of an elastic crawl (`crawler run --join`, issue 45) with 1, 2 and 3 members, fetching
// bound by latency rather than CPU: every page answers after LATENCY_MS, and each process fetches at
// most THREADS pages at once (fetcher.threads.number), over HOSTS hosts (politeness never binds).
// Pages/s are counted by the test web itself, over WINDOW_S seconds once every member crawls.
//
//   OPENSEARCH_URL=http://127.0.0.1:9330 node scripts/bench/elastic.mjs [members...]
//
// Needs dist/ (npm run build). Prints one JSON line per member count, and the ratios to one.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@opensearch-project/opensearch';

const OPENSEARCH = process.env.OPENSEARCH_URL || 'http://127.0.0.1:9200';
const HOSTS = Number(process.env.HOSTS ?? 36);
const LATENCY_MS = Number(process.env.LATENCY_MS ?? 1000);
const THREADS = Number(process.env.THREADS ?? 4);
const WINDOW_S = Number(process.env.WINDOW_S ?? 45);
const SHARDS = 12;
const counts = (process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['1', '2', '3']).map(Number);
const client = new Client({ node: OPENSEARCH });

// The web: hosts 127.0.46.1.. on one port, each an endless chain of pages (i links to i+1..i+3).
const hosts = Array.from({ length: HOSTS }, (_, i) => `127.0.46.${i + 1}`);
/** @type {number[]} */
const log = [];
const servers = [];
let port = 0;
for (const h of hosts) {
  const server = createServer((req, res) => {
    if (req.url === '/robots.txt') return res.writeHead(404).end();
    log.push(Date.now());
    const i = Number(/\/p(\d+)/.exec(req.url ?? '')?.[1] ?? 0);
    setTimeout(() => {
      const links = [1, 2, 3].map((d) => `<a href="/p${i + d}">next ${i + d}</a>`).join(' ');
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(
        `<!doctype html><html><head><title>${h} ${i}</title></head><body><p>Page ${i} of ${h}, some words.</p>${links}</body></html>`,
      );
    }, LATENCY_MS);
  });
  await new Promise((r) => server.listen(port, h, () => r(undefined)));
  port = /** @type {import('node:net').AddressInfo} */ (server.address()).port;
  servers.push(server);
}

const sleep = (/** @type {number} */ ms) => new Promise((r) => setTimeout(r, ms));

/** @param {number} members */
async function run(members) {
  const id = `bench-elastic-${members}-${Date.now().toString(36)}`;
  const conf = join(mkdtempSync(join(tmpdir(), 'elastic-bench-')), 'crawl.yaml');
  writeFileSync(
    conf,
    [
      `opensearch.addresses: ${OPENSEARCH}`,
      `opensearch.status.index.name: ${id}-status`,
      `opensearch.indexer.index.name: ${id}-content`,
      `opensearch.lease.index.name: ${id}-leases`,
      `opensearch.hosts.index.name: ${id}-hosts`,
      `status.transitions.index.name: ${id}-transitions`,
      `opensearch.status.shards: ${SHARDS}`,
      'opensearch.lease.ttl: 6000',
      'http.agent.name: elasticbench',
      'http.filter.ipaddress.exclude: []',
      'http.timeout: 10000',
      `fetcher.threads.number: ${THREADS}`,
      'fetcher.server.delay: 0.2',
      'spout.min.delay.queries: 100',
      'soft404.enabled: false',
      'dedup.mode: off',
      'console.port: 0',
    ].join('\n'),
  );
  const seeds = hosts.flatMap((h) => ['--seed', `http://${h}:${port}/p0`]);
  const procs = [];
  for (let m = 0; m < members; m++) {
    const p = spawn(
      process.execPath,
      ['dist/cli/main.js', 'run', '--join', '--conf', conf, ...(m === 0 ? seeds : [])],
      {
        env: { ...process.env, LOG_FORMAT: 'json', LOG_LEVEL: 'warn', OPENSEARCH_URL: '' },
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
    procs.push(p);
  }
  // Every member crawling its share: each holds leases, and the shares are fair.
  const deadline = Date.now() + 300_000;
  for (;;) {
    if (Date.now() > deadline) throw new Error('members did not reach fair shares');
    await sleep(1000);
    const ids = Array.from({ length: SHARDS }, (_, s) => `${id}-status#${s}`);
    const res = await client.mget({ index: `${id}-leases`, body: { ids } }).catch(() => undefined);
    const docs = /** @type {any[]} */ (res?.body.docs ?? []);
    const by = new Map();
    for (const d of docs)
      if (d.found && d._source.token) by.set(d._source.share, (by.get(d._source.share) ?? 0) + 1);
    const sizes = [...by.values()];
    if (
      by.size === members &&
      sizes.reduce((a, b) => a + b, 0) === SHARDS &&
      Math.max(...sizes) - Math.min(...sizes) <= 1
    )
      break;
  }
  await sleep(15_000);
  const from = Date.now();
  await sleep(WINDOW_S * 1000);
  const to = Date.now();
  const pages = log.filter((t) => t >= from && t < to).length;
  const cpu = await Promise.all(
    procs.map((p) => import('node:fs').then((fs) => fs.readFileSync(`/proc/${p.pid}/stat`, 'utf8'))),
  );
  for (const p of procs) p.kill('SIGTERM');
  await Promise.all(procs.map((p) => new Promise((r) => p.on('close', r))));
  await client.indices.delete({ index: `${id}-*` }).catch(() => {});
  const ticks = cpu
    .map((s) => s.slice(s.lastIndexOf(')') + 2).split(' '))
    .map((f) => Number(f[11]) + Number(f[12]));
  return { members, pagesPerSec: Math.round((pages / ((to - from) / 1000)) * 100) / 100, cpuTicks: ticks };
}

const results = [];
for (const m of counts) {
  const r = await run(m);
  results.push(r);
  console.log(
    JSON.stringify({ ...r, hosts: HOSTS, latencyMs: LATENCY_MS, threads: THREADS, windowS: WINDOW_S }),
  );
}
const one = results.find((r) => r.members === 1);
if (one)
  for (const r of results)
    console.log(
      `${r.members} member(s): ${(r.pagesPerSec / one.pagesPerSec).toFixed(2)}x the pages/s of one`,
    );
for (const s of servers) s.close();
await client.close();
