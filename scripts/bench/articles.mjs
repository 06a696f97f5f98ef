// @ts-check
// Main content end to end on a held-out public benchmark: the 181 real article pages of
// github.com/scrapinghub/article-extraction-benchmark are served on loopback (one address per site,
// each page at its original path), crawled by `crawler run --once` with the defaults, and the
// `content` field of each content document is read back from OpenSearch and scored as the
// benchmark's evaluate.py scores an extractor's articleBody (article-score.mjs: 4-gram shingles of
// `\w+` tokens, per-page tp/fp/fn, precision and recall averaged over the pages).
//
// The pages are not in this repository. Get them from the benchmark's repository, e.g.:
//   git clone --depth 1 https://github.com/scrapinghub/article-extraction-benchmark /tmp/aeb
// then:
//   ARTICLE_BENCH=/tmp/aeb npm run bench:articles -- [--worst 10] [--write] [--predictions FILE]
//   ARTICLE_BENCH=/tmp/aeb node scripts/bench/articles.mjs --check
//
// Settings over crawler-default.yaml: the bench's own index names, loopback allowed, no console,
// and parser.emitOutlinks false (the pages link to thousands of paths of their real sites, which
// would be 404s here; links do not change a page's text). The whole-body text
// (textextractor.whole.page) is crawled and scored too, as the baseline.
// --worst N lists the N pages of lowest F1 with their longest runs of kept boilerplate and lost
// text; --predictions FILE writes the texts in the benchmark's output format (put it in its output/
// folder and its evaluate.py scores it); --check scores the benchmark's own output/*.json with this
// scorer (to compare with evaluate.py's numbers); --write puts the table into RESULTS.md (section
// "articles", kept in scripts/bench/sections/articles.md); --no-baseline skips the whole-body crawl;
// --keep leaves the indices (bench-articles-*) for a look.

import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { Client } from '@opensearch-project/opensearch';
import { stringify } from 'yaml';
import { evaluate, shingleMatching, tokenize } from './article-score.mjs';
import { crawlEndToEnd } from './crawl.mjs';
import { numberOption } from './proc.mjs';
import { spliceSection } from './sections.mjs';

/** @typedef {Record<string, { articleBody?: string, url?: string }>} Items */

const root = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
const dir = process.env.ARTICLE_BENCH;
if (!dir || !existsSync(join(dir, 'ground-truth.json'))) {
  console.error(
    'Set ARTICLE_BENCH to a checkout of scrapinghub/article-extraction-benchmark (see the header).',
  );
  process.exit(2);
}
/** @type {Items} */
const truth = JSON.parse(readFileSync(join(dir, 'ground-truth.json'), 'utf8'));
const f = (/** @type {number} */ x) => x.toFixed(3);

if (process.argv.includes('--check')) {
  for (const file of readdirSync(join(dir, 'output')).filter((n) => n.endsWith('.json'))) {
    const data = JSON.parse(readFileSync(join(dir, 'output', file), 'utf8'));
    const r = evaluate(truth, data.output && data.version !== undefined ? data.output : data);
    console.log(
      `${file.slice(0, -5).padEnd(22)} F1 ${f(r.f1)}  precision ${f(r.precision)}  recall ${f(r.recall)}`,
    );
  }
  process.exit(0);
}

const opensearchUrl = process.env.OPENSEARCH_URL ?? 'http://127.0.0.1:9200';
const worst = numberOption('worst', 0);
const names = {
  'opensearch.status.index.name': 'bench-articles-status',
  'opensearch.indexer.index.name': 'bench-articles-content',
  'opensearch.hosts.index.name': 'bench-articles-hosts',
  'opensearch.metrics.index.name': 'bench-articles-metrics',
};

// One loopback address per site of the benchmark (126 sites), so that what the crawler learns of a
// host is learnt from that site's pages only.
/** @type {Map<string, { address: string, pages: Map<string, string> }>} */
const sites = new Map();
for (const [key, item] of Object.entries(truth)) {
  const url = new URL(item.url ?? `http://unknown.invalid/${key}.html`);
  let site = sites.get(url.host);
  if (!site) {
    site = { address: `127.0.34.${sites.size + 1}`, pages: new Map() };
    sites.set(url.host, site);
  }
  site.pages.set(url.pathname + url.search, key);
}
if (sites.size > 254) throw new Error(`${sites.size} sites: more than one /24 of loopback addresses`);

/** @param {string} path a path and query, its parameters sorted (as the URL normalisers sort them) */
function sortedQuery(path) {
  const url = new URL(path, 'http://x');
  url.searchParams.sort();
  return url.pathname + url.search;
}

/**
 * The key of the page a path names: the exact path and query, else the one page whose path and
 * sorted query parameters are the same (BasicURLNormalizer sorts them).
 * @param {Map<string, string>} pages
 * @param {string} path
 */
function pageOf(pages, path) {
  const exact = pages.get(path);
  if (exact) return exact;
  const hits = [...pages].filter(([p]) => sortedQuery(p) === sortedQuery(path));
  return hits.length === 1 ? hits[0]?.[1] : undefined;
}

/** @type {{ origin: string, pages: Map<string, string>, close: () => void }[]} */
const served = [];
for (const site of sites.values()) {
  const server = createServer((req, res) => {
    const key = pageOf(site.pages, req.url ?? '/');
    if (!key) {
      res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>404 Not Found</h1>');
      return;
    }
    // The benchmark's extractors read the pages as UTF-8 (gzip.open(path, 'rt', encoding='utf8')).
    const body = gunzipSync(readFileSync(join(dir ?? '', 'html', `${key}.html.gz`)));
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  });
  await new Promise((ok) => server.listen(0, site.address, () => ok(undefined)));
  const port = /** @type {import('node:net').AddressInfo} */ (server.address()).port;
  served.push({ origin: `http://${site.address}:${port}`, pages: site.pages, close: () => server.close() });
}
const seeds = served.flatMap((s) => [...s.pages.keys()].map((p) => `${s.origin}${p}`));
console.log(`${seeds.length} pages of ${served.length} sites on loopback`);

const client = new Client({ node: opensearchUrl });
const deleteIndices = () =>
  client.indices.delete({
    index: `${Object.values(names).join(',')},bench-articles-metrics*`,
    ignore_unavailable: true,
  });

/**
 * Crawls every page with the defaults (plus `extra`) and reads each content document's `content`;
 * the texts are kept in .bench/articles/`name`.json (the benchmark's output format). Also counts
 * the pages the adaptive rendering rendered (its samples, from the hosts index).
 * @param {string} name
 * @param {Record<string, unknown>} extra
 * @returns {Promise<{ texts: Record<string, { articleBody: string }>, byStatus: unknown, secs: number, rendered: number }>}
 */
async function crawl(name, extra) {
  await deleteIndices();
  const benchDir = join(root, '.bench', 'articles');
  mkdirSync(benchDir, { recursive: true });
  const conf = join(benchDir, 'bench.yaml');
  const settings = {
    'opensearch.addresses': opensearchUrl,
    ...names,
    'http.agent.name': 'benchbot',
    // Loopback addresses are refused by default (SSRF guard); the pages are served there.
    'http.filter.ipaddress.exclude': [],
    'parser.emitOutlinks': false,
    'console.port': 0,
    ...extra,
  };
  writeFileSync(conf, stringify(settings));
  const run = await crawlEndToEnd({ root, conf, seeds, pids: {}, log: console.log });
  const index = names['opensearch.indexer.index.name'];
  await client.indices.refresh({ index });
  /** @type {Record<string, { articleBody: string }>} */
  const texts = {};
  const res = await client.search({
    index,
    body: { size: 1000, query: { match_all: {} }, _source: ['url', 'content'] },
  });
  for (const hit of /** @type {any[]} */ (res.body.hits.hits)) {
    const url = new URL(hit._source.url);
    const site = served.find((s) => s.origin === url.origin);
    const key = site && pageOf(site.pages, url.pathname + url.search);
    if (key) texts[key] = { articleBody: String(hit._source.content ?? '') };
  }
  const hostsIndex = names['opensearch.hosts.index.name'];
  await client.indices.refresh({ index: hostsIndex });
  const hosts = await client.search({ index: hostsIndex, body: { size: 1000, _source: ['render'] } });
  const rendered = /** @type {any[]} */ (hosts.body.hits.hits).reduce(
    (n, h) => n + Number(h._source.render?.samples ?? 0),
    0,
  );
  writeFileSync(join(benchDir, `${name}.json`), JSON.stringify({ version: name, output: texts }, null, 1));
  console.log(
    `${name}: ${Object.keys(texts).length} pages indexed in ${run.secs.toFixed(0)} s, ` +
      `statuses ${JSON.stringify(run.byStatus)}, ${rendered} rendered (adaptive samples)`,
  );
  return { texts, byStatus: run.byStatus, secs: run.secs, rendered };
}

const main = await crawl('defaults', {});
const indexed = Object.keys(main.texts).length;
// Two of the saved pages say <meta name="robots" content="noindex">, which the crawler obeys (as
// StormCrawler does): with the defaults they are not indexed and score as empty. The same crawl with
// http.robots.meta.skip scores the extractor on every page; the whole body's text is the baseline.
const baselines = !process.argv.includes('--no-baseline');
const metaSkip = baselines ? await crawl('meta-skip', { 'http.robots.meta.skip': true }) : undefined;
const whole = baselines
  ? await crawl('whole-page', { 'textextractor.whole.page': true, 'http.robots.meta.skip': true })
  : undefined;
if (!process.argv.includes('--keep')) await deleteIndices();
await client.close();
for (const s of served) s.close();

const ours = evaluate(truth, main.texts);
const missing = Object.keys(truth).filter((k) => !main.texts[k]);
const row = (/** @type {string} */ name, /** @type {ReturnType<typeof evaluate>} */ r) =>
  `| ${name} | **${f(r.f1)}** | ${f(r.precision)} | ${f(r.recall)} | ${f(r.accuracy)} |`;
const table = [
  '| `content` of | F1 | precision | recall | accuracy |',
  '|---|---:|---:|---:|---:|',
  row(`os-crawler, main content, defaults (${indexed} pages indexed, the rest scored empty)`, ours),
  ...(metaSkip
    ? [
        row(
          'os-crawler, main content, http.robots.meta.skip (all pages indexed)',
          evaluate(truth, metaSkip.texts),
        ),
      ]
    : []),
  ...(whole
    ? [
        row(
          'os-crawler, whole body (textextractor.whole.page, http.robots.meta.skip)',
          evaluate(truth, whole.texts),
        ),
      ]
    : []),
  "| published (the benchmark's README): readability_js 0.6.0 | 0.947 | 0.914 | 0.982 | 0.166 |",
  '| published: trafilatura 2.0.0 | 0.958 | 0.938 | 0.978 | 0.293 |',
  '| published: go_trafilatura ae7ea06 | 0.960 | 0.940 | 0.980 | 0.287 |',
  '| published: rs_trafilatura 9261e08 | 0.970 | 0.951 | 0.990 | 0.287 |',
  '| published: Diffbot (Nov 2019) | 0.951 | 0.958 | 0.944 | 0.348 |',
  '| published: html-text 0.7.0 (whole page text) | 0.665 | 0.500 | 0.994 | 0.000 |',
].join('\n');
console.log(table);
if (missing.length > 0)
  console.log(`not in the content index (scored as empty): ${missing.map((k) => truth[k]?.url).join(', ')}`);

/**
 * The longest runs of `a`'s tokens whose 4-gram is not in `b`: kept boilerplate (a = ours, b =
 * truth) or lost text (a = truth, b = ours).
 * @param {string} a
 * @param {string} b
 */
function runsNotIn(a, b, count = 2) {
  const ta = tokenize(a);
  const tb = tokenize(b);
  const inB = new Set(tb.map((_t, i) => tb.slice(i, i + 4).join(' ')));
  /** @type {string[][]} */
  const runs = [];
  /** @type {string[]} */
  let run = [];
  for (let i = 0; i < ta.length; i++) {
    if (!inB.has(ta.slice(i, i + 4).join(' '))) run.push(/** @type {string} */ (ta[i]));
    else if (run.length > 0) {
      runs.push(run);
      run = [];
    }
  }
  if (run.length > 0) runs.push(run);
  runs.sort((x, y) => y.length - x.length);
  return runs
    .slice(0, count)
    .map((r) => `${r.length} words: "${r.slice(0, 20).join(' ')}${r.length > 20 ? ' ...' : ''}"`);
}

/** @type {string[]} The worst pages' lines, printed and (with --write) kept in the section. */
const worstLines = [];
/** @param {string} line */
const say = (line) => {
  console.log(line);
  worstLines.push(line);
};
if (worst > 0) {
  // The extractor's worst pages: from the crawl that indexes every page when there is one.
  const listed = metaSkip ?? main;
  const pages = evaluate(truth, listed.texts)
    .pages.map((p) => ({ ...p, f1: (2 * p.precision * p.recall) / (p.precision + p.recall || 1) }))
    .sort((a, b) => a.f1 - b.f1)
    .slice(0, worst);
  for (const p of pages) {
    const t = truth[p.key]?.articleBody ?? '';
    const o = listed.texts[p.key]?.articleBody ?? '';
    const [tp] = shingleMatching(t, o);
    say(
      `${truth[p.key]?.url} (${p.key.slice(0, 8)}): F1 ${f(p.f1)} precision ${f(p.precision)} recall ${f(p.recall)} ` +
        `(tp ${f(tp)}); truth ${tokenize(t).length} words, ours ${tokenize(o).length}`,
    );
    if (!listed.texts[p.key]) say('  not in the content index');
    for (const r of runsNotIn(o, t)) say(`  kept, not in the truth: ${r}`);
    for (const r of runsNotIn(t, o)) say(`  lost: ${r}`);
  }
}

const predictionsAt = process.argv.indexOf('--predictions');
if (predictionsAt >= 0) {
  const path = process.argv[predictionsAt + 1] ?? 'os-crawler.json';
  const output = Object.fromEntries(Object.keys(truth).map((k) => [k, main.texts[k] ?? { articleBody: '' }]));
  writeFileSync(path, JSON.stringify({ version: 'os-crawler', output }, null, 1));
  console.log(`predictions written to ${path}`);
}

if (process.argv.includes('--write')) {
  const section =
    `## Main content end to end on the article-extraction benchmark (\`npm run bench:articles\`)\n\n` +
    `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, node ${process.version}. ` +
    `The ${Object.keys(truth).length} real article pages of github.com/scrapinghub/article-extraction-benchmark ` +
    `(held out until issue 33's third pass, whose rules were found on its worst pages, each kept only if it did not lower the trafilatura set's F1; \`npm run bench:readability-pages\` is the set no rule has seen), served on loopback (one address per site, ${served.length} sites, ` +
    'each page at its original path), crawled by `crawler run --once` with the defaults ' +
    "(parser.emitOutlinks false: the pages' links would be 404s here), the `content` field of each " +
    `content document read back from OpenSearch (${indexed} of ${Object.keys(truth).length} indexed: ` +
    'two saved pages say `<meta name="robots" content="noindex">`, which the crawler obeys; ' +
    'the second row crawls with http.robots.meta.skip) ' +
    `and scored as the benchmark's evaluate.py does. Chromium is installed, so the adaptive rendering ` +
    `renders a few sample pages of the sites whose HTML looks script-built (${main.rendered} pages in the ` +
    "first crawl): which pages are sampled, and what the saved pages' scripts do to their DOM, moves F1 by " +
    'about 0.005 from run to run. Scoring: 4-gram shingles of `\\w+` tokens, per page tp/fp/fn ' +
    'normalised, precision and recall averaged over the pages, F1 of the two averages. ' +
    "The scorer (scripts/bench/article-score.mjs) reproduces evaluate.py per page on the benchmark's own " +
    'output files (`--check`: readability_js 0.947 / 0.914 / 0.982, trafilatura 0.958 / 0.938 / 0.978).\n\n' +
    `${table}\n` +
    (worstLines.length > 0
      ? `\nThe ${worst} pages of lowest F1 (\`--worst ${worst}\`, from the crawl that indexes every page): the ` +
        'longest runs of kept words that are not in the truth (boilerplate kept) and of truth words not kept (text lost).\n\n' +
        `\`\`\`text\n${worstLines.join('\n')}\n\`\`\`\n`
      : '');
  const path = new URL('./sections/articles.md', import.meta.url).pathname;
  writeFileSync(path, section);
  spliceSection(new URL('./RESULTS.md', import.meta.url).pathname, 'articles', section);
}
process.exit(0);
