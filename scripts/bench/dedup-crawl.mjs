// @ts-check
// Real documentation sites crawled with the defaults (issues 32 and 43): does the crawl leave a real
// page out of the content index? Debian's HTML manuals and reference sites (dedup-corpora.mjs: the
// ones marked `site`, each at most its `max` pages) are served as they are, one loopback host each
// (404 for anything else, as a web server does), every page given as a seed, and `crawler run
// --once` crawls them with the defaults (dedup.mode skip, soft404.enabled). Then:
// - every FETCHED page left out of the content index must have duplicate.of, an exact main-text
//   Jaccard >= 0.85 with that page (the bag of shingles) and a whole-page-text Jaccard >= 0.8 (word
//   3-shingles, set and bag; all truths computed here from the files, apart from the crawl);
// - the `similar` verdicts (content documents with similarTo) are counted, with their similarity;
// - recall on the same page under another URL: for every 40th page of each site, the page with
//   `?sessionid=...`, `?sort=desc` and `?print=1` (the same bytes), and the same path on a mirror
//   host: each pair must end with one of the two left out as duplicate.of the other.
//
//   npm run build && DEDUP_DOC_ROOT=... node scripts/bench/dedup-crawl.mjs   (OPENSEARCH_URL, default :9200)
//   DEDUP_CRAWL_SITES=git-doc,rust-doc picks sites; DEDUP_CRAWL_MAX=N caps each site's pages.

import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@opensearch-project/opensearch';
import { crawlEndToEnd, deleteBenchIndices, writeBenchConf } from './crawl.mjs';
import { corpora, corpusFiles, mainText, pageText } from './dedup-corpora.mjs';
import { bagJaccard, jaccard, shingles } from './dedup-quality.mjs';
import { dist } from './dist.mjs';
import { findOpenSearchPid } from './proc.mjs';

const { tokenise } = await dist('fingerprint/fingerprint.js');
const { fromStatusSource } = await dist('opensearch/status-doc.js');
/** A status document's metadata value (the stored keys are escaped). @param {any} hit @param {string} key */
const meta = (hit, key) => fromStatusSource(hit._source)?.metadata.getFirstValue(key);

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const opensearchUrl = process.env.OPENSEARCH_URL ?? 'http://127.0.0.1:9200';
const only = process.env.DEDUP_CRAWL_SITES?.split(',');
const cap = Number(process.env.DEDUP_CRAWL_MAX ?? 0);
const sites = corpora.filter((c) => c.site && existsSync(c.dir) && (!only || only.includes(c.name)));
const VARIANTS = ['?sessionid=a81f3c9e', '?sort=desc', '?print=1'];

/** Serves `dir` on `address` (query strings ignored, as static servers do). @param {string} dir @param {string} address */
async function serve(dir, address) {
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent((req.url ?? '/').split('?')[0] ?? '/'));
    const file = join(dir, path.endsWith('/') ? `${path}index.html` : path);
    if (!file.startsWith(dir) || !existsSync(file) || path.includes('\0')) {
      res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>404 Not Found</h1>');
      return;
    }
    try {
      const body = readFileSync(file);
      const type = /\.html?$/.test(file)
        ? 'text/html'
        : extname(file) === '.txt'
          ? 'text/plain'
          : 'application/octet-stream';
      res.writeHead(200, { 'content-type': type }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((ok) => server.listen(0, address, () => ok(undefined)));
  const port = /** @type {import('node:net').AddressInfo} */ (server.address()).port;
  return { origin: `http://${address}:${port}`, close: () => server.close() };
}

/** @type {{ name: string, dir: string, origin: string, mirror: string, files: string[], close: () => void }[]} */
const served = [];
/** @type {[string, string][]} pairs of URLs of one page (original, variant) */
const pairs = [];
for (const [i, c] of sites.entries()) {
  const site = await serve(c.dir, `127.0.33.${i + 1}`);
  const mirror = await serve(c.dir, `127.0.34.${i + 1}`);
  const files = corpusFiles(c, cap);
  served.push({
    name: c.name,
    dir: c.dir,
    origin: site.origin,
    mirror: mirror.origin,
    files,
    close: () => {
      site.close();
      mirror.close();
    },
  });
  for (const [k, f] of files.entries()) {
    if (k % 40 !== 0) continue;
    const path = `/${f.slice(c.dir.length + 1)}`;
    for (const v of VARIANTS) pairs.push([`${site.origin}${path}`, `${site.origin}${path}${v}`]);
    pairs.push([`${site.origin}${path}`, `${mirror.origin}${path}`]);
  }
  console.log(`${c.name} (${c.kind}): ${files.length} pages at ${site.origin}, mirror ${mirror.origin}`);
}

const dir = join(root, '.bench', 'dedup-crawl');
mkdirSync(dir, { recursive: true });
const client = new Client({ node: opensearchUrl });
await deleteBenchIndices(client);
// Only the seeds: the pages' links would reach the pages past each site's cap, and the mirrors' whole sites.
const conf = writeBenchConf(dir, root, {
  opensearchUrl,
  concurrency: 20,
  hosts: 2 * served.length,
  extra: { 'parser.emitOutlinks': false },
});
const seeds = [
  ...served.flatMap((s) => s.files.map((f) => `${s.origin}/${f.slice(s.dir.length + 1)}`)),
  ...pairs.map(([, v]) => v),
];
const run = await crawlEndToEnd({ root, conf: conf.path, seeds, pids: { opensearch: findOpenSearchPid() } });
console.log(`crawled ${run.fetched} URLs in ${run.secs.toFixed(0)} s; dedup ${JSON.stringify(run.dedup)}`);

/** @param {string} index @param {object} query @param {string[]} fields */
async function all(index, query, fields) {
  await client.indices.refresh({ index });
  /** @type {any[]} */
  const out = [];
  let res = await client.search({ index, scroll: '1m', size: 2000, body: { query, _source: fields } });
  while (res.body.hits.hits.length > 0) {
    out.push(...res.body.hits.hits);
    res = await client.scroll({ scroll_id: /** @type {string} */ (res.body._scroll_id), scroll: '1m' });
  }
  return out;
}
const statuses = await all('bench-status', { match_all: {} }, ['url', 'status', 'metadata']);
const content = await all('bench-content', { match_all: {} }, ['url', 'similarTo', 'similarity']);
const contentIds = new Set(content.map((h) => h._id));
/** @param {string} url */
function fileOf(url) {
  const s = served.find((x) => url.startsWith(`${x.origin}/`) || url.startsWith(`${x.mirror}/`));
  return s ? join(s.dir, decodeURIComponent(new URL(url).pathname)) : undefined;
}
const fetched = statuses.filter(
  (h) => h._source.status === 'FETCHED' && existsSync(fileOf(h._source.url) ?? ''),
);
const soft404 = statuses.filter((h) => meta(h, 'error.cause') === 'soft404');
const left = fetched.filter((h) => !contentIds.has(h._id));
// Each bar in both readings: the shingles' set and their bag (dedup-quality.mjs).
const verdict = {
  right: 0,
  mainUnder085: 0,
  mainBagUnder085: 0,
  pageUnder08: 0,
  pageBagUnder08: 0,
  unexplained: 0,
  noindex: 0,
};
/** @type {Map<string, { main: Map<number, number>, page: Map<number, number> }>} */
const sets = new Map();
/** @param {string} url */
function setsOf(url) {
  const file = /** @type {string} */ (fileOf(url));
  let s = sets.get(file);
  if (!s) {
    const bytes = readFileSync(file);
    s = { main: shingles(tokenise(mainText(bytes))), page: shingles(tokenise(pageText(bytes))) };
    sets.set(file, s);
  }
  return s;
}
let lowest = { main: 1, page: 1, mainBag: 1, pageBag: 1 };
for (const h of left) {
  const of = meta(h, 'duplicate.of');
  if (
    !of &&
    /<meta[^>]+robots[^>]+noindex/i.test(
      readFileSync(/** @type {string} */ (fileOf(h._source.url)), 'latin1'),
    )
  ) {
    verdict.noindex++;
    continue;
  }
  if (!of || !fileOf(of)) {
    verdict.unexplained++;
    console.log(`  not indexed, no duplicate.of: ${h._source.url}`);
    continue;
  }
  const [a, b] = [setsOf(h._source.url), setsOf(of)];
  const main = jaccard(a.main, b.main);
  const page = jaccard(a.page, b.page);
  const mainBag = bagJaccard(a.main, b.main);
  const pageBag = bagJaccard(a.page, b.page);
  lowest = {
    main: Math.min(lowest.main, main),
    page: Math.min(lowest.page, page),
    mainBag: Math.min(lowest.mainBag, mainBag),
    pageBag: Math.min(lowest.pageBag, pageBag),
  };
  if (mainBag >= 0.85 && page >= 0.8 && pageBag >= 0.8) verdict.right++;
  if (main < 0.85) verdict.mainUnder085++;
  if (mainBag < 0.85) verdict.mainBagUnder085++;
  if (page < 0.8) verdict.pageUnder08++;
  if (pageBag < 0.8) verdict.pageBagUnder08++;
  if (mainBag < 0.85 || page < 0.8 || pageBag < 0.8)
    console.log(
      `  WRONG: ${h._source.url} left out as a duplicate of ${of}: main ${main.toFixed(3)} (bag ${mainBag.toFixed(3)}), page ${page.toFixed(3)} (bag ${pageBag.toFixed(3)})`,
    );
}
const similar = content.filter((h) => typeof h._source.similarTo === 'string');
const bySim = [0.6, 0.7, 0.8, 0.85].map(
  (lo, i, a) =>
    similar.filter((h) => h._source.similarity >= lo && h._source.similarity < (a[i + 1] ?? 1.01)).length,
);
// Recall: each page's group (the original and its four other URLs) ends with all but one of its
// FETCHED members left out as a duplicate of another member (whichever was indexed first stays).
const byUrl = new Map(statuses.map((h) => [h._source.url, h]));
/** @type {Map<string, string[]>} */
const groups = new Map();
for (const [a, b] of pairs) groups.set(a, [...(groups.get(a) ?? [a]), b]);
let found = 0;
let expected = 0;
let missing = 0;
/** Groups left out whole as duplicates of pages outside them. */
let outsideGroups = 0;
/** @type {string[]} */
const missed = [];
for (const members of groups.values()) {
  const got = members.filter((u) => byUrl.get(u)?._source.status === 'FETCHED');
  missing += members.length - got.length;
  const inGroup = new Set(got);
  expected += Math.max(0, got.length - 1);
  const dups = got.filter((u) => inGroup.has(meta(byUrl.get(u), 'duplicate.of') ?? ''));
  // A group whose every member is left out as a duplicate of a page outside it (the original is
  // itself a verified duplicate of another page of the site): its copies are called duplicates too,
  // of that page. Counted apart, so the figure says which it was.
  const outside = got.filter((u) => {
    const of = meta(byUrl.get(u), 'duplicate.of');
    return of !== undefined && !inGroup.has(of);
  });
  if (dups.length === 0 && outside.length === got.length && got.length > 0) {
    outsideGroups++;
    dups.push(...outside.slice(1));
  }
  found += Math.min(dups.length, Math.max(0, got.length - 1));
  if (dups.length < got.length - 1)
    missed.push(`${got[0]}: ${dups.length} of ${got.length - 1} called duplicates`);
}
const pairsShown = expected;
for (const m of missed.slice(0, 10)) console.log(`  missed: ${m}`);
console.log(
  `FETCHED pages of the sites: ${fetched.length}; indexed ${fetched.length - left.length}; left out ${left.length}: ` +
    `right (main J >= 0.85 (bag), page J >= 0.8 (set and bag)) ${verdict.right}, main J < 0.85: bag ${verdict.mainBagUnder085}, set ${verdict.mainUnder085}; page J < 0.8: set ${verdict.pageUnder08}, bag ${verdict.pageBagUnder08}, ` +
    `robots noindex ${verdict.noindex}, otherwise without duplicate.of ${verdict.unexplained}; lowest main J ${lowest.mainBag.toFixed(3)} (set ${lowest.main.toFixed(3)}), page J ${lowest.page.toFixed(3)} (bag ${lowest.pageBag.toFixed(3)}); soft 404s ${soft404.length}`,
);
console.log(
  `similar (indexed with similarTo): ${similar.length}; similarity 0.6-0.7 ${bySim[0]}, 0.7-0.8 ${bySim[1]}, 0.8-0.85 ${bySim[2]}, >= 0.85 ${bySim[3]}`,
);
console.log(
  `recall, the same page under another URL (session, sort, print parameters; a mirror host): ${found}/${pairsShown} = ${((100 * found) / Math.max(1, pairsShown)).toFixed(1)}% duplicate (${groups.size} pages with 4 other URLs each, ${outsideGroups} of them left out whole as duplicates of another page of the site; ${missing} URLs not FETCHED)`,
);
// Per kind of other URL: each pair (the original, that URL) both FETCHED ends with at most one of
// the two indexed, each one left out carrying duplicate.of.
const kindOf = (/** @type {string} */ u) => VARIANTS.find((v) => u.endsWith(v)) ?? 'a mirror host';
/** @type {Map<string, { ok: number, n: number }>} */
const byKind = new Map();
for (const [a, b] of pairs) {
  const [ha, hb] = [byUrl.get(a), byUrl.get(b)];
  if (ha?._source.status !== 'FETCHED' || hb?._source.status !== 'FETCHED') continue;
  const k = byKind.get(kindOf(b)) ?? { ok: 0, n: 0 };
  byKind.set(kindOf(b), k);
  k.n++;
  const leftOut = [ha, hb].filter((h) => !contentIds.has(h._id));
  if (leftOut.length >= 1 && leftOut.every((h) => meta(h, 'duplicate.of') !== undefined)) k.ok++;
}
console.log(
  `  by kind (the original and that URL, one of the two left out as a duplicate): ${[...byKind]
    .map(([k, v]) => `${k} ${v.ok}/${v.n} = ${((100 * v.ok) / Math.max(1, v.n)).toFixed(1)}%`)
    .join(', ')}`,
);
console.log(
  `crawler CPU ${run.msPerPage.crawler.toFixed(2)} ms/page, OpenSearch ${run.msPerPage.opensearch.toFixed(2)} ms/page`,
);
if (process.env.DEDUP_CRAWL_KEEP !== '1') await deleteBenchIndices(client);
await client.close();
for (const s of served) s.close();
process.exit(
  verdict.mainBagUnder085 + verdict.pageUnder08 + verdict.pageBagUnder08 + verdict.unexplained > 0 ? 1 : 0,
);
