// @ts-check
// The real pages the near-duplicate benches judge (dedup-quality.mjs in one pool, dedup-crawl.mjs
// crawled): Debian's HTML manuals, reference sites among them, and trafilatura's evaluation pages.
//
// Debian's packages are read where `apt-get install` puts them, or under DEDUP_DOC_ROOT when
// extracted elsewhere without installing:
//   mkdir -p /tmp/debdoc && cd /tmp/debdoc && apt-get download python3.11-doc python-django-doc \
//     postgresql-doc-15 git-doc debian-handbook sqlite3-doc groovy-doc rust-doc python-pandas-doc \
//     cmake-doc debian-reference-fr debian-reference-es debian-reference-de \
//     && for d in *.deb; do dpkg -x "$d" root; done    # then DEDUP_DOC_ROOT=/tmp/debdoc/root
// The trafilatura set: --trafilatura DIR or TRAFILATURA_TESTS (github adbar/trafilatura, tests/).

import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { dist } from './dist.mjs';

const { extractHtml } = await dist('parse/html/extract.js');
const { parseSettings, defaultParseConfig, decode, detectCharset } = await dist('parse/index.js');
const { bodyText } = await dist('fingerprint/body.js');

const ROOT = process.env.DEDUP_DOC_ROOT ?? '';
const argv = process.argv.slice(2);
const trafArg = argv.indexOf('--trafilatura');
const TRAF = trafArg >= 0 ? argv[trafArg + 1] : process.env.TRAFILATURA_TESTS;
const doc = (/** @type {string} */ p) => join(ROOT || '/', 'usr/share', p);

/**
 * `site`: crawled by dedup-crawl.mjs; `max`: the first pages in path order only (siblings stay
 * together: rust-doc's aarch64 intrinsics, pandas' API pages); `kind` says what the site tests.
 * @type {{ name: string, dir: string, site?: boolean, max?: number, kind: string }[]}
 */
export const corpora = [
  { name: 'python3.11-doc', dir: doc('doc/python3.11/html'), site: true, kind: 'manual, release notes' },
  { name: 'python-django-doc', dir: doc('doc/python-django-doc/html'), site: true, kind: 'manual' },
  {
    name: 'postgresql-doc-15',
    dir: doc('doc/postgresql-doc-15/html'),
    site: true,
    kind: 'manual, SQL reference',
  },
  { name: 'git-doc', dir: doc('doc/git-doc'), site: true, kind: 'option-heavy man pages' },
  { name: 'sqlite3-doc', dir: doc('doc/sqlite3'), site: true, kind: 'reference, C API' },
  { name: 'groovy-doc', dir: doc('doc/groovy/api'), site: true, max: 1500, kind: 'generated API (javadoc)' },
  { name: 'rust-doc', dir: doc('doc/rust-doc/html'), site: true, max: 2000, kind: 'generated API (rustdoc)' },
  {
    name: 'python-pandas-doc',
    dir: doc('doc/python-pandas-doc/html'),
    site: true,
    max: 2500,
    kind: 'generated API (sphinx autodoc), release notes',
  },
  { name: 'cmake-doc', dir: doc('doc/cmake-data/html'), site: true, kind: 'policies, variables, commands' },
  { name: 'debian-reference', dir: doc('debian-reference'), site: true, kind: 'one manual in de, es, fr' },
  {
    name: 'debian-handbook',
    dir: doc('doc/debian-handbook/html'),
    site: true,
    max: 1500,
    kind: 'manual in many languages',
  },
  ...(TRAF
    ? [
        { name: 'trafilatura eval', dir: join(TRAF, 'eval'), kind: 'articles' },
        { name: 'trafilatura cache', dir: join(TRAF, 'cache'), kind: 'articles' },
      ]
    : []),
];

/** @param {string} dir @param {string[]} out */
export function htmlFiles(dir, out) {
  if (!existsSync(dir)) return out;
  for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const p = join(dir, e.name);
    if (e.isDirectory()) htmlFiles(p, out);
    else if (/\.html?$/.test(e.name) && existsSync(p) && statSync(p).size > 0) out.push(p);
  }
  return out;
}

/** A corpus's pages, at most its `max` (and at most `cap` when given). */
export function corpusFiles(/** @type {{ dir: string, max?: number }} */ c, cap = 0) {
  let files = htmlFiles(c.dir, []);
  const max = Math.min(c.max ?? Number.POSITIVE_INFINITY, cap > 0 ? cap : Number.POSITIVE_INFINITY);
  if (files.length > max) files = files.slice(0, max);
  return files;
}

const textSettings = { ...parseSettings(defaultParseConfig()).text, mainText: true };

/** The page's HTML decoded as the crawl decodes it. */
const htmlOf = (/** @type {Buffer} */ bytes) =>
  decode(bytes, detectCharset(bytes, 'text/html', 65536) ?? 'utf-8');

/** The main text of a page, as the crawler's parse extracts it for the fingerprint. */
export function mainText(/** @type {Buffer | string} */ page) {
  const ex = extractHtml(typeof page === 'string' ? page : htmlOf(page), textSettings);
  return ex.mainText ?? ex.text;
}

/** The main text of an HTML string (mainText's, under a name editedPage's parameter does not hide). */
const extractedText = (/** @type {string} */ html) => mainText(html);

/** The page's HTML as a string (decoded as the crawl decodes it). */
export const pageHtml = (/** @type {Buffer} */ bytes) => htmlOf(bytes);

/** `n` distinct positions of `0..size-1`, drawn at random. @param {number} n @param {number} size @param {() => number} random */
function distinct(n, size, random) {
  const pick = new Set();
  while (pick.size < Math.min(n, size)) pick.add(Math.floor(random() * size));
  return [...pick].sort((a, b) => a - b);
}

/** `text` with the runs `spans[i]` (start, length) at `at` replaced by `word()`. @param {string} text @param {[number, number][]} spans @param {number[]} at @param {() => string} word */
function replaced(text, spans, at, word) {
  let out = '';
  let from = 0;
  for (const i of at) {
    const [start, len] = /** @type {[number, number]} */ (spans[i]);
    out += text.slice(from, start) + word();
    from = start + len;
  }
  return out + text.slice(from);
}

/** How many of `n` words make `pct`%: round(n * pct / 100), at least 1 of a text that has any. */
const share = (/** @type {number} */ n, /** @type {number} */ pct) =>
  n === 0 ? 0 : Math.max(1, Math.round((n * pct) / 100));

/**
 * A text with exactly share(tokens, pct) of its tokens (runs of letters, marks and digits, as the
 * fingerprint cuts them) replaced by `word()`, at distinct positions drawn at random. (Until
 * 2026-12-06 the bench replaced space-separated pieces, drawn with replacement: a piece of code
 * such as `std::vec::Vec<T>` is four tokens, so a "2%" copy of an API page had 3-6% of its tokens
 * changed.)
 * @param {string} text @param {number} pct @param {() => number} random @param {() => string} word
 */
export function editedText(text, pct, random, word) {
  /** @type {[number, number][]} */
  const spans = [];
  for (const m of text.matchAll(/[\p{L}\p{M}\p{N}]+/gu)) spans.push([m.index ?? 0, m[0].length]);
  return replaced(text, spans, distinct(share(spans.length, pct), spans.length, random), word);
}

/**
 * A copy of a page with `pct`% of the words of its text (outside tags, scripts, styles, comments
 * and character references: nav and footer count, as they are the page's words too) replaced by
 * `word()`, at distinct positions drawn at random.
 *
 * `mainText` given: drawn apart in the words of the main text and in the rest, share(n, pct) of the
 * main text's n words and the rest of the page's share in the rest, so that the copy has `pct`% of
 * its main text changed as well as of its page. Drawn over the whole page at once, a 2% copy of a
 * page whose main text is a fifth of its words gets 0-5% of that text changed (the number drawn in
 * it is hypergeometric): a copy whose text has 4% of its words changed is one the rule (exact
 * main-text Jaccard >= 0.85, "every 50th word changed gives about 0.89") calls `similar` by design.
 * The main text's words are found in the page by matching its tokens in order (a word of the page
 * is the main text's next token, or not); where that matching errs (a word of the nav equal to the
 * text's next one taken for it, the text's own then left to the rest), a word drawn as the rest's
 * lands in the main text. So the copy's main text is extracted again and its changed tokens
 * counted: a copy that missed share(n, pct) by more than a twentieth of it (exactly, under 20) is
 * drawn again, up to ATTEMPTS times (2026-12-07: before, 7 of 1,442 copies "with 2% changed" of
 * short texts on pages with much chrome had 2.8-3.7% of their text changed: one word too many).
 * A copy whose extracted text has another token count (the extractor took other text) is kept as
 * drawn: that is the crawler's own doing. `editStats` counts the copies drawn again and those left
 * inexact.
 * @param {string} html @param {number} pct @param {() => number} random @param {() => string} word
 * @param {string} [mainText]
 */
export function editedPage(html, pct, random, word, mainText) {
  if (mainText === undefined) return drawnPage(html, pct, random, word);
  const before = mainTokens(mainText);
  const target = share(before.length, pct);
  const slack = Math.floor(target / 20);
  editStats.copies++;
  let copy = html;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    if (attempt === 1) editStats.redrawn++;
    copy = drawnPage(html, pct, random, word, mainText);
    const after = mainTokens(extractedText(copy));
    if (after.length !== before.length) return copy;
    let changed = 0;
    for (let i = 0; i < before.length; i++) if (before[i] !== after[i]) changed++;
    if (Math.abs(changed - target) <= slack) return copy;
  }
  editStats.inexact++;
  return copy;
}

/** How many times editedPage draws a copy at most. */
const ATTEMPTS = 40;
/** editedPage's copies with a main text: all, drawn more than once, left inexact after ATTEMPTS. */
export const editStats = { copies: 0, redrawn: 0, inexact: 0 };

/** A text's tokens as the edits count them (NFKC, lower case, runs of letters, marks, digits). */
const mainTokens = (/** @type {string} */ text) =>
  [
    ...text
      .normalize('NFKC')
      .toLowerCase()
      .matchAll(/[\p{L}\p{M}\p{N}]+/gu),
  ].map((m) => m[0]);

/**
 * editedPage's one draw (its comment says how).
 * @param {string} html @param {number} pct @param {() => number} random @param {() => string} word
 * @param {string} [mainText]
 */
function drawnPage(html, pct, random, word, mainText) {
  const re =
    /(<script\b[\s\S]*?<\/script\s*>|<style\b[\s\S]*?<\/style\s*>|<!--[\s\S]*?-->|<[^>]*>|&#?\w+;)|([\p{L}\p{M}\p{N}]+)/giu;
  const start = Math.max(0, html.search(/<body/i));
  /** @type {[number, number][]} */
  const words = [];
  /** @type {string[]} */
  const normal = [];
  re.lastIndex = start;
  for (let m = re.exec(html); m; m = re.exec(html))
    if (m[2]) {
      words.push([m.index, m[2].length]);
      if (mainText !== undefined) normal.push(m[2].normalize('NFKC').toLowerCase());
    }
  if (mainText === undefined)
    return replaced(html, words, distinct(share(words.length, pct), words.length, random), word);
  const main = mainTokens(mainText);
  /** @type {number[]} */
  const inMain = [];
  /** @type {number[]} */
  const rest = [];
  let j = 0;
  for (let i = 0; i < words.length; i++) {
    // The main text's next token, or one of the three after it when the page's next word matches
    // that one and the one after (a token of the main text the page's words lack: a list marker).
    let k = 0;
    while (
      k <= 3 &&
      j + k < main.length &&
      !(normal[i] === main[j + k] && (k === 0 || normal[i + 1] === main[j + k + 1]))
    )
      k++;
    if (k <= 3 && j + k < main.length) {
      inMain.push(i);
      j += k + 1;
    } else rest.push(i);
  }
  // Exactly share(all, pct) words changed in the page, share(main, pct) of them in its main text.
  const inText = Math.min(share(inMain.length, pct), share(words.length, pct));
  const a = distinct(inText, inMain.length, random).map((k) => /** @type {number} */ (inMain[k]));
  const b = distinct(share(words.length, pct) - inText, rest.length, random).map(
    (k) => /** @type {number} */ (rest[k]),
  );
  return replaced(
    html,
    words,
    [...a, ...b].sort((x, y) => x - y),
    word,
  );
}

/**
 * The page's whole text (everything in its body outside tags, scripts and styles): the truth an
 * extraction that lost text cannot fool. The same reading as the crawl's whole-body signature.
 */
export function pageText(/** @type {Buffer} */ bytes) {
  return bodyText(htmlOf(bytes));
}
