// @ts-check
// One profile of the benchmark alone, printed as its RESULTS.md section (RESULTS.md is left as it
// is): `npm run bench:fewhost` (the few-host site beside wget and Crawlee) or `npm run bench:deep`
// (the deep site beside Crawlee, and the politeness check). OPENSEARCH_URL names the cluster
// (default http://127.0.0.1:9200, which must answer: nothing is started here).

import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@opensearch-project/opensearch';
import { deepSiteBench } from './deep.mjs';
import { fewHostBench } from './fewhost.mjs';
import { findOpenSearchPid } from './proc.mjs';
import { fewHostSection } from './report-fewhost.mjs';
import { deepSection } from './report-throughput.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const which = process.argv[2];
const url = process.env.OPENSEARCH_URL ?? 'http://127.0.0.1:9200';
const client = new Client({ node: url });
const started = Date.now();
/** @type {(line: string) => void} */
const say = (line) => console.log(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}`);
try {
  const common = { root, opensearchUrl: url, client, pids: { opensearch: findOpenSearchPid() }, log: say };
  if (which === 'fewhost') {
    console.log(`\n${fewHostSection(await fewHostBench({ ...common, sections: 20, pages: 50 }))}`);
  } else if (which === 'deep') {
    console.log(`\n${deepSection(await deepSiteBench({ ...common, pages: 600, politePages: 15 }))}`);
  } else {
    console.error('usage: node scripts/bench/alone.mjs fewhost|deep');
    process.exitCode = 2;
  }
} finally {
  await client.close();
}
