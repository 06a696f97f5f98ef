// @ts-check
// Main content on the modern web: WCXB, the Web Content Extraction Benchmark (2026, CC-BY-4.0,
// github.com/murroughfoley/wcx): 2,008 human-reviewed pages of 7 types (article, service, product,
// collection, forum, listing, documentation), a dev split (1,497 pages: tune on it) and a held-out
// test split (511 pages: measure it, never tune on it). Each page goes through the crawler's parser
// with the defaults (text-parser.mjs), its text scored against ground_truth.main_content twice:
// (a) the article benchmark's metric (article-score.mjs: 4-gram shingles, per-page precision and
//     recall averaged, F1 of the averages), the metric of issue 42;
// (b) WCXB's own (its evaluate.py): word-level F1 of lowercased `\w+` tokens per page, averaged.
// Beside it, on the same pages: the whole body's text (textextractor.whole.page) and Readability.js
// (@mozilla/readability 0.6.0 over jsdom, its textContent; '' when it finds no article).
//
// The pages are not in this repository. Unpack the benchmark (dev/ and test/ with html/*.html.gz and
// ground-truth/*.json) somewhere, install the bench's own dependencies once (cd scripts/bench && npm
// ci --ignore-scripts), then:
//   WCXB=/path/to/wcxb npm run bench:content-web -- [--split dev|test] [--worst N] [--no-readability]
//      [--page ID] [--type T] [--dump FILE] [--no-whole] [--unseen] [--write]
// --worst N lists the N pages of lowest F1 of each type; --page ID prints our text of one page beside
// its truth; --no-whole leaves out the whole body's column (a faster run); --type T keeps the pages of one type; --dump FILE writes each page's scores (ours and
// Readability.js's, shingle and word F1) as JSON lines, to compare page by page; --write puts the table into RESULTS.md (section "content-web-<split>"). Readability.js
// is slow (jsdom, in worker processes of 50 pages); its texts are cached in
// $TMPDIR/content-web-readability-<split>.json, so an interrupted run goes on where it stopped.

import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { evaluate } from './article-score.mjs';
import { numberOption } from './proc.mjs';
import { spliceSection } from './sections.mjs';
import { textParser } from './text-parser.mjs';

const dir = process.env.WCXB;
const arg = (/** @type {string} */ name) => {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? undefined : process.argv[i + 1];
};
const split = arg('split') ?? 'dev';
if (!dir || !existsSync(join(dir, split, 'ground-truth'))) {
  console.error('Set WCXB to the unpacked benchmark (dev/, test/; see the header).');
  process.exit(2);
}
const worst = numberOption('worst', 0);
const onePage = arg('page');
const onlyType = arg('type');
// A worker computes Readability.js's texts of some pages (jsdom keeps memory a process frees best).
const worker = arg('readability-worker')?.split(',');
const TYPES = ['article', 'forum', 'product', 'collection', 'listing', 'documentation', 'service'];

// --unseen leaves out the pages of another split that dev also holds (the same id or URL): 139 of
// test's 511 share an id with a dev page, 105 of them the same URL and truth, so only the rest is
// held out from what the rules were tuned on.
/** @type {Set<string>} */
const seen = new Set();
if (process.argv.includes('--unseen') && split !== 'dev') {
  for (const f of readdirSync(join(dir, 'dev', 'ground-truth'))) {
    seen.add(f.replace(/\.json$/, ''));
    const u = JSON.parse(readFileSync(join(dir, 'dev', 'ground-truth', f), 'utf8')).url;
    if (typeof u === 'string') seen.add(u);
  }
}
/** @typedef {{ id: string, url: string, type: string, truth: string, html: Buffer }} Page */
/** @type {Page[]} */
const pages = [];
for (const f of readdirSync(join(dir, split, 'ground-truth')).sort()) {
  const id = f.replace(/\.json$/, '');
  if ((onePage && id !== onePage) || (worker && !worker.includes(id))) continue;
  const gt = JSON.parse(readFileSync(join(dir, split, 'ground-truth', f), 'utf8'));
  if (seen.has(id) || (typeof gt.url === 'string' && seen.has(gt.url))) continue;
  // evaluate.py's get_page_type: "category" is the collection type.
  const pt = gt._internal?.page_type;
  const type = (typeof pt === 'string' ? pt : pt?.primary) ?? 'article';
  const kind = type === 'category' ? 'collection' : type;
  if (onlyType && kind !== onlyType) continue;
  pages.push({
    id,
    url: gt.url ?? `http://wcxb.example/${id}`,
    type: kind,
    truth: gt.ground_truth?.main_content ?? '',
    html: gunzipSync(readFileSync(join(dir, split, 'html', `${id}.html.gz`))),
  });
}

/** WCXB's word F1 (evaluate.py's word_f1): [precision, recall, f1] of lowercased `\w+` tokens. */
function wordF1(/** @type {string} */ pred, /** @type {string} */ ref) {
  const words = (/** @type {string} */ s) => s.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];
  const p = words(pred);
  const r = words(ref);
  if (r.length === 0) return p.length === 0 ? [1, 1, 1] : [0, 0, 0];
  if (p.length === 0) return [0, 0, 0];
  /** @type {Map<string, number>} */
  const counts = new Map();
  for (const w of r) counts.set(w, (counts.get(w) ?? 0) + 1);
  let overlap = 0;
  for (const w of p) {
    const c = counts.get(w) ?? 0;
    if (c > 0) {
      overlap++;
      counts.set(w, c - 1);
    }
  }
  const precision = overlap / p.length;
  const recall = overlap / r.length;
  return [precision, recall, precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0];
}

/** The texts of every page by one extractor. @param {(p: Page) => string} extract */
function run(/** @type {(p: Page) => string} */ extract) {
  /** @type {Map<string, string>} */
  const texts = new Map();
  const cpu0 = process.cpuUsage();
  for (const p of pages) texts.set(p.id, extract(p));
  const cpu = process.cpuUsage(cpu0);
  return { texts, cpuMs: (cpu.user + cpu.system) / 1000 / Math.max(1, pages.length) };
}

/** Readability.js's text of each page (its textContent; '' when it finds no article). */
async function readabilityOf(/** @type {Page[]} */ some) {
  const { JSDOM, VirtualConsole } = await import('jsdom');
  const { Readability } = await import('@mozilla/readability');
  /** @type {Record<string, string>} */
  const out = {};
  for (const p of some) {
    try {
      // evaluate.py reads the pages as UTF-8.
      const dom = new JSDOM(p.html.toString('utf8'), { url: p.url, virtualConsole: new VirtualConsole() });
      out[p.id] = new Readability(dom.window.document).parse()?.textContent ?? '';
      dom.window.close();
    } catch {
      out[p.id] = '';
    }
  }
  return out;
}

if (worker) {
  // Exit once the whole answer is written (a large one is still buffered when write returns).
  process.stdout.write(JSON.stringify(await readabilityOf(pages)), () => process.exit(0));
  await new Promise(() => {});
}

/** Readability.js's texts, cached per split (they never change), computed by workers of 50 pages. */
async function readabilityTexts() {
  const cache = join(tmpdir(), `content-web-readability-${split}.json`);
  /** @type {Record<string, string>} */
  const cached = existsSync(cache) ? JSON.parse(readFileSync(cache, 'utf8')) : {};
  const missing = pages.filter((p) => cached[p.id] === undefined);
  for (let i = 0; i < missing.length; i += 50) {
    const ids = missing.slice(i, i + 50).map((p) => p.id);
    const args = [process.argv[1] ?? '', '--split', split, '--readability-worker', ids.join(',')];
    Object.assign(
      cached,
      JSON.parse(execFileSync(process.execPath, args, { maxBuffer: 1 << 30 }).toString()),
    );
    if (!onePage) writeFileSync(cache, JSON.stringify(cached));
  }
  return { texts: new Map(pages.map((p) => [p.id, cached[p.id] ?? ''])), cpuMs: Number.NaN };
}

const main = await textParser(false);
const whole = await textParser(true);
const systems = [
  { name: 'main content (default)', ...run((p) => main.text(p.url, p.html)) },
  ...(process.argv.includes('--no-readability')
    ? []
    : [{ name: 'Readability.js 0.6.0 (jsdom)', ...(await readabilityTexts()) }]),
  ...(process.argv.includes('--no-whole')
    ? []
    : [{ name: 'whole body (textextractor.whole.page)', ...run((p) => whole.text(p.url, p.html)) }]),
];

/** Both metrics of one extractor over some pages. */
function score(/** @type {Map<string, string>} */ texts, /** @type {Page[]} */ some) {
  const shingle = evaluate(
    Object.fromEntries(some.map((p) => [p.id, { articleBody: p.truth }])),
    Object.fromEntries(some.map((p) => [p.id, { articleBody: texts.get(p.id) ?? '' }])),
  );
  const words = some.map((p) => wordF1(texts.get(p.id) ?? '', p.truth));
  const avg = (/** @type {number} */ i) =>
    words.reduce((a, w) => a + (w[i] ?? 0), 0) / Math.max(1, words.length);
  return { shingle, word: { precision: avg(0), recall: avg(1), f1: avg(2) } };
}

const f = (/** @type {number} */ x) => x.toFixed(3);
const groups = [
  ...TYPES.map((t) => ({ t, some: pages.filter((p) => p.type === t) })),
  { t: '**all**', some: pages },
];
const head = systems.map((s) => s.name.split(' (')[0]);
const lines = [
  `| type | pages | ${head.map((h) => `${h}: F1 (P / R)`).join(' | ')} | ${head.map((h) => `${h}: word F1`).join(' | ')} |`,
  `|---|---:|${systems.map(() => '---:|').join('')}${systems.map(() => '---:|').join('')}`,
];
for (const { t, some } of groups) {
  if (some.length === 0) continue;
  const s = systems.map((sys) => score(sys.texts, some));
  lines.push(
    `| ${t} | ${some.length} | ${s.map((x) => `**${f(x.shingle.f1)}** (${f(x.shingle.precision)} / ${f(x.shingle.recall)})`).join(' | ')} | ${s.map((x) => f(x.word.f1)).join(' | ')} |`,
  );
}
const table = lines.join('\n');
console.log(
  `${pages.length} pages of WCXB ${split}; parse CPU-ms/page: ${systems.map((s) => `${s.name.split(' (')[0]} ${Number.isNaN(s.cpuMs) ? '-' : s.cpuMs.toFixed(1)}`).join(', ')}\n`,
);
console.log(table);

const ours = systems[0];
if (ours && worst > 0) {
  for (const t of TYPES) {
    const rows = pages
      .filter((p) => p.type === t)
      .map((p) => {
        const text = ours.texts.get(p.id) ?? '';
        const { shingle } = score(ours.texts, [p]);
        return { p, shingle, words: text.split(/\s+/).length, truthWords: p.truth.split(/\s+/).length };
      })
      .sort((a, b) => a.shingle.f1 - b.shingle.f1 || a.p.id.localeCompare(b.p.id))
      .slice(0, worst);
    console.log(`\n${t}: worst ${rows.length}`);
    for (const r of rows)
      console.log(
        `  ${r.p.id} F1 ${f(r.shingle.f1 || 0)} P ${f(r.shingle.precision || 0)} R ${f(r.shingle.recall || 0)} ` +
          `words ${r.words}/${r.truthWords} ${r.p.url}`,
      );
  }
}
const dump = arg('dump');
if (dump) {
  const rows = pages.map((p) =>
    JSON.stringify({
      id: p.id,
      type: p.type,
      url: p.url,
      ...Object.fromEntries(
        systems.map((s) => {
          const { shingle, word } = score(s.texts, [p]);
          return [s.name.split(' ')[0]?.toLowerCase(), { f1: shingle.f1 || 0, word: word.f1 }];
        }),
      ),
    }),
  );
  writeFileSync(dump, `${rows.join('\n')}\n`);
}
if (ours && onePage) {
  console.log(`\n--- ours ---\n${ours.texts.get(onePage)}\n--- truth ---\n${pages[0]?.truth}`);
}
if (process.argv.includes('--write')) {
  const name = `content-web-${split}`;
  const section =
    `## Main content on the modern web: WCXB ${split} (\`npm run bench:content-web -- --split ${split}\`)\n\n` +
    `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, node ${process.version}. ` +
    `${pages.length} pages of WCXB's ${split} split${split === 'test' ? ' (held out: never tuned on)' : ''}, ` +
    "each through the crawler's parser with the defaults; scored against ground_truth.main_content by " +
    "the article benchmark's metric (4-gram shingles, per-page precision and recall averaged; F1 of " +
    "the averages) and by WCXB's word F1 (its evaluate.py: per-page F1 of lowercased words, averaged).\n\n" +
    `${table}\n`;
  writeFileSync(new URL(`./sections/${name}.md`, import.meta.url).pathname, section);
  spliceSection(new URL('./RESULTS.md', import.meta.url).pathname, name, section);
}
