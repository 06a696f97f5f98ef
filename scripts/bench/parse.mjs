// @ts-check
// Micro-benchmark of the parse stage: pages/s for parse-and-extract (charset, SAX pass, title and
// meta fields, text, ~50 outlinks through MetadataTransfer, robots, parse filters) on generated,
// deterministic pages of ~10 KB and ~90 KB with realistic markup.
//
//   npm run build && node scripts/bench/parse.mjs [--seconds 3] [--runs 3] [--content]
//
// It reports, per page size and configuration, the run with the least CPU per page (other processes
// share the cores; runs interleave the configurations): pages/s, µs/page, CPU-µs/page and MB/s. No assertion: numbers are for reading, not for CI.

import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { dist } from './dist.mjs';
import { numberOption } from './proc.mjs';
import { benchParseConfig } from './text-parser.mjs';
import { rng } from './web.mjs';

/** @typedef {import('../../src/parse/index.js').OutlinkFilter} OutlinkFilter */
/** @typedef {import('../../src/parse/index.js').ParseInput} ParseInput */
/**
 * What the measurement needs of a parser (the baseline below is not a crawler parser).
 * @typedef {{
 *   parse(input: ParseInput): { kind: string, status?: string, outlinks: readonly unknown[] },
 *   ready: Promise<unknown>,
 * }} BenchParser
 */

const { createPageParser, ParseFilters, buildParseFilters } = await dist('parse/index.js');
const { Metadata } = await dist('model/metadata.js');
const { systemClock } = await dist('util/clock.js');

const SECONDS = numberOption('seconds', 3);
const RUNS = numberOption('runs', 3);

// ---- deterministic page generator ------------------------------------------------------------

const WORDS = (
  'the of and to in is for on that with as by this from at are be it an or was which not have has ' +
  'crawler search index page link web site content data query result status fetch parse filter ' +
  'politeness robots sitemap document metadata schedule domain host shard cluster bulk node update ' +
  'résumé café naïve über straße — “quoted” words & entities'
).split(' ');

/**
 * @param {number} seed
 * @param {number} targetBytes
 * @returns {Buffer}
 */
function generatePage(seed, targetBytes, links = 50) {
  const r = rng(seed);
  /** @type {(a: readonly string[]) => string} */
  const pick = (a) => a[Math.floor(r() * a.length)] ?? '';
  /** @type {(n: number) => string} */
  const words = (n) => Array.from({ length: n }, () => pick(WORDS)).join(' ');
  const href = () => {
    const k = r();
    if (k < 0.6) return `/section-${Math.floor(r() * 20)}/article-${Math.floor(r() * 5000)}.html`;
    if (k < 0.8)
      return `https://www${Math.floor(r() * 5)}.example.org/${words(2).replace(/\W+/g, '-')}?id=${Math.floor(r() * 1e6)}`;
    if (k < 0.9) return `../related/${Math.floor(r() * 100)}#comments`;
    return `tag/${pick(WORDS).replace(/\W+/g, '')}/`;
  };
  const a = () => `<a href="${href()}" class="link">${words(1 + Math.floor(r() * 4))}</a>`;
  const head =
    `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${words(8)} | Example News</title>` +
    `<meta name="description" content="${words(25)}"><meta name="keywords" content="${words(6).replaceAll(' ', ', ')}">` +
    `<meta property="og:title" content="${words(8)}"><link rel="canonical" href="https://www.example.com/a/${seed}">` +
    `<link rel="stylesheet" href="/css/main.css"><link rel="stylesheet" href="/css/print.css" media="print">` +
    `<style>${'.c{margin:0 auto;padding:1em}body{font:16px/1.5 sans-serif}'.repeat(12)}</style>` +
    `<script type="application/ld+json">{"@context":"https://schema.org","@type":"NewsArticle","headline":"${words(8)}"}</script>` +
    `<script>window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments)}${'var x=1;'.repeat(40)}</script>` +
    `</head>`;
  const nav = `<header class="site-header"><nav class="main-nav"><ul>${Array.from({ length: 12 }, () => `<li class="nav-item">${a()}</li>`).join('')}</ul></nav></header>`;
  const footer = `<footer class="site-footer"><div class="c">${Array.from({ length: 8 }, () => a()).join(' · ')}<p>© 2025 ${words(10)}</p></div></footer>`;
  const sidebar = `<aside class="sidebar"><h3>${words(3)}</h3><ul>${Array.from({ length: 10 }, () => `<li>${a()}</li>`).join('')}</ul></aside>`;
  let inline = links - 30;
  const paragraphs = [];
  let size = head.length + nav.length + footer.length + sidebar.length;
  while (size < targetBytes - 400) {
    const parts = [];
    for (let i = 0; i < 4; i++) {
      parts.push(words(8 + Math.floor(r() * 10)));
      if (inline > 0 && r() < 0.25) {
        parts.push(a());
        inline--;
      } else parts.push(`<span class="em">${words(2)}</span>`);
    }
    const p = `<div class="para-wrap"><p class="body-text">${parts.join(' ')}.</p></div>\n`;
    paragraphs.push(p);
    size += p.length;
  }
  while (inline-- > 0) paragraphs.push(`<p>${a()}</p>`);
  const main = `<main class="c"><article><h1>${words(8)}</h1>${paragraphs.join('')}</article>${sidebar}</main>`;
  return Buffer.from(`${head}<body>${nav}${main}${footer}</body></html>`, 'utf8');
}

// ---- configurations ---------------------------------------------------------------------------

const config = benchParseConfig(true);

/** @type {OutlinkFilter | null} */
let urlFilters = null;
try {
  const { loadURLFilters } = await dist('urlfilters/load.js');
  const chain = loadURLFilters();
  urlFilters = chain;
} catch (e) {
  console.error(`(default URL filters unavailable: ${e instanceof Error ? e.message : String(e)})`);
}

/** @type {OutlinkFilter} */
const identity = { filter: (_s, _m, target) => target };
const domFilters = buildParseFilters(
  {
    'org.apache.stormcrawler.parse.ParseFilters': [
      {
        class: 'CSSSelectorFilter',
        params: { 'parse.h1': 'h1', 'parse.og': 'meta[property="og:title"]@content' },
      },
    ],
  },
  'bench',
);

// Baseline for calibrating the numbers on another machine: htmlparser2 alone, no-op handlers.
const { Parser } = await import('htmlparser2');
/** @type {BenchParser} */
const baseline = {
  parse(input) {
    new Parser({ onopentag() {}, ontext() {}, onclosetag() {} }).end(input.content.toString('utf8'));
    return { kind: 'parsed', outlinks: [] };
  },
  ready: Promise.resolve(),
};

/** conf/parsefilters.json plus `extra` filters at its end. */
const defaultFiltersWith = (/** @type {unknown[]} */ ...extra) => {
  const json = JSON.parse(readFileSync(new URL('../../conf/parsefilters.json', import.meta.url), 'utf8'));
  const key = 'org.apache.stormcrawler.parse.ParseFilters';
  return buildParseFilters({ [key]: [...json[key], ...extra] }, 'bench');
};

// Main-content extraction and Markdown (src/parse/html/main-content.ts): the default against the
// whole body's text (what the parse did before) and against the text alone; and what language
// detection (LanguageID, eld) adds to the default. --content runs only these.
const contentSetups = [
  {
    name: 'default parsefilters, main content + Markdown',
    parser: createPageParser(config, { filter: identity, clock: systemClock }),
  },
  {
    name: 'the same, textextractor.markdown: false',
    parser: createPageParser(
      { ...config, 'textextractor.markdown': false },
      { filter: identity, clock: systemClock },
    ),
  },
  {
    name: 'the same, textextractor.whole.page: true',
    parser: createPageParser(
      { ...config, 'textextractor.whole.page': true },
      { filter: identity, clock: systemClock },
    ),
  },
  {
    name: 'default + LanguageID (eld small, first 5000 chars)',
    parser: createPageParser(config, {
      filter: identity,
      clock: systemClock,
      filters: defaultFiltersWith({ class: 'LanguageID', name: 'LanguageID' }),
    }),
  },
];

/** @type {{ name: string, parser: BenchParser }[]} */
const allSetups = [
  { name: 'baseline: htmlparser2 tokenise only, no-op handlers', parser: baseline },
  {
    name: 'SAX, no parse filters',
    parser: createPageParser(config, { filter: identity, clock: systemClock, filters: ParseFilters.none }),
  },
  {
    name: 'SAX + default parsefilters.json',
    parser: createPageParser(config, { filter: identity, clock: systemClock }),
  },
  {
    // What the feed detection costs a page served as HTML: this against the line above.
    name: 'the same, feed.sniffContent: false',
    parser: createPageParser(
      { ...config, 'feed.sniffContent': false },
      { filter: identity, clock: systemClock },
    ),
  },
  ...(urlFilters
    ? [
        {
          name: 'SAX + default parse filters + default URL filters',
          parser: createPageParser(config, { filter: urlFilters, clock: systemClock }),
        },
      ]
    : []),
  {
    name: 'DOM (cheerio/slim, one CSS selector filter)',
    parser: createPageParser(config, { filter: identity, clock: systemClock, filters: domFilters }),
  },
  ...contentSetups,
];
const setups = process.argv.includes('--content') ? contentSetups : allSetups;

// ---- measurement ------------------------------------------------------------------------------

/**
 * @param {BenchParser} parser
 * @param {readonly Buffer[]} pages
 */
function bench(parser, pages) {
  const md = Metadata.of({ 'protocol.content-type': 'text/html; charset=utf-8', depth: '1' });
  let n = 0;
  let bytes = 0;
  let links = 0;
  const inputs = pages.map((content, i) => ({
    url: `https://www.example.com/news/${i}.html`,
    metadata: md,
    content,
  }));
  /** @type {(k: number) => ParseInput} */
  const nth = (k) => /** @type {ParseInput} */ (inputs[k % inputs.length]);
  for (let i = 0; i < 200; i++) parser.parse(nth(i)); // warm-up
  const end = performance.now() + SECONDS * 1000;
  const start = performance.now();
  const cpu0 = process.cpuUsage();
  while (performance.now() < end) {
    for (let k = 0; k < 20; k++) {
      const input = nth(n);
      const r = parser.parse(input);
      if (r.kind !== 'parsed') throw new Error(`unexpected ${r.kind} ${r.status}`);
      links += r.outlinks.length;
      bytes += input.content.length;
      n++;
    }
  }
  const s = (performance.now() - start) / 1000;
  const cpu = process.cpuUsage(cpu0);
  return {
    pagesPerSec: n / s,
    usPerPage: (s * 1e6) / n,
    cpuUsPerPage: (cpu.user + cpu.system) / n,
    mbPerSec: bytes / s / 1e6,
    linksPerPage: links / n,
  };
}

const sizes = [
  { label: '10 KB', bytes: 10_000 },
  { label: '90 KB', bytes: 90_000 },
];
console.log(`node ${process.version}, ${SECONDS}s per measurement, best of ${RUNS} runs`);
for (const size of sizes) {
  const pages = Array.from({ length: 32 }, (_, i) => generatePage(1000 + i, size.bytes));
  const avg = pages.reduce((t, p) => t + p.length, 0) / pages.length;
  console.log(`\n${size.label} pages (average ${(avg / 1024).toFixed(1)} KiB)`);
  // Runs interleave the setups, so that a neighbour's load falls on all of them alike.
  /** @type {(ReturnType<typeof bench> | undefined)[]} */
  const best = [];
  for (const setup of setups) await setup.parser.ready;
  for (let run = 0; run < RUNS; run++) {
    for (const [i, setup] of setups.entries()) {
      const r = bench(setup.parser, pages);
      const b = best[i];
      if (!b || r.cpuUsPerPage < b.cpuUsPerPage) best[i] = r;
    }
  }
  for (const [i, setup] of setups.entries()) {
    const b = best[i];
    if (!b) continue;
    console.log(
      `  ${setup.name.padEnd(52)} ${b.pagesPerSec.toFixed(0).padStart(6)} pages/s  ` +
        `${b.usPerPage.toFixed(0).padStart(5)} µs/page  ${b.cpuUsPerPage.toFixed(0).padStart(5)} CPU-µs/page  ` +
        `${b.mbPerSec.toFixed(1).padStart(5)} MB/s  ${b.linksPerPage.toFixed(0)} links/page`,
    );
  }
}
