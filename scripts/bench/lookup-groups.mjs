// @ts-check
// What a near-duplicate lookup costs OpenSearch by the size of its group of pages: the small web
// crawled once with the defaults (so the content index holds its documents and their band keys as
// a crawl leaves them), then the judge's own lookups (src/opensearch/dedup-index.ts, from dist/:
// the pages' 30 band keys, unseen as a new page's mostly are, and their own document ids) for
// groups of 1 to 100 pages, with OpenSearch's CPU per lookup and per page. It chose when the judge
// sends a group (src/dedup/judge.ts: a lookup costs about 1.5 ms whatever its size).
//
//   node scripts/bench/lookup-groups.mjs   (after npm run build; OpenSearch at OPENSEARCH_URL,
//   OPENSEARCH_PORT naming the local node whose CPU is measured)
// Right after OpenSearch starts, its JIT is still warming up and the figures come out 2-3 times
// higher: run it twice and read the second.

import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@opensearch-project/opensearch';
import { crawlEndToEnd, deleteBenchIndices, writeBenchConf } from './crawl.mjs';
import { openSearchPid, startSmallWeb } from './dedup.mjs';
import { dist } from './dist.mjs';
import { cpuSeconds } from './proc.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const opensearchUrl = process.env.OPENSEARCH_URL ?? 'http://127.0.0.1:9200';
const dir = join(root, '.bench', 'lookup-groups');
const hosts = 20;
const { DedupIndex } = await dist('opensearch/dedup-index.js');

const { child, web } = await startSmallWeb(hosts, 250);
const client = new Client({ node: opensearchUrl });
try {
  await deleteBenchIndices(client);
  const conf = writeBenchConf(dir, root, { opensearchUrl, concurrency: 50, hosts, extra: {} });
  await crawlEndToEnd({
    root,
    conf: conf.path,
    seeds: web.seeds,
    pids: { opensearch: openSearchPid(), web: child.pid },
  });
  const index = 'bench-content';
  const dedupIndex = new DedupIndex(client, { content: index, hosts: 'bench-hosts' });
  const found = await client.search({
    index,
    body: { size: 2000, _source: ['minhashKeys'], query: { exists: { field: 'minhashKeys' } } },
  });
  /** @type {{ _id: string, _source: { minhashKeys: string[] } }[]} */
  const hits = /** @type {never} */ (found.body.hits.hits);
  const docs = hits.map((h) => ({ id: h._id, keys: h._source.minhashKeys }));
  const segments = (await client.cat.segments({ index, format: 'json' })).body.length;
  console.log(`${index}: ${docs.length} documents read back, ${segments} segments`);
  console.log(
    '| pages per lookup | lookups | OpenSearch CPU ms per lookup | per page | wall ms per lookup |',
  );
  console.log('|---:|---:|---:|---:|---:|');
  for (const group of [1, 5, 14, 30, 60, 100]) {
    const lookups = Math.max(20, Math.floor(1400 / group));
    const cpu0 = cpuSeconds(openSearchPid());
    const t0 = performance.now();
    for (let i = 0; i < lookups; i++) {
      const pages = Array.from({ length: group }, (_, j) => docs[(i * group + j) % docs.length]);
      // A new page's keys are mostly unseen: each key's hash digits changed, its band kept.
      const keys = [...new Set(pages.flatMap((p) => (p?.keys ?? []).map((k) => `${k[0]}Z${k.slice(2)}`)))];
      const ids = pages.map((p) => `${p?.id}x`);
      await dedupIndex.lookup({ keys, exact: [], ids, hosts: [] });
    }
    const ms = (cpuSeconds(openSearchPid()) - cpu0) * 1000;
    const wall = (performance.now() - t0) / lookups;
    console.log(
      `| ${group} | ${lookups} | ${(ms / lookups).toFixed(2)} | ${(ms / lookups / group).toFixed(3)} | ${wall.toFixed(2)} |`,
    );
  }
} finally {
  child.kill('SIGTERM');
  await deleteBenchIndices(client);
  await client.close();
}
