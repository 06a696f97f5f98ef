// @ts-check
// What HTML pages pay for the features of this round that they do not use: the small profile's web
// (plain HTML: no document, no page built by scripts) crawled end to end with the defaults (Tika
// enabled, adaptive rendering, the metrics series and the console, near-duplicate and soft-404
// checks) and with each of them off, then all of them off. Runs are interleaved round by round,
// since the machine is shared; the figure is the median CPU per page of the crawler process and of
// OpenSearch over the rounds, beside the spread (min-max) of the defaults' own runs, which is the
// noise a difference must beat.
//
//   npm run bench:features [-- --hosts 20 --pages 500 --rounds 3 --warmup 1 --only near-dups] [--text]
//     [--profile large] [--base /path/to/another/worktree]
// (--only: the defaults and the variants whose name contains the word, or one of a comma-separated
// list, e.g. `--only near-dups,body` for the A/B of issues 32 and 43;
// --text: the stored text's variants instead: Markdown off, whole-page text, the A/B of issue 42;
// --profile large: the large profile's pages, ~90 KB, instead of the small one's ~10 KB;
// --base DIR: this build's defaults against another worktree's build (its dist/, built), same
// settings, same web, alternated round by round: a before/after of a change that should cost nothing)
// (needs OpenSearch at OPENSEARCH_URL, default http://127.0.0.1:9200; OPENSEARCH_PORT names the
// local node whose CPU is measured when several run on the machine). Prints a RESULTS.md section.

import { mkdirSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@opensearch-project/opensearch';
import { crawlEndToEnd, deleteBenchIndices, writeBenchConf } from './crawl.mjs';
import { bodyOffSettings, dedupOffSettings, openSearchPid, startSmallWeb } from './dedup.mjs';
import { numberOption } from './proc.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const hosts = numberOption('hosts', 20);
const pages = numberOption('pages', 500);
const rounds = numberOption('rounds', 3);
// Rounds run first and not counted: the first crawls after OpenSearch starts pay for its JIT
// warm-up (one run's first round: OpenSearch 5.4 ms/page, 1.0 from its fourth on).
const warmup = numberOption('warmup', 1);
const profileAt = process.argv.indexOf('--profile');
const profile = profileAt >= 0 ? (process.argv[profileAt + 1] ?? 'small') : 'small';
if (profile !== 'small' && profile !== 'large') throw new Error(`--profile ${profile}: use small or large`);
const opensearchUrl = process.env.OPENSEARCH_URL ?? 'http://127.0.0.1:9200';
const dir = join(root, '.bench', 'features');
mkdirSync(dir, { recursive: true });

// --text: what the stored text costs instead of the features (issue 42's point 8): the defaults
// (main content and its Markdown) against main content without Markdown and the whole body's text
// without Markdown (the crawler before main content).
const textSet = process.argv.includes('--text');
const baseAt = process.argv.indexOf('--base');
const baseBuild = baseAt >= 0 ? resolve(process.argv[baseAt + 1] ?? '.') : undefined;
/** The variant that runs the other build (--base), under the defaults' settings. */
const BASE_NAME = baseBuild ? `the build at ${baseBuild} (defaults)` : '';
/** @type {Record<string, Record<string, unknown>>} the settings of each variant over the defaults */
// The console off in both (console.port 0): its port is one of the machine's, shared by other runs.
const variants = baseBuild
  ? { defaults: { 'console.port': 0 }, [BASE_NAME]: { 'console.port': 0 } }
  : textSet
    ? {
        defaults: {},
        'main content, no Markdown (textextractor.markdown false)': { 'textextractor.markdown': false },
        'whole-page text, no Markdown (textextractor.whole.page true)': {
          'textextractor.whole.page': true,
          'textextractor.markdown': false,
        },
      }
    : {
        defaults: {},
        'Tika off (tika.enabled false)': { 'tika.enabled': false },
        'rendering off (render.adaptive false)': { 'render.adaptive': false },
        'monitoring off (metrics.interval 0, console.port 0)': { 'metrics.interval': 0, 'console.port': 0 },
        'near-dups and soft 404s off': dedupOffSettings(dir, root),
        // What issue 43 adds to the crawler on this web: the whole-body signature of every page (the
        // exact check is paid only past the estimates, by no page here). `--only body` for its A/B.
        'whole-body signature off (SimhashParseFilter bodySignature false)': bodyOffSettings(dir, root),
      };
if (!textSet && !baseBuild)
  variants['all four off'] = Object.assign({}, ...Object.values(variants).slice(1, 5));
// --index-stats: after each crawl, what OpenSearch did for it (indexing, refresh, merge and flush
// times, bytes merged, searches' query and fetch times, store size, GC), per index: where a difference of its CPU comes from.
const indexStats = process.argv.includes('--index-stats');
const onlyAt = process.argv.indexOf('--only');
const only = onlyAt >= 0 ? process.argv[onlyAt + 1] : undefined;
if (only)
  for (const k of Object.keys(variants))
    if (k !== 'defaults' && !only.split(',').some((w) => k.includes(w))) delete variants[k];

const { child, web } = await startSmallWeb(hosts, pages, profile);
const client = new Client({ node: opensearchUrl });
const clear = () => deleteBenchIndices(client);
/** @type {Record<string, { crawler: number, crawling: number, opensearch: number, pagesPerSec: number }[]>} */
const runs = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
const names = Object.keys(variants);
try {
  for (let r = -warmup; r < rounds; r++) {
    // Each round in another order: a slow spell of the machine does not always hit one variant.
    const order = (r + warmup) % 2 === 0 ? names : [...names].reverse();
    for (const name of order) {
      await clear();
      const gcBefore = indexStats ? await gcMillis() : 0;
      const extra = {
        ...variants[name],
        'opensearch.metrics.index.name': 'bench-metrics',
      };
      const conf = writeBenchConf(dir, root, { opensearchUrl, concurrency: 50, hosts, extra });
      const run = await crawlEndToEnd({
        root: name === BASE_NAME && baseBuild ? baseBuild : root,
        conf: conf.path,
        seeds: web.seeds,
        pids: { opensearch: openSearchPid(), web: child.pid },
      });
      const row = {
        crawler: run.msPerPage.crawler,
        crawling: run.msPerPage.crawling,
        opensearch: run.msPerPageOf.opensearch ?? Number.NaN,
        pagesPerSec: run.pagesPerSec ?? Number.NaN,
      };
      if (r >= 0) runs[name]?.push(row);
      console.log(
        `${r < 0 ? 'warm-up' : `round ${r + 1}`} ${name}: crawler ${row.crawler.toFixed(2)} ms/page (${row.crawling.toFixed(2)} while crawling), OpenSearch ${row.opensearch.toFixed(2)} ms/page, ${row.pagesPerSec.toFixed(0)} pages/s`,
      );
      if (indexStats) console.log(`  ${await statsLine(run.fetched, (await gcMillis()) - gcBefore)}`);
    }
  }
  await clear();
} finally {
  child.kill('SIGTERM');
  await client.close();
}

/** The node's GC time so far, ms (all collectors). */
async function gcMillis() {
  const { body } = await client.nodes.stats({ metric: ['jvm'] });
  let ms = 0;
  for (const n of Object.values(body.nodes ?? {}))
    for (const c of Object.values(n.jvm?.gc?.collectors ?? {}))
      ms += Number(c.collection_time_in_millis ?? 0);
  return ms;
}

/**
 * Per index, ms per page fetched: indexing, refresh, merge, flush; MB merged and stored, docs.
 * @param {number} fetched
 * @param {number} gcMs
 */
async function statsLine(fetched, gcMs) {
  const { body } = await client.indices.stats({
    index: 'bench-content,bench-status',
    metric: ['indexing', 'refresh', 'merge', 'flush', 'store', 'docs', 'search'],
  });
  const per = (/** @type {number} */ ms) => (ms / fetched).toFixed(3);
  const parts = Object.entries(body.indices ?? {}).map(([name, v]) => {
    const t = v.total ?? {};
    return `${name} index ${per(t.indexing?.index_time_in_millis ?? 0)} refresh ${per(t.refresh?.total_time_in_millis ?? 0)} merge ${per(t.merges?.total_time_in_millis ?? 0)} (${((t.merges?.total_size_in_bytes ?? 0) / 2 ** 20).toFixed(0)} MB merged) flush ${per(t.flush?.total_time_in_millis ?? 0)} query ${per(t.search?.query_time_in_millis ?? 0)} fetch ${per(t.search?.fetch_time_in_millis ?? 0)} ms/page (${t.search?.query_total ?? 0} searches), store ${((t.store?.size_in_bytes ?? 0) / 2 ** 20).toFixed(0)} MB, ${t.docs?.count ?? 0} docs`;
  });
  return `${parts.join('; ')}; GC ${per(gcMs)} ms/page`;
}

/** @param {number[]} xs */
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] ?? Number.NaN) : ((s[m - 1] ?? 0) + (s[m] ?? 0)) / 2;
};
const base = runs.defaults ?? [];
const baseCrawler = median(base.map((x) => x.crawler));
const baseOs = median(base.map((x) => x.opensearch));
const spread = (/** @type {number[]} */ xs) => `${Math.min(...xs).toFixed(2)}-${Math.max(...xs).toFixed(2)}`;
/**
 * The median over rounds of the defaults' figure minus the variant's, each pair from one round.
 * @param {{ crawler: number, crawling: number, opensearch: number }[]} xs
 * @param {(x: { crawler: number, crawling: number, opensearch: number }) => number} f
 */
const paired = (xs, f) => median(xs.map((x, i) => f(base[i] ?? x) - f(x))).toFixed(2);
const pct = (/** @type {number} */ a, /** @type {number} */ b) => `${(((a - b) / b) * 100).toFixed(1)}%`;
const lines = [
  `## What HTML pages pay for this round's features (\`npm run bench:features\`)`,
  '',
  `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${cpus().length} x ${cpus()[0]?.model.trim()}, ${Math.round(totalmem() / 2 ** 30)} GiB.`,
  `The ${profile} profile's web cut to ${hosts} hosts x ${pages} pages of ~${profile === 'large' ? 90 : 10} KB (plain HTML: no document, no`,
  'page built by scripts), `crawler run --once` end to end with the defaults and with each feature',
  `off, ${rounds} rounds interleaved after ${warmup} not counted; medians, and for the defaults the spread of their own runs (the`,
  'noise a difference must beat), beside the median of the differences paired by round. A negative difference means the variant used more CPU than the defaults.',
  '"While crawling" is the crawler\'s CPU from its `crawling` line to its `crawl stopped` line (/proc), without the start-up a short crawl spreads over its pages.',
  '',
  '| variant | crawler CPU ms/page | while crawling | OpenSearch CPU ms/page | pages/s | defaults minus variant (crawler) |',
  '|---|---|---|---|---|---|',
];
for (const name of names) {
  const xs = runs[name] ?? [];
  const c = median(xs.map((x) => x.crawler));
  const w = median(xs.map((x) => x.crawling));
  const o = median(xs.map((x) => x.opensearch));
  const p = median(xs.map((x) => x.pagesPerSec));
  lines.push(
    name === 'defaults'
      ? `| defaults | ${c.toFixed(2)} (${spread(xs.map((x) => x.crawler))}) | ${w.toFixed(2)} (${spread(xs.map((x) => x.crawling))}) | ${o.toFixed(2)} (${spread(xs.map((x) => x.opensearch))}) | ${p.toFixed(0)} | - |`
      : `| ${name} | ${c.toFixed(2)} | ${w.toFixed(2)} | ${o.toFixed(2)} | ${p.toFixed(0)} | ${(baseCrawler - c).toFixed(2)} ms (${pct(baseCrawler, c)}), paired ${paired(xs, (x) => x.crawler)} ms, while crawling paired ${paired(xs, (x) => x.crawling)} ms; OpenSearch ${(baseOs - o).toFixed(2)} ms, paired ${paired(xs, (x) => x.opensearch)} ms |`,
  );
}
console.log(`\n${lines.join('\n')}`);
