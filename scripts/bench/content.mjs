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
//   TRAFILATURA_TESTS=/tmp/trafilatura/tests npm run bench:content -- [--worst 10] [--write]
//
// It scores the main content (the default) and the whole body's text (textextractor.whole.page);
// --worst N lists the N pages with the most errors; --write puts the table into RESULTS.md (section
// "content", kept in scripts/bench/sections/content.md).

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { numberOption } from './proc.mjs';
import { spliceSection } from './sections.mjs';
import { textParser } from './text-parser.mjs';

const dir = process.env.TRAFILATURA_TESTS;
if (!dir || !existsSync(join(dir, 'evaldata.json'))) {
  console.error('Set TRAFILATURA_TESTS to the tests/ folder of a trafilatura checkout (see the header).');
  process.exit(2);
}
const worst = numberOption('worst', 0);

/** @type {Record<string, { file: string, with: string[], without: string[] }>} */
const evaldata = JSON.parse(readFileSync(join(dir, 'evaldata.json'), 'utf8'));
/** @param {string} s */
const norm = (s) => s.replace(/\s+/g, ' ').trim();

/**
 * Scores the parser's text of every page (as trafilatura's eval_common.count_item).
 * @param {boolean} wholePage
 */
async function score(wholePage) {
  const parser = await textParser(wholePage);
  const t = { tp: 0, fp: 0, fn: 0, tn: 0 };
  /** @type {{ url: string, fn: string[], fp: string[] }[]} */
  const errors = [];
  let pages = 0;
  const cpu0 = process.cpuUsage();
  for (const [url, item] of Object.entries(evaldata)) {
    const path = ['cache', 'eval'].map((d) => join(dir ?? '', d, item.file)).find((p) => existsSync(p));
    if (!path) throw new Error(`${url}: ${item.file} not found under ${dir}/cache or ${dir}/eval`);
    pages++;
    const text = norm(parser.text(url, readFileSync(path)));
    const fn = item.with.filter((w) => !text.includes(norm(w)));
    const fp = item.without.filter((w) => text.includes(norm(w)));
    t.tp += item.with.length - fn.length;
    t.fn += fn.length;
    t.fp += fp.length;
    t.tn += item.without.length - fp.length;
    if (fn.length + fp.length > 0) errors.push({ url, fn, fp });
  }
  const cpu = process.cpuUsage(cpu0);
  const precision = t.tp / (t.tp + t.fp);
  const recall = t.tp / (t.tp + t.fn);
  return {
    name: wholePage ? 'whole body (textextractor.whole.page)' : 'main content (default)',
    pages,
    precision,
    recall,
    f1: (2 * precision * recall) / (precision + recall),
    accuracy: (t.tp + t.tn) / (t.tp + t.tn + t.fp + t.fn),
    counts: t,
    cpuMs: (cpu.user + cpu.system) / 1000 / pages,
    errors,
  };
}

const results = [await score(false), await score(true)];
const f = (/** @type {number} */ x) => x.toFixed(3);
const rows = results.map(
  (r) =>
    `| ${r.name} | ${f(r.precision)} | ${f(r.recall)} | **${f(r.f1)}** | ${f(r.accuracy)} | ` +
    `${r.counts.tp} / ${r.counts.fp} / ${r.counts.fn} / ${r.counts.tn} | ${r.cpuMs.toFixed(1)} |`,
);
const table = [
  '| text | precision | recall | F1 | accuracy | tp / fp / fn / tn | parse CPU-ms/page |',
  '|---|---:|---:|---:|---:|---|---:|',
  ...rows,
  '| trafilatura 2.2.0 (published, its README) | | | 0.924 | | | |',
  '| readability-lxml (published, its README) | | | 0.826 | | | |',
].join('\n');
console.log(table);
const main = results[0];
if (worst > 0 && main) {
  main.errors.sort((a, b) => b.fn.length + b.fp.length - (a.fn.length + a.fp.length));
  for (const e of main.errors.slice(0, worst))
    console.log(`${e.url}\n  missing: ${JSON.stringify(e.fn)}\n  kept:    ${JSON.stringify(e.fp)}`);
}
if (process.argv.includes('--write')) {
  const section =
    `## Main content on trafilatura's evaluation set (\`npm run bench:content\`)\n\n` +
    `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, node ${process.version}. ` +
    `${main?.pages ?? 0} pages of github.com/adbar/trafilatura tests/evaldata.json (tests/eval, tests/cache), ` +
    "each through the crawler's parser with the defaults; the text scored as trafilatura's " +
    'tests/eval_common.py does (a "with" snippet found: tp, missing: fn; a "without" snippet found: fp, ' +
    'absent: tn; whitespace-normalised substrings; scores over the summed counts).\n\n' +
    `${table}\n`;
  const path = new URL('./sections/content.md', import.meta.url).pathname;
  writeFileSync(path, section);
  spliceSection(new URL('./RESULTS.md', import.meta.url).pathname, 'content', section);
}
