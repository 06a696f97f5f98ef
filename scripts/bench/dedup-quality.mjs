// @ts-check
// Near-duplicate verdicts measured on real pages no one here wrote (issue 32): precision and recall
// of the crawl's own decision (src/dedup: fingerprint, MinHash bands, verification) against a slow
// exact measure, the Jaccard similarity of the word 3-shingles of each page's main text.
//
//   npm run bench:dedup-quality [-- --max 0] [--trafilatura DIR]
//
// Corpora: Debian's HTML manuals (python3.11-doc, python-django-doc, postgresql-doc-15, git-doc,
// debian-handbook: `apt-get install` them) and the HTML pages of the trafilatura evaluation set
// (github adbar/trafilatura, tests/eval and tests/cache: give the folder that holds them with
// --trafilatura or TRAFILATURA_TESTS). Each page's main text is what the crawler fingerprints (the
// parse's own extraction). All pages are judged in one pool, as one index holds them.
// - Precision: every pair the crawl would call a near-duplicate (a shared band key, then verified),
//   with its true Jaccard: >= 0.8 a near-duplicate, < 0.5 distinct (a false pair), between: grey.
// - Recall: edited copies of real pages (a date and a counter, a sentence added, one removed, a
//   different footer block, 1%, 2%, 3% and 5% of the words replaced): found when the copy finds its
//   original through a band key and the verification agrees.
// No assertion: numbers for RESULTS.md. Exit 1 when fewer than 3,000 pages were found.

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { dist } from './dist.mjs';
import { numberOption } from './proc.mjs';
import { rng } from './web.mjs';

const { fingerprint, tokenise, DEFAULT_FINGERPRINT, MIN_DEDUP_TOKENS } = await dist(
  'fingerprint/fingerprint.js',
);
const { bandKeys, similarity } = await dist('fingerprint/minhash.js');
const { nearness, MIN_SIMILARITY } = await dist('dedup/decide.js');
const { extractHtml } = await dist('parse/html/extract.js');
const { parseSettings, defaultParseConfig } = await dist('parse/index.js');
const { decode, detectCharset } = await dist('parse/index.js');

const MAX = numberOption('max', 0);
const argv = process.argv.slice(2);
const trafArg = argv.indexOf('--trafilatura');
const TRAF = trafArg >= 0 ? argv[trafArg + 1] : process.env.TRAFILATURA_TESTS;

const textSettings = { ...parseSettings(defaultParseConfig()).text, mainText: true };

/** @param {string} dir @param {string[]} out */
export function htmlFiles(dir, out) {
  if (!existsSync(dir)) return out;
  for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const p = join(dir, e.name);
    if (e.isDirectory()) htmlFiles(p, out);
    else if (/\.html?$/.test(e.name) && statSync(p).size > 0) out.push(p);
  }
  return out;
}

export const corpora = [
  { name: 'python3.11-doc', dir: '/usr/share/doc/python3.11/html', site: true },
  { name: 'python-django-doc', dir: '/usr/share/doc/python-django-doc/html', site: true },
  { name: 'postgresql-doc-15', dir: '/usr/share/doc/postgresql-doc-15/html', site: true },
  { name: 'git-doc', dir: '/usr/share/doc/git-doc', site: true },
  { name: 'debian-handbook', dir: '/usr/share/doc/debian-handbook/html' },
  ...(TRAF
    ? [
        { name: 'trafilatura eval', dir: join(TRAF, 'eval') },
        { name: 'trafilatura cache', dir: join(TRAF, 'cache') },
      ]
    : []),
];

/** The main text of a page, as the crawler's parse extracts it for the fingerprint. */
export function mainText(/** @type {Buffer} */ bytes) {
  const html = decode(bytes, detectCharset(bytes, 'text/html', 65536) ?? 'utf-8');
  const ex = extractHtml(html, textSettings);
  return ex.mainText ?? ex.text;
}

// FNV-1a over a string, then murmur's finaliser: 32-bit hashes of the truth's shingles (two of them,
// so that a shingle is a 53-bit number: no collision in sets of this size).
/** @param {string} s @param {number} seed */
function h32(s, seed) {
  let h = seed >>> 0;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return (h ^ (h >>> 16)) >>> 0;
}

/** The truth's features: the set of word 3-shingles of the text's tokens. */
export function shingles(/** @type {string[]} */ tokens) {
  /** @type {Set<number>} */
  const out = new Set();
  for (let i = 0; i + 3 <= tokens.length; i++) {
    const s = `${tokens[i]} ${tokens[i + 1]} ${tokens[i + 2]}`;
    out.add((h32(s, 0x811c9dc5) & 0x1fffff) * 2 ** 32 + h32(s, 0x9747b28c));
  }
  return out;
}

/** @param {Set<number>} a @param {Set<number>} b */
export function jaccard(a, b) {
  if (a.size === 0 && b.size === 0) return 1;
  const [small, big] = a.size < b.size ? [a, b] : [b, a];
  let both = 0;
  for (const x of small) if (big.has(x)) both++;
  return both / (a.size + b.size - both);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();

async function main() {
  // ---- the pages --------------------------------------------------------------------------------
  /** @typedef {{ corpus: string, path: string, text: string, fp: ReturnType<typeof fingerprint>, set: Set<number> }} Page */
  /** @type {Page[]} */
  const pages = [];
  const perCorpus = new Map();
  for (const c of corpora) {
    let files = htmlFiles(c.dir, []);
    if (MAX > 0) files = files.slice(0, MAX);
    let n = 0;
    for (const path of files) {
      const text = mainText(readFileSync(path));
      const fp = fingerprint(text, DEFAULT_FINGERPRINT, []);
      if (fp.tokens < MIN_DEDUP_TOKENS) continue;
      pages.push({ corpus: c.name, path, text, fp, set: shingles(tokenise(text)) });
      n++;
    }
    perCorpus.set(c.name, n);
    console.log(`${c.name}: ${n} pages${files.length === 0 ? ` (none found in ${c.dir})` : ''}`);
  }
  console.log(`${pages.length} pages with ${MIN_DEDUP_TOKENS}+ tokens`);

  // ---- precision: every pair the crawl calls a near-duplicate, with its true Jaccard --------------
  /** @param {{ kind: string, hash: string, minhash?: string }} fp */
  const keysOf = (fp) => (fp.kind === 'exact' ? [`x${fp.hash}`] : fp.minhash ? bandKeys(fp.minhash) : []);
  /** @type {Map<string, number[]>} */
  const buckets = new Map();
  for (const [i, p] of pages.entries()) {
    for (const k of keysOf(p.fp)) {
      const list = buckets.get(k);
      if (list) list.push(i);
      else buckets.set(k, [i]);
    }
  }
  /** @type {Set<string>} */
  const candidatePairs = new Set();
  for (const list of buckets.values()) {
    if (list.length > 200) console.log(`a band key shared by ${list.length} pages`);
    for (let a = 0; a < list.length; a++)
      for (let b = a + 1; b < list.length; b++) candidatePairs.add(`${list[a]},${list[b]}`);
  }
  const called = { dup: 0, grey: 0, distinct: 0 };
  /** @type {Map<string, { dup: number, grey: number, distinct: number }>} called pairs per corpus */
  const calledBy = new Map();
  /** @type {string[]} */
  const falsePairs = [];
  const candidateJ = [0, 0, 0]; // candidates (before verification): distinct, grey, dup
  // The margin: the highest MinHash estimate among distinct candidate pairs (true Jaccard < 0.5).
  let closest = { estimate: 0, jaccard: 0 };
  for (const pair of candidatePairs) {
    const [a, b] = pair.split(',').map(Number);
    const pa = /** @type {Page} */ (pages[/** @type {number} */ (a)]);
    const pb = /** @type {Page} */ (pages[/** @type {number} */ (b)]);
    const j = jaccard(pa.set, pb.set);
    const cls = j >= 0.8 ? 2 : j >= 0.5 ? 1 : 0;
    candidateJ[cls] = (candidateJ[cls] ?? 0) + 1;
    if (cls === 0 && pa.fp.minhash && pb.fp.minhash) {
      const estimate = similarity(pa.fp.minhash, pb.fp.minhash);
      if (estimate > closest.estimate) closest = { estimate, jaccard: j };
    }
    const near = nearness(pa.fp, pb.fp);
    if (near === undefined) continue;
    const where = pa.corpus === pb.corpus ? pa.corpus : 'across corpora';
    const row = calledBy.get(where) ?? { dup: 0, grey: 0, distinct: 0 };
    calledBy.set(where, row);
    row[cls === 2 ? 'dup' : cls === 1 ? 'grey' : 'distinct']++;
    if (cls === 2) called.dup++;
    else if (cls === 1) called.grey++;
    else {
      called.distinct++;
      falsePairs.push(
        `${pa.path} ~ ${pb.path}: jaccard ${j.toFixed(3)}, estimate ${near.similarity.toFixed(3)}, distance ${near.distance}`,
      );
    }
  }
  // The corpus's own near-duplicates (true Jaccard >= 0.8) that the crawl misses, among pages that
  // share at least a tenth of their shingles with another (all pairs would be millions of Jaccards).
  console.log(
    `candidate pairs (a shared key): ${candidatePairs.size}; by true Jaccard: < 0.5 ${candidateJ[0]}, 0.5-0.8 ${candidateJ[1]}, >= 0.8 ${candidateJ[2]}`,
  );
  console.log(
    `called near-duplicates: ${called.dup + called.grey + called.distinct}: true (>= 0.8) ${called.dup}, grey (0.5-0.8) ${called.grey}, FALSE (< 0.5) ${called.distinct}`,
  );
  for (const f of falsePairs.slice(0, 20)) console.log(`  false pair: ${f}`);
  console.log(
    `  margin: the highest MinHash estimate of a distinct candidate pair is ${closest.estimate.toFixed(3)} (true Jaccard ${closest.jaccard.toFixed(3)}); near-duplicates need ${MIN_SIMILARITY}`,
  );
  for (const [where, row] of calledBy)
    console.log(`  ${where}: true ${row.dup}, grey ${row.grey}, false ${row.distinct}`);

  // ---- recall: edited copies of real pages -------------------------------------------------------
  const r = rng(32);
  const allWords = pages
    .flatMap((p, i) => (i % 7 === 0 ? p.text.split(/\s+/).slice(0, 200) : []))
    .filter((w) => /^\p{L}{3,}$/u.test(w));
  const word = () => allWords[Math.floor(r() * allWords.length)] ?? 'word';
  const words = (/** @type {number} */ n) => Array.from({ length: n }, word).join(' ');
  /** @type {Record<string, (t: string) => [string, string]>} */
  const edits = {
    'date and counter': (t) => [
      `Published 14 March 2024. 1,204 views. ${t}`,
      `Published 5 December 2026. 98,311 views. ${t}`,
    ],
    'a sentence added': (t) => {
      const w = t.split(' ');
      const at = Math.floor(w.length / 2);
      return [t, [...w.slice(0, at), `${words(14)}.`, ...w.slice(at)].join(' ')];
    },
    'a sentence removed': (t) => {
      // The sentence nearest the middle that has 5 to 40 words; a text without one loses 12 words.
      const s = t.split(/(?<=[.!?])\s+/);
      const fits = (/** @type {number} */ i) => {
        const n = (s[i] ?? '').split(' ').length;
        return n >= 5 && n <= 40;
      };
      const order = s
        .map((_, i) => i)
        .sort((a, b) => Math.abs(a - s.length / 2) - Math.abs(b - s.length / 2));
      const at = order.find(fits);
      if (at === undefined) {
        const w = t.split(' ');
        const mid = Math.floor(w.length / 2);
        return [t, [...w.slice(0, mid), ...w.slice(mid + 12)].join(' ')];
      }
      return [t, [...s.slice(0, at), ...s.slice(at + 1)].join(' ')];
    },
    'a different footer': (t) => [`${t} ${words(25)}`, `${t} ${words(25)}`],
    ...Object.fromEntries(
      [1, 2, 3, 5].map((pct) => [
        `${pct}% of the words replaced`,
        (/** @type {string} */ t) => {
          const w = t.split(' ');
          const n = Math.max(1, Math.round((w.length * pct) / 100));
          for (let i = 0; i < n; i++) w[Math.floor(r() * w.length)] = word();
          return [t, w.join(' ')];
        },
      ]),
    ),
  };
  const sample = pages.filter((p) => p.fp.tokens >= DEFAULT_FINGERPRINT.shortTokens);
  console.log(
    `recall on edited copies of ${sample.length} pages (80+ tokens); shorter texts are compared exactly`,
  );
  /** @type {Map<string, { found: number, n: number }>} copies with 1-5% of the words replaced, per corpus */
  const wordEdits = new Map();
  for (const [name, edit] of Object.entries(edits)) {
    const row = { found: 0, n: 0, minJ: 1 };
    for (const p of sample) {
      const [a, b] = edit(p.text);
      const fa = fingerprint(a, DEFAULT_FINGERPRINT, []);
      const fb = fingerprint(b, DEFAULT_FINGERPRINT, []);
      const ka = new Set(keysOf(fa));
      const shares = keysOf(fb).some((/** @type {string} */ k) => ka.has(k));
      row.n++;
      const found = shares && nearness(fa, fb) !== undefined;
      if (name.endsWith('words replaced')) {
        const c = wordEdits.get(p.corpus) ?? { found: 0, n: 0 };
        wordEdits.set(p.corpus, c);
        c.n++;
        if (found) c.found++;
      }
      if (found) row.found++;
      else row.minJ = Math.min(row.minJ, jaccard(shingles(tokenise(a)), shingles(tokenise(b))));
    }
    console.log(
      `  ${name}: ${row.found}/${row.n} = ${((100 * row.found) / row.n).toFixed(1)}%${row.found < row.n ? ` (lowest true Jaccard missed ${row.minJ.toFixed(3)})` : ''}`,
    );
  }
  for (const [corpus, c] of wordEdits)
    console.log(
      `  ${corpus}, 1-5% of the words replaced: ${c.found}/${c.n} = ${((100 * c.found) / c.n).toFixed(1)}%`,
    );
  const total = pages.length;
  if (total < 3000) {
    console.error(
      `only ${total} pages: install the corpora (apt-get install python3.11-doc python-django-doc postgresql-doc-15 git-doc debian-handbook; --trafilatura DIR)`,
    );
    process.exit(1);
  }
}
