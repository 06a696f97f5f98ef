// @ts-check
// Spout query cost at scale: bulk-loads synthetic status documents (10 k hosts, ~half due) into a
// scratch index of 4 shards and times both query forms (collapse on key, terms + top_hits
// aggregation) at 100 k, 1 M and 10 M documents, 50 buckets x 2 URLs as the daemon's defaults.
// `npm run bench` measures up to 1 M (its spout section). `npm run bench:spout` measures up to 10 M
// (node scripts/bench/spout.mjs [maxDocs], default 10,000,000; it needs `npm run build` and
// OpenSearch at OPENSEARCH_URL, default http://127.0.0.1:9200, and about 4 GB of disk) and writes its
// table to scripts/bench/sections/spout-scale.md, which RESULTS.md carries (scripts/bench/sections.mjs).
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@opensearch-project/opensearch';
import { dist } from './dist.mjs';
import { spliceSection } from './sections.mjs';

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
 * `cpuMs`: OpenSearch's own CPU per query (its process CPU from _nodes/stats over the timed
 * queries), which a busy machine does not inflate as it does the latencies; NaN when unknown.
 * @typedef {{ docs: number, loadSecs: number, form: QueryForm, p50: number, p95: number, cpuMs?: number }} SpoutRow
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
    const cpu0 = await cpuMs();
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
    return { p50: pct(out, 50), p95: pct(out, 95), cpuMs: ((await cpuMs()) - cpu0) / n };
  }

  /** CPU milliseconds the cluster's processes have used so far (NaN when not reported). */
  async function cpuMs() {
    try {
      const res = await client.nodes.stats({ metric: ['process'] });
      const nodes = /** @type {{ process?: { cpu?: { total_in_millis?: number } } }[]} */ (
        Object.values(res.body.nodes)
      );
      return nodes.reduce((sum, n) => sum + (n.process?.cpu?.total_in_millis ?? Number.NaN), 0);
    } catch {
      return Number.NaN;
    }
  }

  await client.indices.delete({ index, ignore_unavailable: true });
  const mapping = readMapping('status');
  mapping.settings.index.number_of_shards = 4;
  mapping.settings.index.number_of_replicas = 0;
  await client.indices.create({ index, body: /** @type {never} */ (mapping) });
  /** @type {SpoutRow[]} */
  const rows = [];
  let loaded = 0;
  for (const size of [100_000, 1_000_000, 10_000_000].filter((s) => s <= maxDocs)) {
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

/**
 * The section `npm run bench:spout` adds to RESULTS.md.
 * @param {readonly SpoutRow[]} rows
 * @param {{ version: string, heap: string, minutes: number }} run
 */
export function spoutScaleSection(rows, run) {
  /** @type {(n: number) => string} */
  const f0 = (n) => Math.round(n).toLocaleString('en-US');
  /** @type {(n: number) => string} */
  const f1 = (n) => n.toFixed(1);
  const lines = rows.map(
    (r) =>
      `| ${f0(r.docs)} | ${r.form} | ${f1(r.p50)} | ${f1(r.p95)} | ${f1(r.cpuMs ?? Number.NaN)} | ${f0(r.loadSecs)} |`,
  );
  /** @type {(docs: number, form: QueryForm) => SpoutRow | undefined} */
  const at = (docs, form) => rows.find((r) => r.docs === docs && r.form === form);
  const growth = (/** @type {QueryForm} */ form) => {
    const a = at(1_000_000, form);
    const b = at(10_000_000, form);
    return a && b ? `${form} ${(b.p95 / a.p95).toFixed(2)}x` : `${form} n/a`;
  };
  return `## Spout at 10 M status documents (\`npm run bench:spout\`)

${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${cpus().length} x ${cpus()[0]?.model.trim()}, ${Math.round(totalmem() / 2 ** 30)} GiB, shared with other work;
OpenSearch ${run.version}, single node, ${run.heap} heap; ${f1(run.minutes)} minutes in all. The same index and
queries as the spout section above (4 shards, 10 k hosts, about half the documents due, 50 buckets x
2 URLs, a new query date each time, request_cache off, 30 timed queries after 5 warm-up ones), grown
to 10 M documents. p95 growth from 1 M to 10 M: ${growth('aggregation')}, ${growth('collapse')}. The CPU
column is OpenSearch's own process CPU over the timed queries (from _nodes/stats), divided by their
number: unlike the latencies, other work on the machine does not inflate it.

| status documents | query form | p50 ms | p95 ms | OpenSearch CPU ms per query | load s |
|---:|---|---:|---:|---:|---:|
${lines.join('\n')}
`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const started = Date.now();
  const opensearchUrl = process.env.OPENSEARCH_URL ?? 'http://127.0.0.1:9200';
  const rows = await spoutBench({
    opensearchUrl,
    maxDocs: Number(process.argv[2] ?? 10_000_000),
    log: console.log,
  });
  console.table(rows);
  if (rows.some((r) => r.docs >= 10_000_000)) {
    const client = new Client({ node: opensearchUrl });
    const version = (await client.info()).body.version.number;
    const nodes = await client.nodes.info({ metric: ['jvm'] });
    const jvm = /** @type {{ jvm?: { mem?: { heap_max_in_bytes?: number } } }[]} */ (
      Object.values(nodes.body.nodes)
    );
    const heap = `${Math.round((jvm[0]?.jvm?.mem?.heap_max_in_bytes ?? 0) / 2 ** 20)} MB`;
    await client.close();
    const section = spoutScaleSection(rows, { version, heap, minutes: (Date.now() - started) / 60_000 });
    const here = dirname(fileURLToPath(import.meta.url));
    mkdirSync(join(here, 'sections'), { recursive: true });
    writeFileSync(join(here, 'sections', 'spout-scale.md'), section);
    spliceSection(join(here, 'RESULTS.md'), 'spout-scale', section);
    console.log(`\n${section}\nwritten to scripts/bench/sections/spout-scale.md and RESULTS.md`);
  }
}
