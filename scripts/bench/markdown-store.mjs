// @ts-check
// What storing the Markdown costs OpenSearch, by how the content index maps it (issue 42's point 8):
// the small web crawled once with the defaults, its content documents read back as the crawler wrote
// them, then indexed again into a fresh index per mapping variant, in bulks of 100 as the indexer
// sends them, with a refresh and a flush at the end; OpenSearch's CPU (from /proc) per document.
// Variants run interleaved, round after round (the machine is shared); the first round is not
// counted (OpenSearch's JIT). Variants: no markdown field at all; `markdown` as today's text field
// with "index": false; `markdown` under an object mapped "enabled": false (parsing skipped).
//
//   node scripts/bench/markdown-store.mjs [--rounds 5] [--copies 20]   (after npm run build; OpenSearch at
//   OPENSEARCH_URL, OPENSEARCH_PORT naming the local node whose CPU is measured)

import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@opensearch-project/opensearch';
import { crawlEndToEnd, deleteBenchIndices, writeBenchConf } from './crawl.mjs';
import { openSearchPid, startSmallWeb } from './dedup.mjs';
import { cpuSeconds, numberOption } from './proc.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const opensearchUrl = process.env.OPENSEARCH_URL ?? 'http://127.0.0.1:9200';
const rounds = numberOption('rounds', 5);
// Each document indexed this many times under other ids: an index the size of a long crawl's, whose
// merges rewrite the stored source again and again (5,000 x 20 = 100,000 documents).
const copies = numberOption('copies', 1);
const hosts = 20;
/** @type {{ settings: Record<string, unknown>, mappings: { properties: Record<string, unknown> } }} */
const base = JSON.parse(readFileSync(join(root, 'mappings/content.json'), 'utf8'));

/** @type {Record<string, { field: Record<string, unknown> | undefined, keep: boolean }>} */
const variants = {
  'no markdown': { field: undefined, keep: false },
  'text, index false (today)': { field: { type: 'text', index: false }, keep: true },
  'object, enabled false': { field: { type: 'object', enabled: false }, keep: true },
};

/**
 * Waits until the index has no merge running (what its writes set off is part of their cost).
 * @param {string} index
 */
async function mergesDone(index) {
  for (;;) {
    const stats = await client.indices.stats({ index, metric: 'merge' });
    /** @type {any} */
    const body = stats.body;
    if ((body._all?.primaries?.merges?.current ?? 0) === 0) return;
    await new Promise((r) => setTimeout(r, 200));
  }
}

const { child, web } = await startSmallWeb(hosts, 250);
const client = new Client({ node: opensearchUrl });
try {
  await deleteBenchIndices(client);
  const conf = writeBenchConf(join(root, '.bench', 'markdown-store'), root, {
    opensearchUrl,
    concurrency: 50,
    hosts,
    extra: {},
  });
  await crawlEndToEnd({ root, conf: conf.path, seeds: web.seeds, pids: {} });
  await client.indices.refresh({ index: 'bench-content' });
  const found = await client.search({
    index: 'bench-content',
    body: { size: 10000, query: { match_all: {} } },
  });
  /** @type {{ _id: string, _source: Record<string, unknown> }[]} */
  const docs = /** @type {never} */ (found.body.hits.hits);
  const withMd = docs.filter((d) => typeof d._source.markdown === 'string').length;
  const chars = (/** @type {string} */ f) =>
    docs.reduce((n, d) => n + String(d._source[f] ?? '').length, 0) / docs.length;
  console.log(
    `${docs.length} content documents, ${withMd} with markdown; content ${chars('content').toFixed(0)} characters, markdown ${chars('markdown').toFixed(0)} on average`,
  );
  const pid = openSearchPid();
  /** @type {Record<string, number[]>} */
  const cpu = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
  for (let r = -1; r < rounds; r++) {
    const names = Object.keys(variants);
    for (const name of r % 2 ? names : names.reverse()) {
      const v = variants[name];
      if (!v) continue;
      const index = 'bench-markdown-store';
      await client.indices.delete({ index, ignore_unavailable: true });
      const properties = { ...base.mappings.properties };
      if (v.field) properties.markdown = v.field;
      else delete properties.markdown;
      await client.indices.create({
        index,
        body: /** @type {never} */ ({ settings: base.settings, mappings: { ...base.mappings, properties } }),
      });
      const cpu0 = cpuSeconds(pid);
      for (let c = 0; c < copies; c++)
        for (let i = 0; i < docs.length; i += 100) {
          /** @type {Record<string, any>[]} */
          const body = [];
          for (const d of docs.slice(i, i + 100)) {
            const source = { ...d._source };
            if (!v.keep) delete source.markdown;
            body.push({ index: { _index: index, _id: `${d._id}-${c}` } }, source);
          }
          const res = await client.bulk({ body, filter_path: 'errors,items.*.error' });
          if (res.body.errors) throw new Error(`${name}: ${JSON.stringify(res.body.items?.[0])}`);
        }
      await client.indices.refresh({ index });
      await client.indices.flush({ index });
      await mergesDone(index);
      const ms = ((cpuSeconds(pid) - cpu0) * 1000) / (docs.length * copies);
      if (r >= 0) cpu[name]?.push(ms);
      console.log(
        `${r < 0 ? 'warm-up' : `round ${r + 1}`} ${name}: OpenSearch ${ms.toFixed(3)} CPU ms per document`,
      );
    }
  }
  await client.indices.delete({ index: 'bench-markdown-store', ignore_unavailable: true });
  const median = (/** @type {number[]} */ xs) =>
    [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
  console.log(
    '\n| mapping of markdown | OpenSearch CPU ms per document (median) | min-max |\n|---|---:|---|',
  );
  for (const [name, xs] of Object.entries(cpu))
    console.log(
      `| ${name} | ${median(xs).toFixed(3)} | ${Math.min(...xs).toFixed(3)}-${Math.max(...xs).toFixed(3)} |`,
    );
} finally {
  child.kill('SIGTERM');
  await deleteBenchIndices(client);
  await client.close();
}
