// @ts-check
// Main content on documentation: pages of Debian documentation packages, each generator's markup
// declaring its main block (Sphinx div[role=main], rustdoc #main-content, mdBook main, Javadoc main,
// Doxygen div.contents, Texinfo and DocBook bodies without their navigation, asciidoc #content,
// Node's #apicontent). The truth is the declared block's text, only clear furniture inside it taken
// out (headerlink ¶ anchors, "source" links, buttons); it is scored like the article benchmark
// (article-score.mjs: 4-gram shingles, per-page precision and recall averaged, F1 of the averages),
// per site and overall, beside Readability.js (over jsdom) and the whole body's text on the same
// pages. A fixed sample per site (the pages whose path hashes lowest, up to --pages, default 50)
// keeps a run short once cached: the truth and Readability's text are cached in CONTENT_DOCS_DIR
// (they do not change with the crawler), so only the first run pays for jsdom and Readability on
// ~500 pages (25 minutes on a shared two-core machine), and later ones take under a minute.
//
//   npm run bench:content-docs                        # all sites
//   npm run bench:content-docs -- --worst 10          # and the ten worst pages (ours)
//   node scripts/bench/content-docs.mjs --site 'asciidoc (git-doc)' --pages 20 --worst 5
//   npm run bench:content-docs -- --write             # the table into RESULTS.md (section content-docs)
//   npm run bench:content-docs -- --held-out --write  # the held-out sites (content-docs-heldout.mjs),
//                                                     # never tuned on (section content-docs-held)
//
// The packages are fetched with `apt-get download` (Debian's archive) and unpacked with `dpkg -x`
// into CONTENT_DOCS_DIR (default /tmp/content-docs); nothing of them is kept in the repository.
// Readability.js and jsdom come from the bench package: `npm --prefix scripts/bench ci`.

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { evaluate, tokenize } from './article-score.mjs';
import { HELD_OUT_SITES } from './content-docs-heldout.mjs';
import { SITES } from './content-docs-sites.mjs';
import { spliceSection } from './sections.mjs';
import { textParser } from './text-parser.mjs';

const { values: args } = parseArgs({
  options: {
    pages: { type: 'string', default: '50' },
    site: { type: 'string' },
    worst: { type: 'string', default: '0' },
    'no-readability': { type: 'boolean', default: false },
    write: { type: 'boolean', default: false },
    'held-out': { type: 'boolean', default: false },
  },
});
const heldOut = args['held-out'];
const sites = heldOut ? HELD_OUT_SITES : SITES;
const perSite = Number(args.pages);
const dir = process.env.CONTENT_DOCS_DIR ?? '/tmp/content-docs';
mkdirSync(dir, { recursive: true });

/** Downloads and unpacks a package once; returns where it is unpacked. @param {string} pkg */
function unpacked(pkg) {
  const to = join(dir, 'x', pkg);
  if (existsSync(to)) return to;
  let deb = readdirSync(dir).find((f) => f.startsWith(`${pkg}_`) && f.endsWith('.deb'));
  if (!deb) {
    execFileSync('apt-get', ['download', pkg], { cwd: dir, stdio: 'inherit' });
    deb = readdirSync(dir).find((f) => f.startsWith(`${pkg}_`) && f.endsWith('.deb'));
    if (!deb) throw new Error(`apt-get download ${pkg} left no .deb in ${dir}`);
  }
  mkdirSync(to, { recursive: true });
  execFileSync('dpkg', ['-x', join(dir, deb), to]);
  return to;
}

/** HTML files under a folder, recursively. @param {string} root @returns {string[]} */
function htmlFiles(root) {
  /** @type {string[]} */
  const out = [];
  const walk = (/** @type {string} */ d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && /\.html?$/.test(e.name) && statSync(p).size > 1000) out.push(p);
    }
  };
  if (existsSync(root)) walk(root);
  return out;
}

/** A page's rank in the sample: its path's hash (stable across machines and runs). @param {string} p */
const rank = (p) => createHash('sha1').update(p).digest('hex');

// The truth and Readability's text of each page, cached: they depend on the page only.
const cacheFile = join(dir, heldOut ? 'truth-held-v1.json' : 'truth-v1.json');
/** @type {Record<string, { truth: string, furniture?: string, readability?: string }>} */
const cache = existsSync(cacheFile) ? JSON.parse(readFileSync(cacheFile, 'utf8')) : {};
let cacheDirty = false;
/** @type {(typeof import('./content-docs-readability.mjs'))['readabilityText'] | undefined} */
let readabilityText;
/** @type {(typeof import('./content-docs-readability.mjs'))['truthText'] | undefined} */
let truthText;

const ours = await textParser(false);
const whole = await textParser(true);

/** @typedef {Record<string, { articleBody: string }>} Texts */
/** @type {{ site: string, truth: Texts, ours: Texts, whole: Texts, readability: Texts }[]} */
const results = [];
for (const site of sites) {
  if (args.site && args.site !== site.name) continue;
  const roots = site.packages.map((p) => join(unpacked(p.pkg), p.dir));
  const files = roots.flatMap((r) => htmlFiles(r).map((f) => ({ f, key: relative(dir, f) })));
  const candidates = files
    .filter((x) => !site.skip?.test(x.key))
    .sort((a, b) => (rank(a.key) < rank(b.key) ? -1 : 1));
  /** @type {Texts} */ const truth = {};
  /** @type {Texts} */ const mine = {};
  /** @type {Texts} */ const body = {};
  /** @type {Texts} */ const readability = {};
  let taken = 0;
  for (const { f, key } of candidates) {
    if (taken >= perSite) break;
    const html = readFileSync(f);
    let c = cache[key];
    const furniture = site.furniture ?? '';
    const stale = c?.furniture !== undefined && c.furniture !== furniture;
    if (!c || stale || (c.readability === undefined && !args['no-readability'])) {
      if (!truthText || !readabilityText)
        ({ truthText, readabilityText } = await import('./content-docs-readability.mjs'));
      const s = html.toString('utf8');
      c = {
        truth: c && !stale ? c.truth : truthText(s, site.main, furniture),
        furniture,
        ...(args['no-readability'] && c?.readability === undefined
          ? {}
          : { readability: c?.readability ?? readabilityText(s, `file://${f}`) }),
      };
      cache[key] = c;
      cacheDirty = true;
    }
    // Redirect stubs and pages whose declared block is (nearly) empty say nothing to score.
    if (tokenize(c.truth).length < 30) continue;
    taken++;
    const url = `http://docs.example/${key}`;
    truth[key] = { articleBody: c.truth };
    mine[key] = { articleBody: ours.text(url, html) };
    body[key] = { articleBody: whole.text(url, html) };
    readability[key] = { articleBody: c.readability ?? '' };
  }
  results.push({ site: site.name, truth, ours: mine, whole: body, readability });
  // Saved after each site: the first run (jsdom, Readability) is the slow one.
  if (cacheDirty) writeFileSync(cacheFile, JSON.stringify(cache));
  cacheDirty = false;
  process.stderr.write(`${site.name}: ${taken} pages\n`);
}

/** @param {ReturnType<typeof evaluate>} e */
const fmt = (e) => `${e.f1.toFixed(3)} (P ${e.precision.toFixed(3)} R ${e.recall.toFixed(3)})`;
/** @param {Texts[]} parts @returns {Texts} */
const merge = (parts) => Object.assign({}, ...parts);

/** @type {string[]} */
const lines = ['| site | pages | ours F1 | Readability.js F1 | whole body F1 |', '|---|---:|---|---|---|'];
for (const r of results) {
  const cells = [r.ours, r.readability, r.whole].map((p) => fmt(evaluate(r.truth, p)));
  lines.push(`| ${r.site} | ${Object.keys(r.truth).length} | ${cells.join(' | ')} |`);
}
const all = merge(results.map((r) => r.truth));
const overall = [
  merge(results.map((r) => r.ours)),
  merge(results.map((r) => r.readability)),
  merge(results.map((r) => r.whole)),
];
const totals = overall.map((p) => fmt(evaluate(all, p)));
lines.push(`| **overall** | ${Object.keys(all).length} | ${totals.join(' | ')} |`);
const table = lines.join('\n');
console.log(table);

// --write: the table into RESULTS.md's section "content-docs" (scripts/bench/sections/content-docs.md),
// in place of its previous version, under the notes kept in that file below the table.
if (args.write) {
  const name = heldOut ? 'content-docs-held' : 'content-docs';
  const path = new URL(`./sections/${name}.md`, import.meta.url).pathname;
  const old = existsSync(path) ? readFileSync(path, 'utf8') : '';
  const notes = old.includes('\n### ') ? old.slice(old.indexOf('\n### ')) : '';
  const title = heldOut
    ? '## Main content on documentation, held-out sites (`npm run bench:content-docs -- --held-out`)'
    : '## Main content on documentation (`npm run bench:content-docs`)';
  const which = heldOut
    ? 'Debian documentation packages no rule was tuned on (scripts/bench/content-docs-heldout.mjs), measured once the rules were done'
    : 'Debian documentation packages';
  const section =
    `${title}\n\n` +
    `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, node ${process.version}. Up to ${perSite} ` +
    `pages per site (a fixed sample, by the hash of their path) of ${which}; the truth is ` +
    'the text of the block each generator declares as the main content (scripts/bench/content-docs-sites.mjs); scored as the article benchmark (4-gram shingles, per-page precision and recall averaged, F1 of the averages). Readability.js 0.6.0 over jsdom 26.1.0 on the same pages.\n\n' +
    `${table}\n${notes}`;
  writeFileSync(path, section);
  spliceSection(new URL('./RESULTS.md', import.meta.url).pathname, name, section);
}

const worst = Number(args.worst);
if (worst > 0) {
  const e = evaluate(all, overall[0] ?? {});
  const f1 = (/** @type {{ precision: number, recall: number }} */ p) =>
    p.precision + p.recall === 0 ? 0 : (2 * p.precision * p.recall) / (p.precision + p.recall);
  console.log(`\nworst ${worst} pages (ours):`);
  for (const p of [...e.pages].sort((a, b) => f1(a) - f1(b)).slice(0, worst)) {
    const words = (/** @type {Texts} */ t) => tokenize(t[p.key]?.articleBody).length;
    console.log(
      `${f1(p).toFixed(3)} P ${p.precision.toFixed(3)} R ${p.recall.toFixed(3)} ` +
        `words truth ${words(all)} ours ${words(overall[0] ?? {})}  ${p.key}`,
    );
  }
}
