// @ts-check
// How long a `crawler` command takes from the shell's point of view: the process started, its
// modules loaded, its queries answered, the process gone. Each command is run `--runs` times (10)
// and the minimum and median wall times printed; with `--before PATH` another build's main.js
// (e.g. a checkout of the previous commit) is run too, alternately, so that both see the same load
// on a shared machine. Issue 46 asks for `--version` and `--help` under 0.3 s and `stats` and `url`
// under 1 s plus their queries (a local node answers those in a few ms).
//
//   node scripts/bench/cli.mjs [--runs N] [--before ../other/dist/cli/main.js]
//   (after npm run build; OpenSearch at OPENSEARCH_URL, default http://127.0.0.1:9200; the bench
//   creates and removes indices of its own, so the figures include real queries on empty indices)

import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI } from './dist.mjs';
import { numberOption } from './proc.mjs';

const runs = numberOption('runs', 10);
const beforeAt = process.argv.indexOf('--before');
const before = beforeAt >= 0 ? process.argv[beforeAt + 1] : undefined;
const opensearchUrl = process.env.OPENSEARCH_URL ?? 'http://127.0.0.1:9200';
const suffix = `${process.pid}`;
const conf = join(mkdtempSync(join(tmpdir(), 'bench-cli-')), 'bench.yaml');
writeFileSync(
  conf,
  [
    `opensearch.addresses: "${opensearchUrl}"`,
    `opensearch.status.index.name: "bench-cli-status-${suffix}"`,
    `opensearch.indexer.index.name: "bench-cli-content-${suffix}"`,
    'opensearch.status.shards: 1',
    'opensearch.indexer.shards: 1',
    '',
  ].join('\n'),
);

/** Wall time of one run, ms; the command's exit code must be one of `ok`. */
function time(/** @type {string} */ cli, /** @type {string[]} */ args, /** @type {number[]} */ ok) {
  const t = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [cli, ...args], {
    encoding: 'utf8',
    env: { ...process.env, OPENSEARCH_URL: '' },
  });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (!ok.includes(r.status ?? -1)) throw new Error(`${args.join(' ')}: exit ${r.status}: ${r.stderr}`);
  return ms;
}

const conf_ = ['--conf', conf, '--log-level', 'warn'];
/** @type {[string, string[], number[]][]} */
const commands = [
  ['--version', ['--version'], [0]],
  ['--help', ['--help'], [0]],
  ['stats --help', ['stats', '--help'], [0]],
  ['stats', ['stats', ...conf_], [0]],
  // A URL the index does not know: exit 1, after the same queries as a known one.
  ['url URL', ['url', 'https://www.example.org/', ...conf_], [1]],
  ['node -e 0 (Node.js alone)', [], [0]],
];

time(CLI, ['init', ...conf_], [0]);
/** @type {[string, string][]} */
const builds = before
  ? [
      ['after', CLI],
      ['before', before],
    ]
  : [['this build', CLI]];
/** @type {Map<string, number[]>} */
const samples = new Map();
for (let i = 0; i < runs; i++) {
  for (const [label, args, ok] of commands) {
    for (const [build, cli] of builds) {
      // Node.js alone, once a round: the floor under every command.
      if (args.length === 0 && build !== builds[0]?.[0]) continue;
      const ms = args.length === 0 ? time('-e', ['0'], ok) : time(cli, args, ok);
      const key = `${label}\t${args.length === 0 ? '-' : build}`;
      samples.set(key, [...(samples.get(key) ?? []), ms]);
    }
  }
}
const { Client } = await import('@opensearch-project/opensearch');
const client = new Client({ node: opensearchUrl });
await client.indices.delete({ index: `bench-cli-*-${suffix}`, ignore_unavailable: true });
await client.close();

const median = (/** @type {number[]} */ xs) =>
  [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
console.log(`| command | build | min ms | median ms | runs |`);
console.log(`|---|---|---:|---:|---:|`);
for (const [key, xs] of samples) {
  const [label, build] = key.split('\t');
  console.log(
    `| \`${label}\` | ${build} | ${Math.min(...xs).toFixed(0)} | ${median(xs).toFixed(0)} | ${xs.length} |`,
  );
}
