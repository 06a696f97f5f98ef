// Usage: npm run build && OPENSEARCH_URL=http://127.0.0.1:9530 node scripts/bench/frontier-threads.mjs <OpenSearch pid> per-key 50
// (after scripts/bench/frontier.mjs loaded its index bench-frontier-status).
// Per-thread CPU of the OpenSearch JVM (jcmd Thread.print: cpu=...ms) around N spout queries of a form,
// so that background work (GC, refresh, merges) is told apart from the searches' own cost.
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { Client } from '@opensearch-project/opensearch';
import { dist } from './dist.mjs';

const { selectDue } = await dist('opensearch/spout/select.js');
const [pid = '', formArg = 'per-key', runsArg] = process.argv.slice(2);
const form = /** @type {import('../../src/opensearch/spout/query.js').QueryForm} */ (formArg);
const runs = Number(runsArg ?? 50);
const client = new Client({ node: process.env.OPENSEARCH_URL, requestTimeout: 600_000 });
const NOW = Date.parse('2026-12-06T00:00:00Z');
function threads() {
  const out = execFileSync('jcmd', [pid, 'Thread.print'], { encoding: 'utf8', maxBuffer: 64 << 20 });
  /** @type {Map<string, number>} */
  const m = new Map();
  for (const line of out.split('\n')) {
    const r = /^"([^"]+)".*cpu=([\d.]+)ms/.exec(line);
    if (r?.[1]) m.set(r[1], Number(r[2]));
  }
  return m;
}
let step = 0;
const run = () =>
  selectDue(
    client,
    form,
    {
      queryDate: new Date(NOW + 500_000 + ++step * 1000).toISOString(),
      maxBuckets: 50,
      maxUrlsPerBucket: 2,
      filterQueries: [],
      timeoutSecs: -1,
    },
    { index: 'bench-frontier-status' },
  );
for (let i = 0; i < 10; i++) await run();
const a = threads();
const t = performance.now();
for (let i = 0; i < runs; i++) await run();
const wall = (performance.now() - t) / runs;
const b = threads();
/** @type {Record<string, number>} */
const cat = {};
for (const [name, cpu] of b) {
  const d = cpu - (a.get(name) ?? 0);
  const k = /\[search\]/.test(name)
    ? 'search'
    : /http|transport/.test(name)
      ? 'network'
      : /GC|G1/.test(name)
        ? 'gc'
        : /C2|C1|Compiler/.test(name)
          ? 'jit'
          : (/\[(refresh|flush|merge|generic|management)\]/.exec(name)?.[1] ?? 'other');
  cat[k] = (cat[k] ?? 0) + d;
}
for (const k of Object.keys(cat)) cat[k] = Math.round(((cat[k] ?? 0) / runs) * 10) / 10;
console.log(
  JSON.stringify({
    form,
    runs,
    wallMsPerQuery: Math.round(wall),
    cpuMsPerQueryByThread: cat,
    load1: loadavg()[0],
  }),
);
await client.close();
