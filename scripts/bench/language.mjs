// @ts-check
// What language detection (the LanguageID parse filter, eld) costs a crawl, on real pages: WCXB's
// HTML (the Web Content Extraction Benchmark, pages of many sites and languages).
//
//   npm run build && WCXB=/work/data/wcxb node scripts/bench/language.mjs [--pages 400] [--runs 4] [--seconds 2]
//
// It reports, for the default parse filters with and without LanguageID (interleaved runs, the least
// CPU per page of each): CPU-µs per page of the whole parse; then the detector alone on the same
// pages' text (CPU-µs per page), how many pages got a language, and what loading the detector's
// tables costs (time, heap and RSS). Numbers to read, no assertion.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { gunzipSync } from 'node:zlib';
import { dist } from './dist.mjs';
import { numberOption } from './proc.mjs';
import { benchParseConfig } from './text-parser.mjs';

const PAGES = numberOption('pages', 400);
const RUNS = numberOption('runs', 4);
const SECONDS = numberOption('seconds', 2);
const dir = join(process.env.WCXB ?? '/work/data/wcxb', 'dev', 'html');

const { createPageParser, buildParseFilters } = await dist('parse/index.js');
const { Metadata } = await dist('model/metadata.js');
const { systemClock } = await dist('util/clock.js');

const files = readdirSync(dir)
  .filter((f) => f.endsWith('.html.gz') || f.endsWith('.html'))
  .sort()
  .slice(0, PAGES);
const pages = files.map((f) => {
  const raw = readFileSync(join(dir, f));
  return f.endsWith('.gz') ? gunzipSync(raw) : raw;
});

const config = benchParseConfig(true);
const KEY = 'org.apache.stormcrawler.parse.ParseFilters';
const defaults = JSON.parse(readFileSync(new URL('../../conf/parsefilters.json', import.meta.url), 'utf8'))[
  KEY
];
/** @type {import('../../src/parse/index.js').OutlinkFilter} */
const identity = { filter: (_s, _m, target) => target };
const parserWith = (/** @type {unknown[]} */ filters) =>
  createPageParser(config, {
    filter: identity,
    clock: systemClock,
    filters: buildParseFilters({ [KEY]: filters }, 'bench'),
  });

const memory = () => {
  global.gc?.();
  const m = process.memoryUsage();
  return { heap: m.heapUsed, rss: m.rss };
};
const before = memory();
const t0 = performance.now();
const setups = [
  { name: 'default parse filters', parser: parserWith(defaults) },
  {
    name: 'default + LanguageID (eld small)',
    parser: parserWith([...defaults, { class: 'LanguageID', name: 'LanguageID' }]),
  },
];
for (const s of setups) await s.parser.ready;
const loadMs = performance.now() - t0;
const after = memory();

const md = Metadata.of({ 'protocol.content-type': 'text/html', depth: '1' });
const inputs = pages.map((content, i) => ({ url: `https://site${i}.example/page`, metadata: md, content }));

/** @param {(typeof setups)[number]['parser']} parser */
function bench(parser) {
  let n = 0;
  const end = performance.now() + SECONDS * 1000;
  const cpu0 = process.cpuUsage();
  while (performance.now() < end || n < inputs.length) {
    parser.parse(/** @type {never} */ (inputs[n % inputs.length]));
    n++;
  }
  const cpu = process.cpuUsage(cpu0);
  return (cpu.user + cpu.system) / n;
}

for (const s of setups) for (const input of inputs.slice(0, 50)) s.parser.parse(/** @type {never} */ (input));
/** @type {number[]} */
const best = setups.map(() => Number.POSITIVE_INFINITY);
for (let r = 0; r < RUNS; r++)
  for (const [i, s] of setups.entries()) best[i] = Math.min(/** @type {number} */ (best[i]), bench(s.parser));

// The detector alone, on the text the filter reads (the first 5000 characters of the page's text).
const eld = (await import('eld/small')).eld;
/** @type {string[]} */
const texts = [];
/** @type {Map<string, number>} */
const langs = new Map();
for (const input of inputs) {
  const r =
    /** @type {{ kind: string, text?: string, metadata?: { getFirstValue(k: string): string | undefined } }} */ (
      setups[1]?.parser.parse(/** @type {never} */ (input))
    );
  if (r.kind !== 'parsed' || !r.text) continue;
  texts.push(r.text.slice(0, 5000));
  const lang = r.metadata?.getFirstValue('lang') ?? '(none)';
  langs.set(lang, (langs.get(lang) ?? 0) + 1);
}
let detectBest = Number.POSITIVE_INFINITY;
for (let r = 0; r < RUNS; r++) {
  const cpu0 = process.cpuUsage();
  for (const t of texts) eld.detect(t);
  const cpu = process.cpuUsage(cpu0);
  detectBest = Math.min(detectBest, (cpu.user + cpu.system) / texts.length);
}

const mb = (/** @type {number} */ b) => (b / 1048576).toFixed(0);
console.log(`node ${process.version}; ${inputs.length} WCXB dev pages; best of ${RUNS} runs of ${SECONDS} s`);
for (const [i, s] of setups.entries())
  console.log(`  ${s.name.padEnd(36)} ${(/** @type {number} */ (best[i]) / 1000).toFixed(3)} CPU-ms/page`);
const added = (best[1] ?? 0) - (best[0] ?? 0);
console.log(`  LanguageID adds ${(added / 1000).toFixed(3)} CPU-ms/page to the parse`);
console.log(
  `  eld.detect alone: ${(detectBest / 1000).toFixed(3)} CPU-ms/page over ${texts.length} texts ` +
    `(mean ${(texts.reduce((a, t) => a + t.length, 0) / texts.length).toFixed(0)} characters)`,
);
console.log(
  `  languages: ${[...langs]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 12)
    .map(([l, n]) => `${l} ${n}`)
    .join(', ')}`,
);
console.log(
  `  loading the parsers with the tables: ${loadMs.toFixed(0)} ms, heap +${mb(after.heap - before.heap)} MB, ` +
    `RSS +${mb(after.rss - before.rss)} MB${global.gc ? '' : ' (run with --expose-gc for steadier figures)'}`,
);
