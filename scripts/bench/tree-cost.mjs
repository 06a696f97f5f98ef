// @ts-check
// What main content + Markdown add to the parse of the bench web's pages, in process (issue 42 point 8):
// the crawler's parser (conf/parsefilters.json's filters, as a crawl runs them) with the defaults against whole-page text without Markdown
// (`textextractor.whole.page: true`), on the pages `npm run bench` crawls (scripts/bench/web.mjs),
// alternated in rounds (A, B, B, A...), CPU time per page, median of the rounds' differences.
// Run it under `node --cpu-prof --cpu-prof-dir DIR` (with `--only defaults`) to see where it goes.
//
//   npm run build && node scripts/bench/tree-cost.mjs [--profile small|large] [--pages 240] [--rounds 6]
//     [--seconds 2] [--only defaults|whole] [--base DIR]
//
// With `--base DIR` (another checkout, built), its defaults are the second variant instead of the
// whole-page text: this build's defaults against that build's, paired the same way.
//
// No assertion: numbers are for reading. The end-to-end figure is features.mjs's (a crawl).

import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { dist } from './dist.mjs';
import { benchParseConfig } from './text-parser.mjs';
import { createWeb } from './web.mjs';

/** @typedef {import('../../src/parse/index.js').OutlinkFilter} OutlinkFilter */
/** @typedef {import('../../src/parse/index.js').ParseInput} ParseInput */
/** @typedef {{ parse(input: ParseInput): { kind: string } }} BenchParser */

const { values } = parseArgs({
  options: {
    profile: { type: 'string', default: 'small' },
    pages: { type: 'string', default: '240' },
    rounds: { type: 'string', default: '6' },
    seconds: { type: 'string', default: '2' },
    only: { type: 'string' },
    base: { type: 'string' },
  },
});
const profile = /** @type {'small' | 'large'} */ (values.profile);
const { createPageParser } = await dist('parse/index.js');
const { Metadata } = await dist('model/metadata.js');
const { systemClock } = await dist('util/clock.js');

const hosts = 4;
const perHost = Math.ceil(Number(values.pages) / hosts);
const web = createWeb({ profile, hosts, pages: perHost });
const md = Metadata.of({ 'protocol.content-type': 'text/html; charset=utf-8', depth: '1' });
/** @type {ParseInput[]} */
const inputs = [];
for (let h = 0; h < hosts; h++)
  for (let i = 0; i < perHost; i++)
    inputs.push({ url: `http://h${h}.example/p/${i}.html`, metadata: md, content: web.body(h, i) });

const config = benchParseConfig(true);
/** @type {OutlinkFilter} */
const identity = { filter: (_s, _m, target) => target };
/** @type {(extra: Record<string, unknown>) => BenchParser} */
const parserWith = (extra) =>
  createPageParser({ ...config, ...extra }, { filter: identity, clock: systemClock });
/** @type {typeof createPageParser | undefined} */
const baseCreate = values.base
  ? (await import(pathToFileURL(resolve(values.base, 'dist/parse/index.js')).href)).createPageParser
  : undefined;
const setups = {
  defaults: parserWith({}),
  whole: baseCreate
    ? baseCreate(config, { filter: identity, clock: systemClock })
    : parserWith({ 'textextractor.whole.page': true, 'textextractor.markdown': false }),
};
const other = baseCreate ? 'base defaults' : 'whole';

/** CPU-µs per page of one timed run. @param {{ parse(i: unknown): { kind: string } }} parser */
function run(parser) {
  const seconds = Number(values.seconds);
  let n = 0;
  const t0 = process.cpuUsage();
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end) {
    for (let k = 0; k < 10; k++) {
      const r = parser.parse(inputs[n % inputs.length]);
      if (r.kind !== 'parsed') throw new Error(`unexpected ${r.kind}`);
      n++;
    }
  }
  const t = process.cpuUsage(t0);
  return (t.user + t.system) / n;
}

const names = values.only
  ? [/** @type {'defaults' | 'whole'} */ (values.only)]
  : /** @type {const} */ (['defaults', 'whole']);
for (const name of names) for (const input of inputs) setups[name].parse(input); // warm-up
const rounds = Number(values.rounds);
/** @type {{ defaults: number[], whole: number[] }} */
const got = { defaults: [], whole: [] };
for (let r = 0; r < rounds; r++) {
  const order = r % 2 === 0 ? names : [...names].reverse();
  for (const name of order) got[name]?.push(run(setups[name]));
}
const median = (/** @type {number[]} */ a) => {
  const s = [...a].sort((x, y) => x - y);
  const at = (/** @type {number} */ i) => s[i] ?? 0;
  return s.length % 2 ? at((s.length - 1) / 2) : (at(s.length / 2 - 1) + at(s.length / 2)) / 2;
};
const fmt = (/** @type {number} */ x) => x.toFixed(1);
for (const name of names)
  console.log(
    `${profile} ${name === 'whole' ? other : name}: ${(got[name] ?? []).map(fmt).join(' ')} CPU-us/page, median ${fmt(median(got[name] ?? []))}`,
  );
if (names.length === 2) {
  const diffs = got.defaults.map((d, i) => d - (got.whole[i] ?? 0));
  console.log(
    `${profile} defaults - ${other}, paired: ${diffs.map(fmt).join(' ')}, median ${fmt(median(diffs))} CPU-us/page`,
  );
}
