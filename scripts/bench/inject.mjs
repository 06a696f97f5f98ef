// @ts-check
// `crawler inject` at scale: a seeds file of a million lines (10 k hosts, one URL and a metadata
// field per line, two bad lines) through the built CLI, in its own process with a 128 MB heap, into
// a scratch status index. What it shows: lines/s, and a peak RSS that does not grow with the file
// (the suite keeps a 100,000-URL version of this as a test; the million lines are measured here).
// Settings as the test's: 2,000 actions per bulk, no transitions index.
//
//   node scripts/bench/inject.mjs [lines]   (needs npm run build; OpenSearch at OPENSEARCH_URL,
//                                            default http://127.0.0.1:9200)

import { closeSync, mkdirSync, openSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Client } from '@opensearch-project/opensearch';
import { stringify } from 'yaml';
import { CLI } from './dist.mjs';
import { runNode } from './proc.mjs';

const HEAP_MB = 128;
const index = 'bench-inject-status';
const here = fileURLToPath(new URL('.', import.meta.url));

/**
 * @typedef {object} InjectResult
 * @property {number} lines lines in the file
 * @property {number} urls URLs written
 * @property {number} fileMb size of the file
 * @property {number} secs wall time of the process, start-up and index creation included
 * @property {number} linesPerSec
 * @property {number} cpuSecs user + system CPU of the process
 * @property {number} maxRssMb peak resident set size of the process
 * @property {number} heapMb the process's --max-old-space-size
 */

/** Line numbers of the two bad lines, as the old suite test had them. */
const badLines = (/** @type {number} */ lines) => ({
  [Math.min(10, lines)]: 'not a url at all',
  [Math.ceil(lines / 2)]: 'ftp://files.example.com/x',
});

/**
 * Writes the seeds file, a chunk of lines at a time.
 * @param {string} path
 * @param {number} lines
 */
function writeSeeds(path, lines) {
  /** @type {Record<number, string>} */
  const bad = badLines(lines);
  const fd = openSync(path, 'w');
  try {
    let chunk = '';
    for (let i = 1; i <= lines; i++) {
      chunk += `${bad[i] ?? `http://h${i % 10_000}.example.com/page/${i}\tsource=file`}\n`;
      if (i % 10_000 === 0 || i === lines) {
        writeSync(fd, chunk);
        chunk = '';
      }
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * @param {{ opensearchUrl: string, lines?: number, dir?: string, log?: (line: string) => void }} options
 * @returns {Promise<InjectResult>}
 */
export async function injectBench({
  opensearchUrl,
  lines = 1_000_000,
  dir = join(here, '../../.bench/inject'),
  log = () => {},
}) {
  mkdirSync(dir, { recursive: true });
  const conf = join(dir, 'inject.yaml');
  const seeds = join(dir, 'seeds.txt');
  writeFileSync(
    conf,
    stringify({
      'opensearch.addresses': opensearchUrl,
      'opensearch.status.index.name': index,
      'opensearch.indexer.index.name': 'bench-inject-content',
      'opensearch.status.bulkActions': 2000,
      'status.transitions.log': false,
    }),
  );
  writeSeeds(seeds, lines);
  const client = new Client({ node: opensearchUrl, requestTimeout: 120_000 });
  const clear = () =>
    client.indices.delete({ index: `${index},bench-inject-content`, ignore_unavailable: true });
  try {
    await clear();
    const t0 = performance.now();
    const { done } = runNode(['--import', join(here, 'rusage.mjs'), CLI, 'inject', seeds, '--conf', conf], {
      env: { LOG_FORMAT: 'json', NODE_OPTIONS: `--max-old-space-size=${HEAP_MB}` },
    });
    const { code, out, err } = await done;
    const secs = (performance.now() - t0) / 1000;
    const summary = out.findLast((l) => typeof l === 'string' && l.includes(' lines, '));
    const usage = /** @type {{ rusage?: NodeJS.ResourceUsage } | undefined} */ (
      err.findLast((l) => typeof l === 'object' && l !== null && 'rusage' in l)
    )?.rusage;
    const expected = `: ${lines} lines, ${lines - 2} URLs: ${lines - 2} new, 0 known already, 0 not written; 2 bad lines`;
    if (code !== 0 || typeof summary !== 'string' || !summary.includes(expected) || !usage) {
      const tail = [...out, ...err].slice(-5).map((l) => (typeof l === 'string' ? l : JSON.stringify(l)));
      throw new Error(`crawler inject exited ${code}, expected "${expected}":\n${tail.join('\n')}`);
    }
    await client.indices.refresh({ index });
    const urls = (await client.count({ index })).body.count;
    if (urls !== lines - 2) throw new Error(`${urls} documents in ${index}, expected ${lines - 2}`);
    const result = {
      lines,
      urls,
      fileMb: statSync(seeds).size / 2 ** 20,
      secs,
      linesPerSec: lines / secs,
      cpuSecs: (usage.userCPUTime + usage.systemCPUTime) / 1e6,
      maxRssMb: Math.round(usage.maxRSS / 1024),
      heapMb: HEAP_MB,
    };
    log(
      `  ${lines} lines in ${secs.toFixed(1)} s: ${result.linesPerSec.toFixed(0)} lines/s, peak RSS ${result.maxRssMb} MB`,
    );
    return result;
  } finally {
    await clear();
    await client.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await injectBench({
    opensearchUrl: process.env.OPENSEARCH_URL ?? 'http://127.0.0.1:9200',
    lines: Number(process.argv[2] ?? 1_000_000),
    log: console.log,
  });
  console.log(JSON.stringify(result));
}
