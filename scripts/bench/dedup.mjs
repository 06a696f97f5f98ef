// @ts-check
// Near-duplicates and soft 404s, measured:
// 1. the fingerprint (scripts/bench/simhash.mjs): features chosen on real prose, and its CPU cost;
// 2. the candidate query at scale: a content index of 2 shards bulk-loaded with synthetic
//    fingerprints (100 k, then 1 M documents: url, host, simhash, its 10 keys, token count), queried
//    as the crawler's judge queries it (src/opensearch/dedup-index.ts, one _msearch per group of 50
//    pages: their keys and their own document ids; 10 of the 50 are near-duplicates of stored
//    documents); latency per group and per page, candidates returned, OpenSearch CPU per page;
// 3. the crawl with near-duplicate and soft-404 detection on (the defaults) beside off
//    (`dedup.mode: off`, `soft404.enabled: false`, no SimhashParseFilter): CPU per page of the
//    crawler and of OpenSearch on the same small-profile web.
// Part of `npm run bench` (the crawl variant runs on its small profile); alone:
//   npm run bench:dedup [-- --docs 1000000 --hosts 20 --pages 500]
// (needs OpenSearch at OPENSEARCH_URL, default http://127.0.0.1:9200; OPENSEARCH_PORT names the
// local node whose CPU is measured when several run on the machine).

import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@opensearch-project/opensearch';
import { crawlEndToEnd, deleteBenchIndices, writeBenchConf } from './crawl.mjs';
import { dist } from './dist.mjs';
import { cpuSeconds, findOpenSearchPid, numberOption, runNode } from './proc.mjs';
import { simhashBench } from './simhash.mjs';
import { rng } from './web.mjs';

const { readMapping } = await dist('opensearch/indices.js');
const { bandKeys, BINS } = await dist('fingerprint/minhash.js');
const { hex } = await dist('fingerprint/simhash.js');
const { DedupIndex } = await dist('opensearch/dedup-index.js');

const here = dirname(fileURLToPath(import.meta.url));
const HOSTS = 10_000;
const GROUP = 50;
const NEAR_PER_GROUP = 10;

/**
 * @param {readonly number[]} values
 * @param {number} p
 */
function pct(values, p) {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? Number.NaN;
}

/**
 * One size of the content index.
 * @typedef {{ docs: number, loadSecs: number, group: number, p50: number, p95: number,
 *   msPerPage: number, candidatesPerPage: number, randomCandidatesPerPage: number,
 *   opensearchCpuMsPerPage: number }} DedupQueryRow
 */

/**
 * @param {{ opensearchUrl: string, maxDocs?: number, runs?: number, opensearchPid?: number,
 *   log?: (line: string) => void }} options
 * @returns {Promise<DedupQueryRow[]>}
 */
export async function dedupQueryBench({
  opensearchUrl,
  maxDocs = 1_000_000,
  runs = 40,
  opensearchPid,
  log = () => {},
}) {
  const client = new Client({ node: opensearchUrl, requestTimeout: 120_000 });
  const content = 'bench-dedup-content';
  const hosts = 'bench-dedup-hosts';
  const r = rng(26);
  const random64 = () => hex((r() * 2 ** 32) >>> 0, (r() * 2 ** 32) >>> 0);
  const bin = () =>
    Math.floor(r() * 65536)
      .toString(16)
      .padStart(4, '0');
  /** A random MinHash signature: a text unrelated to any other. */
  const randomSignature = () => Array.from({ length: BINS }, bin).join('');
  /** A stored signature with 10% to 25% of its bins changed: a near-duplicate of it (J 0.75-0.9). */
  const near = (/** @type {string} */ sig) => {
    const share = 0.1 + r() * 0.15;
    return Array.from({ length: BINS }, (_, i) => (r() < share ? bin() : sig.slice(4 * i, 4 * i + 4))).join(
      '',
    );
  };
  /** @type {string[]} a sample of stored fingerprints, to plant near-duplicates of */
  const sample = [];

  /**
   * @param {number} from
   * @param {number} to
   */
  async function load(from, to) {
    const batch = 5000;
    for (let start = from; start < to; start += batch) {
      /** @type {object[]} */
      const body = [];
      for (let i = start; i < Math.min(to, start + batch); i++) {
        const host = `h${i % HOSTS}.example.com`;
        const simhash = random64();
        const minhash = randomSignature();
        if (i % 997 === 0 && sample.length < 5000) sample.push(minhash);
        body.push({ index: { _index: content, _id: `d${i}` } });
        body.push({
          url: `http://${host}/p/${i}.html`,
          host,
          simhash,
          minhash,
          minhashKeys: bandKeys(minhash),
          simhashTokens: 800 + Math.floor(r() * 800),
        });
      }
      const res = await client.bulk({ body });
      if (res.body.errors) throw new Error('bulk errors');
    }
    await client.indices.refresh({ index: content });
  }

  const index = new DedupIndex(client, { content, hosts });
  /** @param {number} n */
  async function time(n) {
    /** @type {number[]} */
    const ms = [];
    let candidates = 0;
    let randomCandidates = 0;
    const cpu0 = cpuSeconds(opensearchPid);
    for (let i = 0; i < n; i++) {
      /** @type {string[]} */
      const fps = [];
      for (let k = 0; k < GROUP; k++)
        fps.push(
          k < NEAR_PER_GROUP && sample.length > 0
            ? near(sample[Math.floor(r() * sample.length)] ?? '')
            : randomSignature(),
        );
      const keys = [...new Set(fps.flatMap((f) => bandKeys(f)))];
      const ids = fps.map((_, k) => `page-${i}-${k}`);
      const t = performance.now();
      const result = await index.lookup({ keys, exact: [], ids, hosts: [] });
      ms.push(performance.now() - t);
      candidates += result.candidates.length;
      // Candidates that no planted near-duplicate asked for: chance matches of random fingerprints.
      const planted = new Set(fps.slice(0, NEAR_PER_GROUP).flatMap((f) => bandKeys(f)));
      randomCandidates += result.candidates.filter(
        (c) => !c.minhash || !bandKeys(c.minhash).some((k) => planted.has(k)),
      ).length;
    }
    const cpu = cpuSeconds(opensearchPid) - cpu0;
    return {
      p50: pct(ms, 50),
      p95: pct(ms, 95),
      msPerPage: ms.reduce((a, b) => a + b, 0) / ms.length / GROUP,
      candidatesPerPage: candidates / n / GROUP,
      randomCandidatesPerPage: randomCandidates / n / (GROUP - NEAR_PER_GROUP),
      opensearchCpuMsPerPage: (cpu * 1000) / n / GROUP,
    };
  }

  await client.indices.delete({ index: `${content},${hosts}`, ignore_unavailable: true });
  const mapping = readMapping('content');
  mapping.settings.index.number_of_shards = 2;
  mapping.settings.index.number_of_replicas = 0;
  await client.indices.create({ index: content, body: /** @type {never} */ (mapping) });
  await client.indices.create({ index: hosts, body: /** @type {never} */ (readMapping('hosts')) });
  /** @type {DedupQueryRow[]} */
  const rows = [];
  let loaded = 0;
  for (const size of [100_000, 1_000_000].filter((s) => s <= maxDocs)) {
    const t = Date.now();
    await load(loaded, size);
    const loadSecs = (Date.now() - t) / 1000;
    loaded = size;
    await client.indices.forcemerge({ index: content, max_num_segments: 5 }).catch(() => {});
    await time(5); // warm up
    const row = { docs: size, loadSecs, group: GROUP, ...(await time(runs)) };
    rows.push(row);
    log(
      `  ${size} content docs: a group of ${GROUP} pages p50 ${row.p50.toFixed(1)} ms, p95 ${row.p95.toFixed(1)} ms; ` +
        `${row.msPerPage.toFixed(2)} ms and ${row.opensearchCpuMsPerPage.toFixed(2)} OpenSearch CPU-ms per page; ` +
        `${row.randomCandidatesPerPage.toFixed(3)} chance candidates per page`,
    );
  }
  await client.indices.delete({ index: `${content},${hosts}` });
  await client.close();
  return rows;
}

/**
 * The bench settings with near-duplicate and soft-404 detection off, and no fingerprint at all:
 * what the crawl costs without the feature.
 * @param {string} dir
 * @param {string} root
 * @returns {Record<string, unknown>}
 */
export function dedupOffSettings(dir, root) {
  /** @type {Record<string, { class: string }[]>} */
  const filters = JSON.parse(readFileSync(join(root, 'conf/parsefilters.json'), 'utf8'));
  const top = 'org.apache.stormcrawler.parse.ParseFilters';
  filters[top] = (filters[top] ?? []).filter((f) => !f.class.endsWith('SimhashParseFilter'));
  const path = join(dir, 'parsefilters-no-simhash.json');
  writeFileSync(path, JSON.stringify(filters, null, 2));
  return { 'dedup.mode': 'off', 'soft404.enabled': false, 'parsefilters.config.file': path };
}

/**
 * Settings that leave the whole-body signature out of SimhashParseFilter (issue 43's added crawler
 * work on a web without near-duplicates), in a parse filter file written to `dir`.
 * @param {string} dir
 * @param {string} root
 */
export function bodyOffSettings(dir, root) {
  /** @type {Record<string, { class: string, params?: Record<string, unknown> }[]>} */
  const filters = JSON.parse(readFileSync(join(root, 'conf/parsefilters.json'), 'utf8'));
  for (const f of filters['org.apache.stormcrawler.parse.ParseFilters'] ?? [])
    if (f.class.endsWith('SimhashParseFilter')) f.params = { ...f.params, bodySignature: false };
  const path = join(dir, 'parsefilters-no-body.json');
  writeFileSync(path, JSON.stringify(filters, null, 2));
  return { 'parsefilters.config.file': path };
}

/**
 * @typedef {import('./crawl.mjs').CrawlResult} CrawlRun
 * @typedef {{ hosts: number, pages: number, on: CrawlRun & { dedup?: Record<string, number> }, off: CrawlRun }} DedupCrawlResult
 * @typedef {{ simhash: import('./simhash.mjs').SimhashResult, query: DedupQueryRow[], crawl?: DedupCrawlResult }} DedupResult
 */

/**
 * The small profile's web (scripts/bench/web.mjs) cut to `hosts` x `pages`, in its own process;
 * resolves once it listens, with its seeds.
 * @param {number} hosts
 * @param {number} pages
 */
export async function startSmallWeb(hosts, pages, profile = 'small') {
  const { child, done } = runNode([
    join(here, 'web.mjs'),
    '--profile',
    profile,
    '--hosts',
    String(hosts),
    '--pages',
    String(pages),
  ]);
  /** @type {{ seeds: string[] }} */
  const web = await new Promise((res, rej) => {
    child.stdout?.once('data', (d) => res(JSON.parse(String(d).split('\n')[0] ?? '{}')));
    done.then(({ err }) => rej(new Error(`web server ended: ${err.join('\n')}`)));
  });
  return { child, web };
}

/** The OpenSearch JVM of OPENSEARCH_PORT's node when several run here, else the only one. */
export function openSearchPid() {
  return findOpenSearchPid(process.env.OPENSEARCH_PORT);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = resolve(here, '../..');
  const opensearchUrl = process.env.OPENSEARCH_URL ?? 'http://127.0.0.1:9200';
  const log = (/** @type {string} */ l) => console.log(l);
  log('fingerprint: features and cost');
  const simhash = simhashBench({ log });
  log('candidate query at scale');
  const query = await dedupQueryBench({
    opensearchUrl,
    maxDocs: numberOption('docs', 1_000_000),
    opensearchPid: openSearchPid(),
    log,
  });
  const hosts = numberOption('hosts', 20);
  const pages = numberOption('pages', 500);
  log(`crawl of the small web (${hosts} hosts x ${pages} pages), detection on, then off`);
  const { child, web } = await startSmallWeb(hosts, pages);
  const client = new Client({ node: opensearchUrl });
  const dir = join(root, '.bench', 'dedup');
  const confOptions = { opensearchUrl, concurrency: 50, hosts };
  const clear = () => deleteBenchIndices(client);
  /** @param {string} conf */
  const crawl = async (conf) => {
    await clear();
    const r = await crawlEndToEnd({
      root,
      conf,
      seeds: web.seeds,
      pids: { opensearch: openSearchPid(), web: child.pid },
      log,
    });
    await clear();
    return r;
  };
  try {
    const on = await crawl(writeBenchConf(dir, root, confOptions).path);
    const off = await crawl(
      writeBenchConf(dir, root, { ...confOptions, extra: dedupOffSettings(dir, root) }).path,
    );
    const { dedupSection } = await import('./report.mjs');
    console.log(`\n${dedupSection({ simhash, query, crawl: { hosts, pages, on, off } })}`);
  } finally {
    child.kill('SIGTERM');
    await client.close();
  }
}
