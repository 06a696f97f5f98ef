// @ts-check
// Main content on a third set of real pages that no rule was tuned on: the test pages of Mozilla's
// Readability.js (test/test-pages/<name>/source.html, with expected.html, Readability's own
// output). Each source goes through the crawler's parser (defaults) and its text is scored against
// the text of expected.html with the article benchmark's metric (article-score.mjs: 4-gram shingles,
// per-page precision and recall averaged, F1 of the averages). The reference is one extractor's
// choice (Readability keeps what it keeps), so this is a check against drift on unseen pages, not a
// ground truth; Readability itself scores 1 by construction. Fixtures of under 50 words (tests of
// one cleaning step) are left out.
//
// The pages are not in this repository. Get them from github.com/mozilla/readability, e.g.:
//   git clone --depth 1 https://github.com/mozilla/readability /tmp/readability
// then:
//   READABILITY_PAGES=/tmp/readability/test/test-pages npm run bench:readability-pages

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Parser } from 'htmlparser2';
import { evaluate } from './article-score.mjs';
import { textParser } from './text-parser.mjs';

const dir = process.env.READABILITY_PAGES;
if (!dir || !existsSync(dir)) {
  console.error(
    'Set READABILITY_PAGES to the test/test-pages folder of a Readability checkout (see the header).',
  );
  process.exit(2);
}

/** The visible text of an HTML fragment (Readability's expected output). @param {string} html */
function textOfHtml(html) {
  /** @type {string[]} */
  const parts = [];
  let skip = 0;
  const raw = (/** @type {string} */ n) => n === 'script' || n === 'style';
  new Parser({
    onopentag: (n) => {
      if (raw(n)) skip++;
    },
    onclosetag: (n) => {
      if (raw(n)) skip--;
      parts.push(' ');
    },
    ontext: (t) => {
      if (skip === 0) parts.push(t);
    },
  }).end(html);
  return parts.join('').replace(/\s+/g, ' ').trim();
}

const setups = [
  { name: 'main content (default)', parser: await textParser(false) },
  { name: 'whole body (textextractor.whole.page)', parser: await textParser(true) },
];
/** @type {Record<string, { articleBody: string }>} */
const truth = {};
/** @type {Record<string, { articleBody: string }>[]} */
const predictions = setups.map(() => ({}));
for (const name of readdirSync(dir).sort()) {
  const source = join(dir, name, 'source.html');
  const expected = join(dir, name, 'expected.html');
  if (!existsSync(source) || !existsSync(expected)) continue;
  const text = textOfHtml(readFileSync(expected, 'utf8'));
  if (text.split(' ').length < 50) continue;
  truth[name] = { articleBody: text };
  for (const [i, s] of setups.entries()) {
    /** @type {Record<string, { articleBody: string }>} */ (predictions[i])[name] = {
      articleBody: s.parser.text(`http://pages.example/${name}/`, readFileSync(source)),
    };
  }
}
console.log(`${Object.keys(truth).length} pages of ${dir}, scored against Readability's expected.html\n`);
console.log('| text | F1 | precision | recall |\n|---|---:|---:|---:|');
for (const [i, s] of setups.entries()) {
  const m = evaluate(truth, predictions[i] ?? {});
  console.log(`| ${s.name} | **${m.f1.toFixed(3)}** | ${m.precision.toFixed(3)} | ${m.recall.toFixed(3)} |`);
}
