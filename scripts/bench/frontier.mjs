// @ts-check
// The frontier at scale (issue 45): a status index built by the crawl's own index setup (mapping
// file, shard count from the config) is bulk-loaded with realistic status documents (many hosts,
// Zipf-like; due dates spread; a mix of statuses) to each size given, and at each size it measures
// - the spout's timed query in each form, exactly as the spout sends it (select.ts, its default
//   parameters: 50 buckets x 2 URLs, a new query date each time, request cache off);
// - the spout's per-key query (a host's queue runs short: HybridSpout's query, routed);
// - the status updater's bulk rate: the crawl's BulkWriter with the status defaults (500 actions,
//   2 requests at once), a mix of new DISCOVERED URLs (create) and updates of known ones (index);
// - OpenSearch's heap (used, old generation) and disk (store size per document).
//
//   npm run build && OPENSEARCH_URL=http://127.0.0.1:9340 node scripts/bench/frontier.mjs 1e6,3e6,10e6
//
// FRONTIER_LOAD_ONLY=1 only loads; FRONTIER_STORE=1 force-merges after loading and prints the store
// per document; FRONTIER_NO_CRAWL=1 loads documents without their `crawl` field. Prints one JSON line
// per size (and writes them to .bench/frontier.jsonl); keeps the index unless FRONTIER_DELETE=1 (a
// later run with larger sizes goes on from the documents present).
import { appendFileSync, mkdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { Client } from '@opensearch-project/opensearch';
import { dist } from './dist.mjs';

const { loadConfig } = await dist('config/load.js');
const { planIndices, ensureIndices } = await dist('opensearch/indices.js');
const { keyQuery } = await dist('opensearch/spout/query.js');
const { selectDue } = await dist('opensearch/spout/select.js');
const { documentId, toStatusSource } = await dist('opensearch/status-doc.js');
const { BulkWriter } = await dist('opensearch/bulk-writer.js');
const { Metadata } = await dist('model/metadata.js');
const { systemClock } = await dist('util/clock.js');
const { silentLogger } = await dist('util/log.js');

const DAY = 86_400_000;
/** Hosts a document may belong to, drawn Zipf-like (exponent 1): a few big sites, a long tail. */
const HOSTS = 2_000_000;
const TLDS = ['com', 'org', 'net', 'de', 'co.uk', 'fr', 'io', 'info', 'nl', 'edu'];
const WORDS = 'news,blog,article,product,category,tag,page,about,search,2024,2025,item,view,docs,forum'.split(
  ',',
);
const index = process.env.FRONTIER_INDEX ?? 'bench-frontier-status';
// Each document names its crawl (the status index), as the crawl's status writer does;
// FRONTIER_NO_CRAWL=1 leaves the field out (the A/B of what it costs).
const CRAWL = process.env.FRONTIER_NO_CRAWL === '1' ? undefined : index;
const opensearchUrl = process.env.OPENSEARCH_URL ?? 'http://127.0.0.1:9200';
const client = new Client({ node: opensearchUrl, requestTimeout: 600_000 });
const NOW = Date.parse('2026-12-06T00:00:00Z');

// Deterministic pseudo-random numbers (a 32-bit xorshift), so every run loads the same documents.
let seed = 0x9e3779b9;
const rnd = () => {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) / 2 ** 32;
};

// Zipf over host ranks: the cumulative weights 1/r, searched by bisection.
const cumulative = new Float64Array(HOSTS);
{
  let sum = 0;
  for (let r = 0; r < HOSTS; r++) {
    sum += 1 / (r + 1);
    cumulative[r] = sum;
  }
}
/** @returns {number} a host rank, 0 the biggest */
function zipfRank() {
  const x = rnd() * (cumulative[HOSTS - 1] ?? 1);
  let lo = 0;
  let hi = HOSTS - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((cumulative[mid] ?? 0) < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
/** @param {number} rank */
function hostName(rank) {
  const a = WORDS[rank % WORDS.length];
  return `${rank % 3 === 0 ? 'www.' : ''}${a}${rank.toString(36)}.example-${(rank * 7919) % 997}.${TLDS[rank % TLDS.length]}`;
}

/**
 * The i-th status document: DISCOVERED 62% (found over the last 30 days, 95% due), FETCHED 30% and
 * REDIRECTION 3% (fetched over the last days, due again in [-2 d, +1 d]: a crawl behind), FETCH_ERROR
 * 2% (retry within +-2 h), ERROR 3% (never again: no nextFetchDate).
 * @param {number} i
 */
function statusDoc(i) {
  const host = hostName(zipfRank());
  const path = `${WORDS[Math.floor(rnd() * WORDS.length)]}/${i.toString(36)}-${Math.floor(rnd() * 1e9).toString(36)}`;
  const url = `https://${host}/${path}${rnd() < 0.2 ? `?page=${Math.floor(rnd() * 50)}` : ''}`;
  const r = rnd();
  const md = new Metadata();
  md.setValues('depth', [String(1 + Math.floor(rnd() * 5))]);
  md.setValues('url.path', [`https://${host}/${WORDS[Math.floor(rnd() * WORDS.length)]}`]);
  /** @type {import('../../src/model/status.js').Status} */
  let status = 'DISCOVERED';
  /** @type {number | null} */
  let next = NOW - rnd() * 30 * DAY;
  if (r < 0.62) {
    if (rnd() < 0.05) next = NOW + rnd() * DAY;
  } else if (r < 0.95) {
    status = r < 0.92 ? 'FETCHED' : 'REDIRECTION';
    next = NOW + (rnd() * 3 - 2) * DAY;
    md.setValues('fetch.statusCode', [status === 'FETCHED' ? '200' : '301']);
    md.setValues('signature', [Math.floor(rnd() * 2 ** 52).toString(16)]);
  } else if (r < 0.97) {
    status = 'FETCH_ERROR';
    next = NOW + (rnd() * 4 - 2) * 3_600_000;
    md.setValues('fetch.exception', ['connect timed out']);
  } else {
    status = 'ERROR';
    next = null;
    md.setValues('error.cause', ['404']);
    md.setValues('fetch.statusCode', ['404']);
  }
  return {
    url,
    host,
    source: toStatusSource({ url, status, metadata: md, nextFetchDate: next }, host, CRAWL),
  };
}

/** @param {number} from @param {number} to */
async function bulkLoad(from, to) {
  const batch = 5000;
  /** @type {Promise<void>[]} */
  const running = [];
  for (let start = from; start < to; start += batch) {
    /** @type {object[]} */
    const body = [];
    for (let i = start; i < Math.min(to, start + batch); i++) {
      const d = statusDoc(i);
      body.push({ index: { _index: index, _id: documentId(d.url), routing: d.host } }, d.source);
    }
    running.push(
      client.bulk({ body, filter_path: 'errors' }).then((res) => {
        if (res.body.errors) throw new Error('bulk errors');
      }),
    );
    if (running.length >= 2) await running.shift();
  }
  await Promise.all(running);
}

/** Waits until the node merges no segments (a load's merges would count in the queries' CPU). */
async function mergesDone() {
  for (;;) {
    const res = await client.nodes.stats({ metric: ['indices'], index_metric: ['merge'] });
    const n = /** @type {any} */ (Object.values(res.body.nodes)[0]);
    if ((n.indices.merges.current ?? 0) === 0) return;
    await new Promise((r) => setTimeout(r, 2000));
  }
}

/** @param {readonly number[]} values @param {number} p */
function pct(values, p) {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? Number.NaN;
}

async function nodeStats() {
  const res = await client.nodes.stats({ metric: ['jvm', 'process', 'os'] });
  const n = /** @type {any} */ (Object.values(res.body.nodes)[0]);
  return {
    cpuMs: n.process.cpu.total_in_millis,
    heapUsed: n.jvm.mem.heap_used_in_bytes,
    heapMax: n.jvm.mem.heap_max_in_bytes,
    oldUsed: n.jvm.mem.pools?.old?.used_in_bytes ?? Number.NaN,
  };
}

async function indexStats() {
  const res = await client.indices.stats({ index, metric: ['docs', 'store', 'segments', 'fielddata'] });
  const p = /** @type {any} */ (res.body.indices)?.[index].primaries;
  return {
    docs: p.docs.count,
    deleted: p.docs.deleted,
    storeBytes: p.store.size_in_bytes,
    segments: p.segments.count,
    segmentsMemory: p.segments.memory_in_bytes,
    fielddata: p.fielddata.memory_size_in_bytes,
  };
}

/**
 * p50/p99 of the spout's timed query in one form, and OpenSearch's CPU per query.
 * @param {import('../../src/opensearch/spout/query.js').QueryForm} form @param {number} runs
 */
async function timeForm(form, runs) {
  const out = [];
  let step = 0;
  const run = async () => {
    // A new date each time (the spout's moves every 120 s at least), so no cache answers.
    const queryDate = new Date(NOW + ++step * 1000).toISOString();
    const params = { queryDate, maxBuckets: 50, maxUrlsPerBucket: 2, filterQueries: [], timeoutSecs: -1 };
    const t = performance.now();
    const res = await selectDue(client, form, params, { index });
    const ms = performance.now() - t;
    const b = /** @type {any} */ (res.body);
    return {
      ms,
      buckets: (b.aggregations?.partition?.buckets ?? b.hits?.hits ?? b.perKey ?? []).length,
      steps: res.answers.length,
    };
  };
  // Warm-ups: enough that the JIT compiled the form's code paths (their CPU would count otherwise).
  for (let i = 0; i < Number(process.env.FRONTIER_WARMUPS ?? 5); i++) await run();
  const cpu0 = (await nodeStats()).cpuMs;
  let buckets = 0;
  let steps = 0;
  for (let i = 0; i < runs; i++) {
    const r = await run();
    out.push(r.ms);
    buckets += r.buckets;
    steps += r.steps;
  }
  const cpu = ((await nodeStats()).cpuMs - cpu0) / runs;
  return {
    form,
    p50: pct(out, 50),
    p99: pct(out, 99),
    max: Math.max(...out),
    cpuMs: cpu,
    buckets: buckets / runs,
    searches: steps / runs,
    load1: loadavg()[0],
  };
}

/**
 * The per-key query (a host's fetch queue ran short), for hosts drawn as the documents are.
 * @param {number} runs
 */
async function timeKeyQuery(runs) {
  const out = [];
  for (let i = 0; i < runs + 5; i++) {
    const key = hostName(zipfRank());
    // No date in it (the spout drops the hits not due); the request cache is off below.
    const body = keyQuery({ filterQueries: [], timeoutSecs: -1 }, key, 20, undefined);
    const t = performance.now();
    await client.search({ index, routing: key, body: /** @type {never} */ (body), request_cache: false });
    if (i >= 5) out.push(performance.now() - t);
  }
  return { p50: pct(out, 50), p99: pct(out, 99) };
}

/**
 * The status updater's bulk rate: `n` writes through the crawl's BulkWriter with the status
 * defaults, 60% new DISCOVERED URLs (create) and 40% updates of loaded ones to FETCHED (index).
 * @param {number} n
 */
async function statusBulkRate(n) {
  // Known URLs to update: a random sample of the index.
  const sample = await client.search({
    index,
    body: /** @type {never} */ ({
      size: 10_000,
      _source: ['url', 'key'],
      query: { function_score: { random_score: { seed: n, field: '_seq_no' } } },
    }),
  });
  const known = /** @type {{ _source: { url: string, key: string } }[]} */ (sample.body.hits.hits).map(
    (h) => h._source,
  );
  const writer = new BulkWriter(
    client,
    {
      maxActions: 500,
      maxBytes: 15 * 2 ** 20,
      flushIntervalMs: 5000,
      concurrency: 2,
      maxPending: 5000,
      maxAttempts: 10,
      backoffMs: { base: 100, max: 5000 },
    },
    { clock: systemClock, log: silentLogger },
  );
  const cpu0 = (await nodeStats()).cpuMs;
  const t = performance.now();
  /** @type {Promise<void>[]} */
  const settled = [];
  let failed = 0;
  for (let i = 0; i < n; i++) {
    const old = rnd() < 0.4 ? known[Math.floor(rnd() * known.length)] : undefined;
    /** @type {import('../../src/opensearch/bulk-writer.js').BulkAction} */
    let action;
    if (old) {
      const md = new Metadata();
      md.setValues('fetch.statusCode', ['200']);
      md.setValues('depth', ['2']);
      const doc = toStatusSource(
        { url: old.url, status: 'FETCHED', metadata: md, nextFetchDate: NOW + DAY },
        old.key,
        CRAWL,
      );
      action = { op: 'index', index, id: documentId(old.url), routing: old.key, doc };
    } else {
      const d = statusDoc(100_000_000 + Math.floor(rnd() * 1e9));
      action = { op: 'create', index, id: documentId(d.url), routing: d.host, doc: d.source };
    }
    settled.push(
      writer.add(action).then((r) => {
        if (!r.ok) failed++;
      }),
    );
    if (settled.length >= 4000) await Promise.all(settled.splice(0, 2000));
  }
  await writer.flush();
  await Promise.all(settled);
  const secs = (performance.now() - t) / 1000;
  const cpu = (await nodeStats()).cpuMs - cpu0;
  writer.close();
  return { writes: n, failed, docsPerSec: n / secs, osCpuMsPer1000: (cpu / n) * 1000, load1: loadavg()[0] };
}

const sizes = (process.argv[2] ?? '1e6,3e6,10e6').split(',').map(Number);
const { config } = loadConfig({ env: {}, sets: [`opensearch.status.index.name=${index}`] });
const plan = planIndices(config).filter((p) => p.role === 'status');
// FRONTIER_UNSORTED=1: the status index without its sort (the A/B of what the sort costs writes).
if (process.env.FRONTIER_UNSORTED === '1')
  for (const p of plan) {
    const settings = /** @type {Record<string, unknown>} */ (p.body.settings.index);
    delete settings['sort.field'];
    delete settings['sort.order'];
  }
const exists = (await client.indices.exists({ index })).body === true;
if (!exists) await ensureIndices(client, plan);
// A bulk load, not a crawl: no refresh while it runs (set back to the mapping's after).
const refresh = /** @type {any} */ (plan[0]?.body.settings.index)?.refresh_interval ?? '1s';
let loaded = (await indexStats()).docs;
mkdirSync('.bench', { recursive: true });
for (const size of sizes) {
  if (size > loaded) {
    const fast = /** @type {never} */ ({ refresh_interval: '-1', translog: { durability: 'async' } });
    await client.indices.putSettings({ index, body: { index: fast } });
    const cpu0 = (await nodeStats()).cpuMs;
    const t = performance.now();
    await bulkLoad(loaded, size);
    const secs = (performance.now() - t) / 1000;
    const cpu = (await nodeStats()).cpuMs - cpu0;
    const back = /** @type {never} */ ({ refresh_interval: refresh, translog: { durability: 'request' } });
    await client.indices.putSettings({ index, body: { index: back } });
    await client.indices.refresh({ index });
    console.log(
      JSON.stringify({
        loaded: size - loaded,
        secs,
        docsPerSec: (size - loaded) / secs,
        osCpuMsPer1000: (cpu / (size - loaded)) * 1000,
        load1: loadavg()[0],
      }),
    );
    loaded = size;
  }
  // FRONTIER_STORE=1: the store per document once merged into one segment (so that two loads of
  // the same documents compare by their fields, not by how far merging had got).
  if (process.env.FRONTIER_STORE === '1') {
    // One segment per shard: the merge is asked for again until the stats (after a refresh) show it.
    const shards = Number(plan[0]?.body.settings.index.number_of_shards ?? 1);
    let st = await indexStats();
    for (let i = 0; i < 10 && st.segments > shards; i++) {
      await client.indices.forcemerge({ index, max_num_segments: 1, flush: true });
      await mergesDone();
      await client.indices.refresh({ index });
      st = await indexStats();
    }
    console.log(
      JSON.stringify({
        size,
        crawlField: CRAWL !== undefined,
        ...st,
        storeBytesPerDoc: st.storeBytes / st.docs,
      }),
    );
  }
  // FRONTIER_LOAD_ONLY=1: load to the size and stop (a long load runs while the query is developed).
  if (process.env.FRONTIER_LOAD_ONLY === '1') continue;
  await mergesDone();
  const forms = (process.env.FRONTIER_FORMS ?? 'per-key,aggregation,keys-first,collapse').split(',');
  const runs = Number(process.env.FRONTIER_RUNS ?? 100);
  /** @type {object[]} */
  const queries = [];
  for (const form of forms) {
    const n =
      form === 'keys-first' || form === 'per-key'
        ? runs
        : form === 'aggregation'
          ? Math.min(runs, 20)
          : Math.min(runs, 10);
    const r = await timeForm(/** @type {any} */ (form), n);
    console.log(JSON.stringify({ size, ...r }));
    queries.push(r);
  }
  const keyQ = await timeKeyQuery(100);
  const bulk = await statusBulkRate(Number(process.env.FRONTIER_WRITES ?? 50_000));
  await client.indices.refresh({ index });
  const row = {
    size,
    at: new Date().toISOString(),
    loadavg: loadavg(),
    queries,
    keyQuery: keyQ,
    bulk,
    node: await nodeStats(),
    index: await indexStats(),
  };
  console.log(JSON.stringify(row));
  appendFileSync('.bench/frontier.jsonl', `${JSON.stringify(row)}\n`);
}
if (process.env.FRONTIER_DELETE === '1') await client.indices.delete({ index });
await client.close();
