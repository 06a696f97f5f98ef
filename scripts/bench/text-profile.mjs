// @ts-check
// Where the stored text's cost goes, end to end (issue 42 point 8): the small profile's web crawled
// with the defaults (main content + Markdown) and with whole-page text without Markdown, rounds
// alternated, the crawler under `node --cpu-prof`; each variant's samples summed by function (self
// time, and total time: every function on the sample's stack once) and divided by its pages, then
// the functions listed by how much more CPU per page the defaults spend in them. The profile
// survives a busy machine where a crawl's CPU figure does not: the split is of one process's own
// samples.
//
//   node scripts/bench/text-profile.mjs [--hosts 20 --pages 250 --rounds 2 --profile large --top 40]
// (needs OpenSearch at OPENSEARCH_URL, default http://127.0.0.1:9200; OPENSEARCH_PORT names the
// local node, as in features.mjs).

import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@opensearch-project/opensearch';
import { crawlEndToEnd, deleteBenchIndices, writeBenchConf } from './crawl.mjs';
import { openSearchPid, startSmallWeb } from './dedup.mjs';
import { numberOption } from './proc.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const hosts = numberOption('hosts', 20);
const pages = numberOption('pages', 250);
const rounds = numberOption('rounds', 2);
const top = numberOption('top', 40);
const profileAt = process.argv.indexOf('--profile');
const profile = profileAt >= 0 ? (process.argv[profileAt + 1] ?? 'small') : 'small';
const opensearchUrl = process.env.OPENSEARCH_URL ?? 'http://127.0.0.1:9200';
const dir = join(root, '.bench', 'text-profile');
mkdirSync(dir, { recursive: true });

/** @type {Record<string, Record<string, unknown>>} */
const variants = {
  defaults: {},
  whole: { 'textextractor.whole.page': true, 'textextractor.markdown': false },
};

/**
 * @typedef {{ id: number, callFrame: { url: string, functionName: string, lineNumber: number }, children?: number[] }} ProfileNode
 * @typedef {{ nodes: ProfileNode[], samples: number[], timeDeltas: number[] }} Profile
 */

/** @param {ProfileNode['callFrame']} f */
const keyOf = (f) =>
  `${f.functionName || '(anonymous)'} ${f.url ? `${basename(f.url)}:${f.lineNumber + 1}` : ''}`.trim();

/**
 * Adds one profile's self and total microseconds by function to `self` and `total`.
 * @param {Profile} p @param {Map<string, number>} self @param {Map<string, number>} total
 */
function add(p, self, total) {
  /** @type {Map<number, ProfileNode>} */
  const byId = new Map();
  /** @type {Map<number, number>} */
  const parent = new Map();
  for (const n of p.nodes) {
    byId.set(n.id, n);
    for (const c of n.children ?? []) parent.set(c, n.id);
  }
  /** @type {Map<number, string[]>} the distinct function keys on a node's stack */
  const stacks = new Map();
  /** @param {number} id @returns {string[]} */
  const stackOf = (id) => {
    const known = stacks.get(id);
    if (known) return known;
    const n = byId.get(id);
    const up = parent.get(id);
    const above = up === undefined ? [] : stackOf(up);
    const k = n ? keyOf(n.callFrame) : '?';
    const s = above.includes(k) ? above : [...above, k];
    stacks.set(id, s);
    return s;
  };
  p.samples.forEach((id, i) => {
    const dt = p.timeDeltas[i] ?? 0;
    const n = byId.get(id);
    if (!n || n.callFrame.functionName === '(idle)') return;
    const k = keyOf(n.callFrame);
    self.set(k, (self.get(k) ?? 0) + dt);
    for (const f of stackOf(id)) total.set(f, (total.get(f) ?? 0) + dt);
  });
}

const { child, web } = await startSmallWeb(hosts, pages, profile);
const client = new Client({ node: opensearchUrl });
/** @type {Record<string, { self: Map<string, number>, total: Map<string, number>, pages: number, cpu: number }>} */
const sums = {};
try {
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 === 0 ? Object.keys(variants) : Object.keys(variants).reverse();
    for (const name of order) {
      await deleteBenchIndices(client);
      const conf = writeBenchConf(dir, root, {
        opensearchUrl,
        concurrency: 50,
        hosts,
        extra: { ...variants[name], 'opensearch.metrics.index.name': 'bench-metrics' },
      });
      const profiles = join(dir, `profiles-${name}`);
      rmSync(profiles, { recursive: true, force: true });
      mkdirSync(profiles, { recursive: true });
      const run = await crawlEndToEnd({
        root,
        conf: conf.path,
        seeds: web.seeds,
        pids: { opensearch: openSearchPid(), web: child.pid },
        nodeArgs: ['--cpu-prof', '--cpu-prof-dir', profiles],
      });
      sums[name] ??= { self: new Map(), total: new Map(), pages: 0, cpu: 0 };
      const s = sums[name];
      s.pages += run.fetched;
      s.cpu += run.msPerPage.crawler * run.fetched;
      for (const f of readdirSync(profiles).filter((x) => x.endsWith('.cpuprofile')))
        add(JSON.parse(readFileSync(join(profiles, f), 'utf8')), s.self, s.total);
      console.log(
        `round ${r + 1} ${name}: ${run.fetched} pages, crawler ${run.msPerPage.crawler.toFixed(2)} ms/page`,
      );
    }
  }
  await deleteBenchIndices(client);
} finally {
  child.kill('SIGTERM');
  await client.close();
}

const a = sums.defaults;
const b = sums.whole;
if (!a || !b) throw new Error('no runs');
/** @param {Map<string, number>} m @param {number} n @param {string} k */
const per = (m, n, k) => (m.get(k) ?? 0) / 1000 / n;
const allSelf = (/** @type {Map<string, number>} */ m) => [...m.values()].reduce((x, y) => x + y, 0);
console.log(
  `\nprofiled CPU ms/page: defaults ${(allSelf(a.self) / 1000 / a.pages).toFixed(3)}, whole ${(allSelf(b.self) / 1000 / b.pages).toFixed(3)} (crawl figures ${(a.cpu / a.pages).toFixed(2)} / ${(b.cpu / b.pages).toFixed(2)})`,
);
for (const [label, ma, mb] of /** @type {const} */ ([
  ['self', a.self, b.self],
  ['total', a.total, b.total],
])) {
  const keys = new Set([...ma.keys(), ...mb.keys()]);
  const rows = [...keys]
    .map((k) => ({ k, da: per(ma, a.pages, k), db: per(mb, b.pages, k) }))
    .sort((x, y) => Math.abs(y.da - y.db) - Math.abs(x.da - x.db))
    .slice(0, top);
  console.log(`\n${label} time, ms per page: defaults / whole / difference`);
  for (const r of rows)
    console.log(
      `${r.da.toFixed(4)}\t${r.db.toFixed(4)}\t${(r.da - r.db >= 0 ? '+' : '') + (r.da - r.db).toFixed(4)}\t${r.k}`,
    );
}
