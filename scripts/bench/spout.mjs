// @ts-check
// Spout query cost at scale: bulk-loads synthetic status documents (10 k hosts, ~half due) into a
// scratch index of 4 shards and times both query forms (collapse on key, terms + top_hits
// aggregation) at 100 k and 1 M documents, 50 buckets x 2 URLs as the daemon's defaults.
// Part of `npm run bench`; alone: node scripts/bench/spout.mjs [maxDocs] (needs `npm run build` and
// OpenSearch at OPENSEARCH_URL, default http://127.0.0.1:9200).
import { Client } from '@opensearch-project/opensearch';
import { dist } from './dist.mjs';

const { readMapping } = await dist('opensearch/indices.js');
const { aggregationQuery, collapseQuery } = await dist('opensearch/spout/query.js');
const { documentId } = await dist('opensearch/status-doc.js');

const HOSTS = 10_000;
const DAY = 86_400_000;
const index = 'bench-spout-status';

/**
 * @param {readonly number[]} values
 * @param {number} p
 * @returns {number}
 */
function pct(values, p) {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? Number.NaN;
}

/** @typedef {'collapse' | 'aggregation'} QueryForm */
/**
 * One measurement: query latency at a number of status documents.
 * @typedef {{ docs: number, loadSecs: number, form: QueryForm, p50: number, p95: number }} SpoutRow
 */

/**
 * Rows for each size up to maxDocs and each query form.
 * @param {{ opensearchUrl: string, maxDocs?: number, runs?: number, log?: (line: string) => void }} options
 * @returns {Promise<SpoutRow[]>}
 */
export async function spoutBench({ opensearchUrl, maxDocs = 1_000_000, runs = 30, log = () => {} }) {
  const client = new Client({ node: opensearchUrl, requestTimeout: 120_000 });
  const now = Date.now();
  // Deterministic pseudo-random numbers, so every run loads the same index.
  let seed = 42;
  const rnd = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };

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
        const u = `http://${host}/page/${i}`;
        const due = now + Math.round((rnd() * 2 - 1) * DAY);
        body.push({ index: { _index: index, _id: documentId(u), routing: host } });
        body.push({
          url: u,
          status: rnd() < 0.3 ? 'DISCOVERED' : 'FETCHED',
          key: host,
          nextFetchDate: new Date(due).toISOString(),
          metadata: { depth: ['1'] },
        });
      }
      const res = await client.bulk({ body });
      if (res.body.errors) throw new Error('bulk errors');
    }
    await client.indices.refresh({ index });
  }

  /**
   * @param {QueryForm} form
   * @param {number} n
   */
  async function time(form, n) {
    const params = { maxBuckets: 50, maxUrlsPerBucket: 2, filterQueries: [], timeoutSecs: -1 };
    const out = [];
    for (let i = 0; i < n; i++) {
      // A new date each time, as the spout's reset does, so the request cache does not answer.
      const queryDate = new Date(now + i * 1000).toISOString();
      const body =
        form === 'collapse'
          ? collapseQuery({ ...params, queryDate })
          : aggregationQuery({ ...params, queryDate });
      const t = performance.now();
      // The queries are plain objects (as the spout sends them); the client's body type is narrower.
      await client.search({ index, body: /** @type {never} */ (body), request_cache: false });
      out.push(performance.now() - t);
    }
    return { p50: pct(out, 50), p95: pct(out, 95) };
  }

  await client.indices.delete({ index, ignore_unavailable: true });
  const mapping = readMapping('status');
  mapping.settings.index.number_of_shards = 4;
  mapping.settings.index.number_of_replicas = 0;
  await client.indices.create({ index, body: /** @type {never} */ (mapping) });
  /** @type {SpoutRow[]} */
  const rows = [];
  let loaded = 0;
  for (const size of [100_000, 1_000_000].filter((s) => s <= maxDocs)) {
    const t = Date.now();
    await load(loaded, size);
    const loadSecs = (Date.now() - t) / 1000;
    loaded = size;
    await client.indices.forcemerge({ index, max_num_segments: 5 }).catch(() => {});
    for (const form of /** @type {const} */ (['collapse', 'aggregation'])) {
      await time(form, 5); // warm up
      const r = await time(form, runs);
      rows.push({ docs: size, loadSecs, form, ...r });
      log(`  ${size} docs: ${form} p50 ${r.p50.toFixed(1)} ms, p95 ${r.p95.toFixed(1)} ms`);
    }
  }
  await client.indices.delete({ index });
  await client.close();
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await spoutBench({
    opensearchUrl: process.env.OPENSEARCH_URL ?? 'http://127.0.0.1:9200',
    maxDocs: Number(process.argv[2] ?? 1_000_000),
    log: console.log,
  });
  console.table(rows);
}
