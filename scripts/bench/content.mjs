// @ts-check
// Main-content quality on trafilatura's evaluation set: each page of tests/evaldata.json goes through
// the crawler's parser (defaults: charset detection, main-content extraction) and its text is scored
// as trafilatura's tests/eval_common.py does: per page, each "with" snippet found in the text
// (whitespace-normalised substring) is a true positive, else a false negative; each "without" snippet
// found is a false positive, else a true negative; precision, recall and F1 over the summed counts.
//
// The pages are not in this repository. Get them from github.com/adbar/trafilatura, e.g.:
//   git clone --depth 1 https://github.com/adbar/trafilatura /tmp/trafilatura
// or from a bare mirror: mkdir -p /tmp/trafilatura && git --git-dir=<mirror> archive HEAD tests | tar -x -C /tmp/trafilatura
// then:
//   npm run build && TRAFILATURA_TESTS=/tmp/trafilatura/tests node scripts/bench/content.mjs [--whole-page] [--worst 10]
//
// --whole-page scores the whole body's text (textextractor.whole.page) for comparison; --worst N
// lists the N pages with the most errors; --append writes the result line to RESULTS.md.

import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { dist } from './dist.mjs';
import { numberOption } from './proc.mjs';

const { createPageParser, defaultParseConfig, ParseFilters } = await dist('parse/index.js');
const { Metadata } = await dist('model/metadata.js');
const { systemClock } = await dist('util/clock.js');

const dir = process.env.TRAFILATURA_TESTS;
if (!dir || !existsSync(join(dir, 'evaldata.json'))) {
  console.error('Set TRAFILATURA_TESTS to the tests/ folder of a trafilatura checkout (see the header).');
  process.exit(2);
}
const wholePage = process.argv.includes('--whole-page');
const worst = numberOption('worst', 0);

/** @type {Record<string, { file: string, with: string[], without: string[] }>} */
const evaldata = JSON.parse(readFileSync(join(dir, 'evaldata.json'), 'utf8'));
const parser = createPageParser(
  {
    ...defaultParseConfig(),
    'textextractor.whole.page': wholePage,
    'metadata.transfer': [],
    'metadata.persist': [],
    'metadata.track.path': false,
    'metadata.track.depth': false,
  },
  { filter: { filter: (_s, _m, target) => target }, clock: systemClock, filters: ParseFilters.none },
);
await parser.ready;

/** @param {string} s */
const norm = (s) => s.replace(/\s+/g, ' ').trim();
const total = { tp: 0, fp: 0, fn: 0, tn: 0 };
/** @type {{ url: string, fn: string[], fp: string[] }[]} */
const errors = [];
let pages = 0;
let ms = 0;
for (const [url, item] of Object.entries(evaldata)) {
  const path = ['cache', 'eval'].map((d) => join(dir, d, item.file)).find((p) => existsSync(p));
  if (!path) throw new Error(`${url}: ${item.file} not found under ${dir}/cache or ${dir}/eval`);
  const content = readFileSync(path);
  const t0 = performance.now();
  const r = parser.parse({ url, content, metadata: Metadata.of({ 'protocol.content-type': 'text/html' }) });
  ms += performance.now() - t0;
  pages++;
  const text = norm(r.kind === 'parsed' ? r.text : '');
  const fn = item.with.filter((w) => !text.includes(norm(w)));
  const fp = item.without.filter((w) => text.includes(norm(w)));
  total.tp += item.with.length - fn.length;
  total.fn += fn.length;
  total.fp += fp.length;
  total.tn += item.without.length - fp.length;
  if (fn.length + fp.length > 0) errors.push({ url, fn, fp });
}
const precision = total.tp / (total.tp + total.fp);
const recall = total.tp / (total.tp + total.fn);
const f1 = (2 * precision * recall) / (precision + recall);
const accuracy = (total.tp + total.tn) / (total.tp + total.tn + total.fp + total.fn);
const line =
  `${new Date().toISOString().slice(0, 10)} content ${wholePage ? 'whole page' : 'main content'}: ` +
  `${pages} pages, precision ${precision.toFixed(3)}, recall ${recall.toFixed(3)}, F1 ${f1.toFixed(3)}, ` +
  `accuracy ${accuracy.toFixed(3)} (tp ${total.tp} fp ${total.fp} fn ${total.fn} tn ${total.tn}); ` +
  `${(ms / pages).toFixed(2)} ms/page parse`;
console.log(line);
if (worst > 0) {
  errors.sort((a, b) => b.fn.length + b.fp.length - (a.fn.length + a.fp.length));
  for (const e of errors.slice(0, worst))
    console.log(`${e.url}\n  missing: ${JSON.stringify(e.fn)}\n  kept:    ${JSON.stringify(e.fp)}`);
}
if (process.argv.includes('--append'))
  appendFileSync(new URL('./RESULTS.md', import.meta.url), `\n- ${line}\n`);
