// @ts-check
// Real documentation sites crawled with the defaults (issue 32): does the crawl leave a real page
// out of the content index? Debian's HTML manuals (python3.11-doc, python-django-doc,
// postgresql-doc-15, git-doc) are served as they are, one loopback host each (404 for anything
// else, as a web server does), every page given as a seed, and `crawler run --once` crawls them with
// dedup.mode skip and soft404.enabled (the defaults). Then every FETCHED page that is not in the
// content index must be a near-duplicate of an indexed one, which the slow exact measure confirms:
// the Jaccard similarity of the word 3-shingles of the two pages' main texts (>= 0.8 true, 0.5-0.8
// grey, < 0.5 a real page lost). No page of these sites is a soft 404.
//
//   npm run build && node scripts/bench/dedup-crawl.mjs   (OPENSEARCH_URL, default :9200)

import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@opensearch-project/opensearch';
import { crawlEndToEnd, deleteBenchIndices, writeBenchConf } from './crawl.mjs';
import { corpora, htmlFiles, jaccard, mainText, shingles } from './dedup-quality.mjs';
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
const sites = corpora.filter((c) => c.site && existsSync(c.dir) && (!only || only.includes(c.name)));

/** @type {{ name: string, dir: string, origin: string, files: string[], close: () => void }[]} */
const served = [];
for (const [i, c] of sites.entries()) {
  const address = `127.0.33.${i + 1}`;
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent((req.url ?? '/').split('?')[0] ?? '/'));
    const file = join(c.dir, path.endsWith('/') ? `${path}index.html` : path);
    if (!file.startsWith(c.dir) || !existsSync(file) || path.includes('\0')) {
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
  const files = htmlFiles(c.dir, []);
  served.push({
    name: c.name,
    dir: c.dir,
    origin: `http://${address}:${port}`,
    files,
    close: () => server.close(),
  });
  console.log(`${c.name}: ${files.length} pages at http://${address}:${port}`);
}

const dir = join(root, '.bench', 'dedup-crawl');
mkdirSync(dir, { recursive: true });
const client = new Client({ node: opensearchUrl });
await deleteBenchIndices(client);
const conf = writeBenchConf(dir, root, { opensearchUrl, concurrency: 20, hosts: served.length, extra: {} });
const seeds = served.flatMap((s) => s.files.map((f) => `${s.origin}/${f.slice(s.dir.length + 1)}`));
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
const contentIds = new Set((await all('bench-content', { match_all: {} }, ['url'])).map((h) => h._id));
/** @param {string} url */
function fileOf(url) {
  const s = served.find((x) => url.startsWith(`${x.origin}/`));
  return s ? join(s.dir, decodeURIComponent(new URL(url).pathname)) : undefined;
}
const fetched = statuses.filter(
  (h) =>
    h._source.status === 'FETCHED' &&
    fileOf(h._source.url) &&
    existsSync(/** @type {string} */ (fileOf(h._source.url))),
);
const soft404 = statuses.filter((h) => meta(h, 'error.cause') === 'soft404');
const left = fetched.filter((h) => !contentIds.has(h._id));
const verdict = { true: 0, grey: 0, lost: 0, unexplained: 0 };
/** @param {string} url */
const setOf = (url) => shingles(tokenise(mainText(readFileSync(/** @type {string} */ (fileOf(url))))));
for (const h of left) {
  const of = meta(h, 'duplicate.of');
  if (!of || !fileOf(of)) {
    verdict.unexplained++;
    console.log(`  not indexed, no duplicate.of: ${h._source.url}`);
    continue;
  }
  const j = jaccard(setOf(h._source.url), setOf(of));
  if (j >= 0.8) verdict.true++;
  else if (j >= 0.5) verdict.grey++;
  else {
    verdict.lost++;
    console.log(`  LOST: ${h._source.url} called a near-duplicate of ${of}, true Jaccard ${j.toFixed(3)}`);
  }
}
console.log(
  `FETCHED pages of the sites: ${fetched.length}; indexed ${fetched.length - left.length}; left out ${left.length}: ` +
    `near-duplicates confirmed (>= 0.8) ${verdict.true}, grey (0.5-0.8) ${verdict.grey}, real pages lost (< 0.5) ${verdict.lost}, ` +
    `without duplicate.of ${verdict.unexplained}; soft 404s ${soft404.length}`,
);
console.log(
  `crawler CPU ${run.msPerPage.crawler.toFixed(2)} ms/page, OpenSearch ${run.msPerPage.opensearch.toFixed(2)} ms/page`,
);
if (process.env.DEDUP_CRAWL_KEEP !== '1') await deleteBenchIndices(client);
await client.close();
for (const s of served) s.close();
process.exit(verdict.lost + verdict.unexplained > 0 ? 1 : 0);
