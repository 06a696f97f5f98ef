// @ts-check
// Near-duplicate verdicts measured on real pages no one here wrote (issues 32 and 43): the crawl's own
// decision (src/dedup: fingerprint, MinHash bands, the estimates as a filter, then the exact check of
// the two main texts, dedup/decide.ts) against truths this script computes apart: the Jaccard
// similarity of the word 3-shingles of the two pages' main texts (as the crawl extracts them) AND of
// their whole page texts (everything in the body: an extraction that lost text cannot fool it).
//
//   npm run bench:dedup-quality [-- --max N] [--trafilatura DIR]   (corpora: dedup-corpora.mjs)
//
// All pages are judged in one pool, as one index holds them.
// - Precision: every pair that shares a band key (or a short text's exact signature), then the
//   crawl's verdict: `duplicate` (left out with dedup.mode skip) or `similar` (indexed, named). Every
//   duplicate must have main-text Jaccard >= 0.85 and none a page-text Jaccard under 0.8, each
//   counted in both readings: the shingles' set and their bag (counts; the one the crawl decides
//   on, with the set's at most 0.03 under, dedup/decide.ts). The
//   verdicts of the estimates alone (before issue 43) are counted beside them.
// - Recall: edited copies of real pages (the same text under another URL, a date and a counter, a
//   sentence added or removed, a different footer block, 1%, 2%, 3% and 5% of the words replaced):
//   the share called `duplicate` (and `similar`). "pct% of the words replaced" is exactly round(pct%
//   of n) of the tokens at distinct random positions; a whole page gets that share of its main
//   text's words and of the page's (dedup-corpora.mjs: editedText, editedPage).
// No assertion: numbers for RESULTS.md. Exit 1 when fewer than 3,000 pages were found.

import { readFileSync } from 'node:fs';
import {
  corpora,
  corpusFiles,
  editedPage,
  editedText,
  editStats,
  mainText,
  pageHtml,
  pageText,
} from './dedup-corpora.mjs';
import { dist } from './dist.mjs';
import { numberOption } from './proc.mjs';
import { rng } from './web.mjs';

export { corpora, htmlFiles, mainText, pageText } from './dedup-corpora.mjs';

const { fingerprint, tokenise, shingleBag, DEFAULT_FINGERPRINT, MIN_DEDUP_TOKENS } = await dist(
  'fingerprint/fingerprint.js',
);
const { similarities } = await dist('fingerprint/jaccard.js');
const { bodyFingerprint } = await dist('fingerprint/body.js');
const { bandKeys } = await dist('fingerprint/minhash.js');
const { nearness, decide, DUPLICATE_SIMILARITY } = await dist('dedup/decide.js');

const MAX = numberOption('max', 0);
/** --pages-only: only the recall on whole edited pages, on every --every'th page. */
const PAGES_ONLY = process.argv.includes('--pages-only');
const EVERY = numberOption('every', 1);

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

/**
 * The truth's features: the word 3-shingles of the text's tokens, each with its count (the bag; its
 * keys are the set).
 */
export function shingles(/** @type {string[]} */ tokens) {
  /** @type {Map<number, number>} */
  const out = new Map();
  for (let i = 0; i + 3 <= tokens.length; i++) {
    const s = `${tokens[i]} ${tokens[i + 1]} ${tokens[i + 2]}`;
    const k = (h32(s, 0x811c9dc5) & 0x1fffff) * 2 ** 32 + h32(s, 0x9747b28c);
    out.set(k, (out.get(k) ?? 0) + 1);
  }
  return out;
}

/** The set's Jaccard (distinct shingles). @param {Map<number, number>} a @param {Map<number, number>} b */
export function jaccard(a, b) {
  if (a.size === 0 && b.size === 0) return 1;
  const [small, big] = a.size < b.size ? [a, b] : [b, a];
  let both = 0;
  for (const x of small.keys()) if (big.has(x)) both++;
  return both / (a.size + b.size - both);
}

/** The bag's Jaccard: smaller counts over larger. @param {Map<number, number>} a @param {Map<number, number>} b */
export function bagJaccard(a, b) {
  if (a.size === 0 && b.size === 0) return 1;
  let min = 0;
  let sumA = 0;
  let sumB = 0;
  for (const [k, n] of a) {
    sumA += n;
    min += Math.min(n, b.get(k) ?? 0);
  }
  for (const n of b.values()) sumB += n;
  return min / (sumA + sumB - min);
}

/**
 * The fingerprint the crawl stores for a page: the main text's, and the whole body's signature as
 * SimhashParseFilter reads it from the bytes (an edited copy without bytes: its main text alone as
 * the body, the strictest case, since chrome shared by the two pages only raises the similarity).
 * @param {string} text @param {Buffer | string} [bytes]
 */
export function crawlFingerprint(text, bytes) {
  const fp = fingerprint(text, DEFAULT_FINGERPRINT, []);
  const body = bodyFingerprint(bytes ?? `<body>${text}</body>`);
  return body.minhash ? { ...fp, body: { minhash: body.minhash, tokens: body.tokens } } : fp;
}

/**
 * The crawl's verdict on page `b` against indexed page `a` (dedup/decide.ts with the exact check on
 * their texts): 'duplicate', 'similar' or 'canonical'.
 * @param {{ fp: any, text: string, url: string, hashes?: Int32Array }} a
 * @param {{ fp: any, text: string, url: string, hashes?: Int32Array }} b
 */
export function verdict(a, b) {
  const cand = {
    id: 'a',
    url: a.url,
    kind: a.fp.kind,
    hash: a.fp.hash,
    tokens: a.fp.tokens,
    ...(a.fp.minhash ? { minhash: a.fp.minhash } : {}),
    ...(a.fp.body ? { bodyMinhash: a.fp.body.minhash, bodyTokens: a.fp.body.tokens } : {}),
  };
  const verify = () => {
    a.hashes ??= shingleBag(a.text);
    b.hashes ??= shingleBag(b.text);
    return similarities(a.hashes, b.hashes);
  };
  return decide({ url: b.url, selfId: 'b', fp: b.fp }, [cand], verify, DUPLICATE_SIMILARITY);
}

/** @typedef {{ corpus: string, path: string, url: string, text: string, fp: any, set: Map<number, number>, hashes?: Int32Array }} Page */

if (import.meta.url === `file://${process.argv[1]}`) await main();

async function main() {
  // ---- the pages --------------------------------------------------------------------------------
  /** @type {Page[]} */
  const pages = [];
  for (const c of corpora) {
    const files = corpusFiles(c, MAX);
    let n = 0;
    for (const path of files) {
      const bytes = readFileSync(path);
      const text = mainText(bytes);
      const fp = crawlFingerprint(text, bytes);
      if (fp.tokens < MIN_DEDUP_TOKENS) continue;
      pages.push({ corpus: c.name, path, url: path, text, fp, set: shingles(tokenise(text)) });
      n++;
    }
    console.log(`${c.name} (${c.kind}): ${n} pages${files.length === 0 ? ` (none found in ${c.dir})` : ''}`);
  }
  console.log(`${pages.length} pages with ${MIN_DEDUP_TOKENS}+ tokens`);

  const keysOf = (/** @type {{ kind: string, hash: string, minhash?: string }} */ fp) =>
    fp.kind === 'exact' ? [`x${fp.hash}`] : fp.minhash ? bandKeys(fp.minhash) : [];
  if (!PAGES_ONLY) precision(pages, keysOf);
  recall(pages, keysOf);
  enough(pages.length);
}

/**
 * @param {{ corpus: string, path: string, url: string, text: string, fp: any, set: Map<number, number> }[]} pages
 * @param {(fp: any) => string[]} keysOf
 */
function precision(pages, keysOf) {
  // ---- precision: every candidate pair, the crawl's verdict, and the two truths -------------------
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
  /** @type {Map<number, Map<number, number>>} the whole page texts' shingles, read when a pair needs them */
  const pageSets = new Map();
  const pageSet = (/** @type {number} */ i) => {
    let s = pageSets.get(i);
    if (!s) {
      s = shingles(tokenise(pageText(readFileSync(/** @type {Page} */ (pages[i]).path))));
      pageSets.set(i, s);
    }
    return s;
  };
  // Each bar in both readings of the Jaccard: the set's (distinct shingles) and the bag's (counts).
  const row = () => ({
    pairs: 0,
    minMain: 1,
    minMainBag: 1,
    pageUnder08: 0,
    pageBagUnder08: 0,
    mainUnder085: 0,
    mainBagUnder085: 0,
  });
  /** @type {Map<string, { duplicate: ReturnType<typeof row>, similar: ReturnType<typeof row>, estimates: ReturnType<typeof row> }>} */
  const byCorpus = new Map();
  const total = { duplicate: row(), similar: row(), estimates: row() };
  /** @type {string[]} */
  const bad = [];
  /** @type {string[]} */
  const oldBad = [];
  for (const pair of candidatePairs) {
    const [a, b] = pair.split(',').map(Number);
    const pa = /** @type {Page} */ (pages[/** @type {number} */ (a)]);
    const pb = /** @type {Page} */ (pages[/** @type {number} */ (b)]);
    const old = nearness(pa.fp, pb.fp) !== undefined;
    const d = old ? verdict(pa, pb) : { kind: 'canonical' };
    if (!old) continue;
    const mainJ = jaccard(pa.set, pb.set);
    const mainBag = bagJaccard(pa.set, pb.set);
    const [pageA, pageB] = [pageSet(/** @type {number} */ (a)), pageSet(/** @type {number} */ (b))];
    const pageJ = jaccard(pageA, pageB);
    const pageBag = bagJaccard(pageA, pageB);
    const where = pa.corpus === pb.corpus ? pa.corpus : 'across corpora';
    const rows = byCorpus.get(where) ?? { duplicate: row(), similar: row(), estimates: row() };
    byCorpus.set(where, rows);
    /** @type {('estimates' | 'duplicate' | 'similar')[]} */
    const kinds = ['estimates'];
    if (d.kind === 'duplicate' || d.kind === 'similar') kinds.push(d.kind);
    for (const k of kinds)
      for (const r of [rows[k], total[k]]) {
        r.pairs++;
        r.minMain = Math.min(r.minMain, mainJ);
        r.minMainBag = Math.min(r.minMainBag, mainBag);
        if (pageJ < 0.8) r.pageUnder08++;
        if (pageBag < 0.8) r.pageBagUnder08++;
        if (mainJ < DUPLICATE_SIMILARITY) r.mainUnder085++;
        if (mainBag < DUPLICATE_SIMILARITY) r.mainBagUnder085++;
      }
    const line = `${pa.path} ~ ${pb.path}: main ${mainJ.toFixed(3)} (bag ${mainBag.toFixed(3)}), page ${pageJ.toFixed(3)} (bag ${pageBag.toFixed(3)})`;
    if (d.kind === 'duplicate' && (pageJ < 0.8 || pageBag < 0.8 || mainBag < DUPLICATE_SIMILARITY))
      bad.push(line);
    if (pageJ < 0.8) oldBad.push(line);
  }
  const show = (/** @type {ReturnType<typeof row>} */ r) =>
    `${r.pairs} pairs (lowest main-text J, set ${r.pairs ? r.minMain.toFixed(3) : '-'}, bag ${r.pairs ? r.minMainBag.toFixed(3) : '-'}; main-text J < ${DUPLICATE_SIMILARITY}: set ${r.mainUnder085}, bag ${r.mainBagUnder085}; page-text J < 0.8: set ${r.pageUnder08}, bag ${r.pageBagUnder08})`;
  console.log(`candidate pairs (a shared key): ${candidatePairs.size}`);
  console.log(`before issue 43, the estimates alone: ${show(total.estimates)}`);
  console.log(`duplicate (left out with skip): ${show(total.duplicate)}`);
  console.log(`similar (indexed, named): ${show(total.similar)}`);
  for (const f of bad.slice(0, 20)) console.log(`  WRONG duplicate: ${f}`);
  for (const f of oldBad.slice(0, 8)) console.log(`  (an estimates-only verdict under 0.8: ${f})`);
  for (const [where, r] of byCorpus)
    console.log(
      `  ${where}: estimates ${r.estimates.pairs} (page J < 0.8: ${r.estimates.pageUnder08}); duplicate ${show(r.duplicate)}; similar ${r.similar.pairs}`,
    );
}

/**
 * @param {{ corpus: string, path: string, url: string, text: string, fp: any, set: Map<number, number> }[]} pages
 * @param {(fp: any) => string[]} keysOf
 */
function recall(pages, keysOf) {
  // ---- recall: edited copies of real pages -------------------------------------------------------
  const r = rng(32);
  const allWords = pages
    .flatMap((p, i) => (i % 7 === 0 ? p.text.split(/\s+/).slice(0, 200) : []))
    .filter((w) => /^\p{L}{3,}$/u.test(w));
  const word = () => allWords[Math.floor(r() * allWords.length)] ?? 'word';
  const words = (/** @type {number} */ n) => Array.from({ length: n }, word).join(' ');
  /** @type {Record<string, (t: string) => [string, string]>} */
  const edits = {
    'the same text (another URL)': (t) => [t, t],
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
        // Exactly round(pct% of its tokens) at distinct random positions (dedup-corpora.mjs).
        (/** @type {string} */ t) => [t, editedText(t, pct, r, word)],
      ]),
    ),
  };
  const sample = pages.filter((p, i) => p.fp.tokens >= DEFAULT_FINGERPRINT.shortTokens && i % EVERY === 0);
  console.log(`recall on edited copies of ${sample.length} pages (80+ tokens): called duplicate, similar`);
  /** @type {Map<string, { dup: number, n: number }>} copies with 1-2% of the words replaced, per corpus */
  const smallEdits = new Map();
  /** @type {Map<string, { dup: number, n: number }>} whole pages with 1-2% of the words replaced */
  const smallPages = new Map();
  const rngPage = rng(43);
  for (const [name, edit] of Object.entries(PAGES_ONLY ? {} : edits)) {
    const r = { dup: 0, similar: 0, n: 0, minJ: 1 };
    for (const p of sample) {
      const [a, b] = edit(p.text);
      const pa = { fp: crawlFingerprint(a), text: a, url: 'http://a/' };
      const pb = { fp: crawlFingerprint(b), text: b, url: 'http://b/' };
      const ka = new Set(keysOf(pa.fp));
      const shares = keysOf(pb.fp).some((/** @type {string} */ k) => ka.has(k));
      const d = shares ? verdict(pa, pb).kind : 'canonical';
      r.n++;
      if (d === 'duplicate') r.dup++;
      else {
        if (d === 'similar') r.similar++;
        r.minJ = Math.min(r.minJ, bagJaccard(shingles(tokenise(a)), shingles(tokenise(b))));
      }
      if (name.startsWith('1%') || name.startsWith('2%')) {
        const c = smallEdits.get(p.corpus) ?? { dup: 0, n: 0 };
        smallEdits.set(p.corpus, c);
        c.n++;
        if (d === 'duplicate') c.dup++;
      }
    }
    const pct = (/** @type {number} */ x) => ((100 * x) / r.n).toFixed(1);
    console.log(
      `  ${name}: duplicate ${r.dup}/${r.n} = ${pct(r.dup)}%, similar ${pct(r.similar)}%${r.dup < r.n ? ` (lowest main-text J (bag) of a copy not called duplicate: ${r.minJ.toFixed(3)})` : ''}`,
    );
  }
  // Whole pages edited: the copy's HTML with 1% or 2% of the page's words replaced, then extracted and
  // fingerprinted as the crawl does (main text and whole body from the edited page).
  for (const pct of [1, 2]) {
    const r = { dup: 0, similar: 0, n: 0 };
    for (const p of sample) {
      // Both read from the decoded HTML, the copy's and the original's (the crawl reads both pages'
      // bytes alike; a decoded copy against the original's Latin-1 bytes would differ where the page
      // has any non-ASCII character).
      const html = pageHtml(readFileSync(p.path));
      // pct% of the main text's words and pct% of the rest's (dedup-corpora.mjs says why).
      const copy = editedPage(html, pct, rngPage, word, p.text);
      const text = mainText(copy);
      const pb = { fp: crawlFingerprint(text, copy), text, url: 'http://b/' };
      const pa = { fp: crawlFingerprint(p.text, html), text: p.text, url: 'http://a/' };
      const ka = new Set(keysOf(pa.fp));
      const shares = keysOf(pb.fp).some((/** @type {string} */ k) => ka.has(k));
      const d = shares ? verdict(pa, pb).kind : 'canonical';
      r.n++;
      if (d === 'duplicate') r.dup++;
      else if (d === 'similar') r.similar++;
      const c = smallPages.get(p.corpus) ?? { dup: 0, n: 0 };
      smallPages.set(p.corpus, c);
      c.n++;
      if (d === 'duplicate') c.dup++;
    }
    console.log(
      `  whole page, ${pct}% of its words replaced in the HTML: duplicate ${r.dup}/${r.n} = ${((100 * r.dup) / r.n).toFixed(1)}%, similar ${((100 * r.similar) / r.n).toFixed(1)}%`,
    );
  }
  console.log(
    `  (whole-page copies: ${editStats.copies}, drawn again for the main text's share ${editStats.redrawn}, left inexact ${editStats.inexact})`,
  );
  for (const [corpus, c] of smallPages)
    console.log(
      `  ${corpus}, whole pages with 1-2% of the words replaced: duplicate ${c.dup}/${c.n} = ${((100 * c.dup) / c.n).toFixed(1)}%`,
    );
  for (const [corpus, c] of smallEdits)
    console.log(
      `  ${corpus}, 1-2% of the words replaced: duplicate ${c.dup}/${c.n} = ${((100 * c.dup) / c.n).toFixed(1)}%`,
    );
}

/** Exit 1 when the corpora are missing. @param {number} n */
function enough(n) {
  if (n < 3000) {
    console.error(`only ${n} pages: install the corpora (scripts/bench/dedup-corpora.mjs)`);
    process.exit(1);
  }
}
