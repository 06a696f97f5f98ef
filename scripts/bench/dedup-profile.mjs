// @ts-check
// Where near-duplicates and soft 404s spend the crawler's CPU on a web without near-duplicates
// (issue 43 point 4): the small profile's web crawled end to end with the defaults and with both
// features off (features.mjs's `near-dups and soft 404s off`), each under `node --cpu-prof`, in
// paired rounds; the crawler's self time by function (and GC) summed over the rounds, and the
// functions whose time differs most between the two. Then, on the defaults' content index as the
// last crawl left it, one group lookup as the judge sends it (the judge's mean group size), with
// its request and response bytes and OpenSearch's own profile of the candidate search.
//
//   node scripts/bench/dedup-profile.mjs [--hosts 20 --pages 250 --rounds 1 --top 40]
// (needs OpenSearch at OPENSEARCH_URL, OPENSEARCH_PORT its port; run `npm run build` first)

import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@opensearch-project/opensearch';
import { crawlEndToEnd, deleteBenchIndices, writeBenchConf } from './crawl.mjs';
import { dedupOffSettings, openSearchPid, startSmallWeb } from './dedup.mjs';
import { numberOption } from './proc.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const hosts = numberOption('hosts', 20);
const pages = numberOption('pages', 250);
const rounds = numberOption('rounds', 1);
const top = numberOption('top', 40);
const opensearchUrl = process.env.OPENSEARCH_URL ?? 'http://127.0.0.1:9200';
const dir = join(root, '.bench', 'dedup-profile');
mkdirSync(dir, { recursive: true });

/**
 * @typedef {{ id: number, callFrame: { url: string, functionName: string, lineNumber: number }, children?: number[] }} ProfileNode
 * @typedef {{ nodes: ProfileNode[], samples: number[], timeDeltas: number[] }} Profile
 */

/** Self microseconds by "function file:line", idle left out. @param {Profile} p @param {Map<string, number>} into */
function selfTimes(p, into) {
  /** @type {Map<number, ProfileNode>} */
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  let total = 0;
  p.samples.forEach((id, i) => {
    const n = byId.get(id);
    const dt = p.timeDeltas[i] ?? 0;
    if (!n || n.callFrame.functionName === '(idle)' || n.callFrame.functionName === '(program)') return;
    const url = n.callFrame.url.replace(/^.*\/(dist|node_modules)\//, '$1/').replace(/^node:/, '');
    const key = `${n.callFrame.functionName || '(anon)'} ${url}:${n.callFrame.lineNumber + 1}`;
    into.set(key, (into.get(key) ?? 0) + dt);
    total += dt;
  });
  return total;
}

/** Self microseconds by file (dist/... or node_modules/<pkg>). @param {Map<string, number>} fns */
function byFile(fns) {
  /** @type {Map<string, number>} */
  const out = new Map();
  for (const [k, v] of fns) {
    const f = k.split(' ').slice(1).join(' ').replace(/:\d+$/, '');
    const key = f.startsWith('node_modules/') ? f.split('/').slice(0, 2).join('/') : f || '(native)';
    out.set(key, (out.get(key) ?? 0) + v);
  }
  return out;
}

const { child, web } = await startSmallWeb(hosts, pages);
const client = new Client({ node: opensearchUrl });
/** @typedef {{ fns: Map<string, number>, total: number, fetched: number, crawling: number, opensearch: number, dedup?: Record<string, number> }} Acc */
/** @type {Record<string, Acc>} */
const acc = {};
const variants = /** @type {const} */ (['defaults', 'off']);
try {
  for (let r = 0; r < rounds; r++) {
    // Paired, the order reversed each round; an odd number of rounds ends on the defaults, whose
    // content index the lookup replay below reads.
    for (const name of r % 2 ? variants : [...variants].reverse()) {
      await deleteBenchIndices(client);
      const profiles = join(dir, `profiles-${name}`);
      rmSync(profiles, { recursive: true, force: true });
      mkdirSync(profiles, { recursive: true });
      const extra = name === 'off' ? dedupOffSettings(dir, root) : {};
      const conf = writeBenchConf(dir, root, { opensearchUrl, concurrency: 50, hosts, extra });
      const run = await crawlEndToEnd({
        root,
        conf: conf.path,
        seeds: web.seeds,
        pids: { opensearch: openSearchPid(), web: child.pid },
        nodeArgs: ['--cpu-prof', '--cpu-prof-dir', profiles],
      });
      /** @type {Acc} */
      const a = acc[name] ?? { fns: new Map(), total: 0, fetched: 0, crawling: 0, opensearch: 0 };
      acc[name] = a;
      for (const f of readdirSync(profiles).filter((f) => f.endsWith('.cpuprofile')))
        a.total += selfTimes(JSON.parse(readFileSync(join(profiles, f), 'utf8')), a.fns);
      a.fetched += run.fetched;
      a.crawling += run.msPerPage.crawling * run.fetched;
      a.opensearch += run.msPerPage.opensearch * run.fetched;
      if (run.dedup) a.dedup = run.dedup;
      console.error(
        `round ${r + 1} ${name}: ${run.fetched} pages, crawling ${run.msPerPage.crawling.toFixed(2)} ms/page, OpenSearch ${run.msPerPage.opensearch.toFixed(2)}`,
      );
    }
  }
  const d = acc.defaults;
  const o = acc.off;
  if (!d || !o) throw new Error('no runs');
  const perPage = (/** @type {number} */ us, /** @type {number} */ n) => us / 1000 / n;
  console.log(
    `\nprofiled: defaults ${perPage(d.total, d.fetched).toFixed(3)} ms/page (${d.fetched} pages), off ${perPage(o.total, o.fetched).toFixed(3)} (${o.fetched})`,
  );
  console.log(
    `/proc while crawling: defaults ${(d.crawling / d.fetched).toFixed(3)}, off ${(o.crawling / o.fetched).toFixed(3)}; OpenSearch ${(d.opensearch / d.fetched).toFixed(3)} / ${(o.opensearch / o.fetched).toFixed(3)}`,
  );
  console.log(`judge stats (last defaults run): ${JSON.stringify(d.dedup)}`);
  /** @type {[string, Map<string, number>, Map<string, number>][]} */
  const tables = [
    ['by file', byFile(d.fns), byFile(o.fns)],
    ['by function', d.fns, o.fns],
  ];
  for (const [label, da, oa] of tables) {
    const keys = new Set([...da.keys(), ...oa.keys()]);
    const rows = [...keys].map((k) => {
      const a = perPage(da.get(k) ?? 0, d.fetched);
      const b = perPage(oa.get(k) ?? 0, o.fetched);
      return { k, a, b, diff: a - b };
    });
    rows.sort((x, y) => Math.abs(y.diff) - Math.abs(x.diff));
    console.log(`\n${label}: defaults / off / difference, ms per page`);
    for (const row of rows.slice(0, top))
      console.log(
        `${row.a.toFixed(4)}\t${row.b.toFixed(4)}\t${row.diff >= 0 ? '+' : ''}${row.diff.toFixed(4)}\t${row.k}`,
      );
  }
  const groupSize = Math.max(1, Math.round((d.dedup?.pagesLookedUp ?? 0) / (d.dedup?.lookups || 1)));
  console.log(
    `\ncandidates read by the crawl's lookups: ${(((d.dedup?.candidatesRead ?? 0) / d.fetched) * rounds).toFixed(2)} a page (last defaults run), groups of ${groupSize} pages`,
  );
  await replayLookups(client, groupSize);
} finally {
  child.kill('SIGTERM');
  await client.close();
}

/**
 * The judge's candidate search (src/opensearch/dedup-index.ts) for groups of `size` of the indexed
 * pages, as on a first crawl (their own documents looked up by ids that do not exist yet), against
 * the whole index the defaults' crawl left (so more hits a page than the crawl saw, whose index was
 * filling): request and response bytes a page, hits a page, and OpenSearch's time for the search
 * with the hits' fields, without them (`_source: false`: the stored documents are still loaded) and
 * with no hits (`size: 0`: the query alone), the three interleaved.
 * @param {Client} client
 * @param {number} size
 */
async function replayLookups(client, size) {
  await client.indices.refresh({ index: 'bench-content' });
  const r = await client.search({
    index: 'bench-content',
    body: { size: 3000, _source: ['minhashKeys'], sort: [{ fetchTime: 'asc' }] },
  });
  const docs = /** @type {{ _id: string, _source: { minhashKeys?: string[] } }[]} */ (r.body.hits.hits);
  if (docs.length < size) {
    console.log('(no content index of the defaults to replay the lookups on)');
    return;
  }
  // The fields the judge's lookup reads (src/opensearch/dedup-index.ts), from the build.
  const { CANDIDATE_FIELDS: fields } = await import(join(root, 'dist/opensearch/dedup-index.js'));
  /** @type {Record<string, Record<string, unknown>>} */
  const forms = {
    'as the judge asks': { _source: fields },
    '_source false': { _source: false },
    'size 0': { size: 0 },
  };
  /** @type {Record<string, { took: number, req: number, res: number, hits: number, groups: number }>} */
  const sums = Object.fromEntries(
    Object.keys(forms).map((k) => [k, { took: 0, req: 0, res: 0, hits: 0, groups: 0 }]),
  );
  for (let rep = 0; rep < 3; rep++) {
    for (let g = 0; g + size <= docs.length; g += size) {
      const group = docs.slice(g, g + size);
      const keys = [...new Set(group.flatMap((x) => x._source.minhashKeys ?? []))];
      const ids = group.map((x) => `${x._id}-new`);
      for (const [name, form] of Object.entries(forms)) {
        const search = {
          size: Math.min(10_000, 50 + ids.length * 8),
          track_total_hits: false,
          ...form,
          query: {
            bool: {
              filter: [
                {
                  bool: {
                    should: [{ terms: { minhashKeys: keys } }, { ids: { values: ids } }],
                    minimum_should_match: 1,
                  },
                },
              ],
            },
          },
        };
        const text = `${JSON.stringify({ index: 'bench-content' })}\n${JSON.stringify(search)}\n`;
        const res = await client.transport.request(
          { method: 'POST', path: '/_msearch', body: text },
          { headers: { 'content-type': 'application/x-ndjson' } },
        );
        const body = /** @type {{ responses: { took: number, hits: { hits: unknown[] } }[] }} */ (res.body);
        const one = body.responses[0];
        const s = sums[name];
        if (!one || !s) continue;
        s.took += one.took;
        s.req += Buffer.byteLength(text);
        s.res += Buffer.byteLength(JSON.stringify(body));
        s.hits += one.hits.hits.length;
        s.groups++;
      }
    }
  }
  console.log(`\nthe lookup replayed: groups of ${size} of the first ${docs.length} pages indexed, 3 passes`);
  console.log('form | request bytes a page | response bytes a page | hits a page | took ms a group');
  for (const [name, s] of Object.entries(sums)) {
    const pages = s.groups * size;
    console.log(
      `${name} | ${(s.req / pages).toFixed(0)} | ${(s.res / pages).toFixed(0)} | ${(s.hits / pages).toFixed(2)} | ${(s.took / s.groups).toFixed(1)}`,
    );
  }
}
