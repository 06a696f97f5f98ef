// @ts-check
// The fingerprint of near-duplicate detection (src/dedup/fingerprint.ts), measured:
// 1. which features: words or shingles of 2, 3 or 4 words, on real prose (the Markdown documents
//    of the repository and its node_modules, code blocks removed, cut into articles of 300 to 1,500
//    words). For each choice: how often an edited copy stays within distance 3 (a date and a counter
//    changed, one sentence replaced, both), how often two different articles that share a heavy
//    template (400 words of navigation, related links and legal text inside the main text) fall
//    within 3 (false near-duplicates), and the distance of unrelated articles;
// 2. its cost: CPU-ms per fingerprint of a 10 KB text.
// Part of `npm run bench`; alone: npm run bench:dedup (with the query cost) or
// `npm run build && node scripts/bench/simhash.mjs`.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dist } from './dist.mjs';
import { rng } from './web.mjs';

const { fingerprint, distance, tokenise, DEFAULT_FINGERPRINT, MAX_DISTANCE } = await dist(
  'fingerprint/fingerprint.js',
);

const root = resolve(fileURLToPath(import.meta.url), '../../..');

/**
 * @param {string} dir
 * @param {string[]} out
 * @param {number} depth
 */
function markdownFiles(dir, out, depth) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const p = join(dir, e.name);
    if (e.isDirectory() && depth > 0 && e.name !== '.git') markdownFiles(p, out, depth - 1);
    else if (e.isFile() && e.name.toLowerCase().endsWith('.md') && statSync(p).size > 1500) out.push(p);
  }
}

/** Articles of real prose: paragraphs of Markdown documents without code, 300 to 1,500 words. */
export function corpus(max = 400) {
  /** @type {string[]} */
  const files = [];
  markdownFiles(join(root, 'node_modules'), files, 6);
  markdownFiles(join(root, 'scripts/bench/node_modules'), files, 4);
  /** @type {Set<string>} */
  const seen = new Set();
  /** @type {string[]} */
  const articles = [];
  for (const f of files) {
    const text = readFileSync(f, 'utf8')
      .replace(/```[\s\S]*?```/g, ' ')
      .replace(/`[^`]*`/g, ' ')
      .replace(
        /<[^>]+>|\[!\[[^\]]*\]\([^)]*\)\]\([^)]*\)|!\[[^\]]*\]\([^)]*\)|\(http[^)]*\)|[|#*>_-]{2,}/g,
        ' ',
      );
    const paragraphs = text
      .split(/\n\s*\n/)
      .map((p) => p.replace(/\s+/g, ' ').trim())
      .filter((p) => p.split(' ').length >= 12);
    let cur = '';
    for (const p of paragraphs) {
      if (seen.has(p)) continue; // licences and badges repeat across packages
      seen.add(p);
      cur += `${p}\n`;
      const words = cur.split(' ').length;
      if (words >= 300 + (articles.length % 5) * 250) {
        articles.push(cur);
        cur = '';
        if (articles.length >= max) return articles;
      }
    }
  }
  return articles;
}

/** @param {string} text */
const sentences = (text) => text.split(/(?<=[.!?])\s+/).filter((s) => s.split(' ').length >= 6);

/**
 * @param {readonly number[]} values
 * @param {number} p
 */
function pct(values, p) {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] ?? Number.NaN;
}

/**
 * @typedef {{ shingle: number, datesCounters: number, oneSentence: number, both: number,
 *   bothP50: number, templateFalse: number, templateP5: number, unrelatedP50: number }} FeatureRow
 * @typedef {{ articles: number, tokensP50: number, rows: FeatureRow[], chosen: number,
 *   msPer10KB: number, tokensPer10KB: number }} SimhashResult
 */

/** @returns {SimhashResult} */
export function simhashBench({
  articles: max = 400,
  log = /** @type {(l: string) => void} */ (() => {}),
} = {}) {
  const articles = corpus(max);
  const r = rng(11);
  const template = corpus(max + 3)
    .slice(max)
    .join(' ')
    .split(' ')
    .slice(0, 400)
    .join(' ');
  /** @param {string} a */
  const dated = (a, d = 14, n = 1234) =>
    `Published 2026-03-${d} by the editors. ${n} readers. ${a} Page ${n % 9} of 9.`;
  /** @type {FeatureRow[]} */
  const rows = [];
  for (const shingle of [1, 2, 3, 4]) {
    const opts = { ...DEFAULT_FINGERPRINT, shingle };
    /** @param {string} t */
    const fp = (t) => fingerprint(t, opts)?.hash ?? '';
    let datesCounters = 0;
    let oneSentence = 0;
    let both = 0;
    /** @type {number[]} */
    const bothD = [];
    /** @type {number[]} */
    const templateD = [];
    /** @type {number[]} */
    const unrelatedD = [];
    const rr = rng(5);
    const TRIALS = 5;
    for (let i = 0; i < articles.length * TRIALS; i++) {
      const a = /** @type {string} */ (articles[i % articles.length]);
      const other = /** @type {string} */ (articles[(i * 13 + 1) % articles.length]);
      const ss = sentences(a);
      const os = sentences(other);
      const replacement =
        os[Math.floor(rr() * os.length)] ?? 'A sentence that was not there before, written anew.';
      const victim = ss[Math.floor(rr() * ss.length)] ?? '';
      const edited = victim ? a.replace(victim, replacement) : `${a} ${replacement}`;
      const base = fp(dated(a));
      if (distance(base, fp(dated(a, 27, 98765))) <= MAX_DISTANCE) datesCounters++;
      if (distance(base, fp(dated(edited))) <= MAX_DISTANCE) oneSentence++;
      const d = distance(base, fp(dated(edited, 27, 98765)));
      bothD.push(d);
      if (d <= MAX_DISTANCE) both++;
      // Short articles inside a heavy template: the template is as long as the article or longer.
      const shortA = a
        .split(' ')
        .slice(0, 150 + Math.floor(r() * 250))
        .join(' ');
      const shortB = other
        .split(' ')
        .slice(0, 150 + Math.floor(r() * 250))
        .join(' ');
      templateD.push(
        distance(
          fp(`${template} ${shortA} ${template.slice(0, 600)}`),
          fp(`${template} ${shortB} ${template.slice(0, 600)}`),
        ),
      );
      unrelatedD.push(distance(base, fp(articles[(i * 7 + 3) % articles.length] ?? '')));
    }
    const n = articles.length * TRIALS;
    const row = {
      shingle,
      datesCounters: datesCounters / n,
      oneSentence: oneSentence / n,
      both: both / n,
      bothP50: pct(bothD, 50),
      templateFalse: templateD.filter((d) => d <= MAX_DISTANCE).length / n,
      templateP5: pct(templateD, 5),
      unrelatedP50: pct(unrelatedD, 50),
    };
    rows.push(row);
    log(
      `  shingles of ${shingle}: within ${MAX_DISTANCE} after dates+counter ${(row.datesCounters * 100).toFixed(0)}%, ` +
        `one sentence ${(row.oneSentence * 100).toFixed(0)}%, both ${(row.both * 100).toFixed(0)}% (median ${row.bothP50}); ` +
        `template pairs within ${MAX_DISTANCE} ${(row.templateFalse * 100).toFixed(1)}% (p5 ${row.templateP5}); unrelated median ${row.unrelatedP50}`,
    );
  }
  // Cost: the 10 KB of text a small page of the crawl benchmark carries.
  let text = '';
  for (let i = 0; text.length < 10_240; i++) text += articles[i % articles.length];
  text = text.slice(0, 10_240);
  for (let i = 0; i < 300; i++) fingerprint(text);
  let best = Number.POSITIVE_INFINITY;
  for (let run = 0; run < 5; run++) {
    const t = process.cpuUsage();
    const n = 1000;
    for (let i = 0; i < n; i++) fingerprint(text);
    const u = process.cpuUsage(t);
    best = Math.min(best, (u.user + u.system) / 1000 / n);
  }
  log(`  ${best.toFixed(3)} CPU-ms per fingerprint of 10 KB of text (${tokenise(text).length} tokens)`);
  const tokensP50 = pct(
    articles.map((a) => tokenise(a).length),
    50,
  );
  return {
    articles: articles.length,
    tokensP50,
    rows,
    chosen: DEFAULT_FINGERPRINT.shingle,
    msPer10KB: best,
    tokensPer10KB: tokenise(text).length,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = simhashBench({ log: console.log });
  console.log(JSON.stringify({ articles: r.articles, tokensP50: r.tokensP50, chosen: r.chosen }));
}
