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

/** The page's HTML as a string (decoded as the crawl decodes it). */
export const pageHtml = (/** @type {Buffer} */ bytes) => htmlOf(bytes);

/**
 * A copy of a page with `pct`% of the words of its text (outside tags, scripts, styles and
 * comments: nav and footer count, as they are the page's words too) replaced by `word()`.
 * @param {string} html @param {number} pct @param {() => number} random @param {() => string} word
 */
export function editedPage(html, pct, random, word) {
  const re =
    /(<script\b[\s\S]*?<\/script\s*>|<style\b[\s\S]*?<\/style\s*>|<!--[\s\S]*?-->|<[^>]*>)|([\p{L}\p{N}]{2,})/giu;
  const start = Math.max(0, html.search(/<body/i));
  /** @type {[number, number][]} */
  const words = [];
  re.lastIndex = start;
  for (let m = re.exec(html); m; m = re.exec(html)) if (m[2]) words.push([m.index, m[2].length]);
  const n = Math.max(1, Math.round((words.length * pct) / 100));
  const pick = new Set();
  while (pick.size < Math.min(n, words.length)) pick.add(Math.floor(random() * words.length));
  const chosen = [...pick].sort((a, b) => a - b).map((i) => /** @type {[number, number]} */ (words[i]));
  let out = '';
  let at = 0;
  for (const [i, len] of chosen) {
    out += html.slice(at, i) + word();
    at = i + len;
  }
  return out + html.slice(at);
}

/**
 * The page's whole text (everything in its body outside tags, scripts and styles): the truth an
 * extraction that lost text cannot fool. The same reading as the crawl's whole-body signature.
 */
export function pageText(/** @type {Buffer} */ bytes) {
  return bodyText(htmlOf(bytes));
}
