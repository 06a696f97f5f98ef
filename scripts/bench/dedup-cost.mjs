// @ts-check
// What issue 43 adds to the crawler's CPU per page, replayed in process on the cost benchmark's small
// web (the pages of `npm run bench:features -- --hosts 20 --pages 250`), so that a busy machine's
// noise between crawls does not hide it: the whole body's signature that every page now gets in
// SimhashParseFilter, and the exact check (shingles of both texts, their Jaccard) that a page pays
// for each candidate past the estimates, the candidates found as the judge finds them (a shared band
// key with a page before it). Median of 5 timed passes over all pages, CPU time (process.cpuUsage).
//
//   npm run build && node scripts/bench/dedup-cost.mjs [--hosts 20 --pages 250] [--base DIR]
// --base DIR: also this build's fingerprints (the main text's with its URL's words, as
// SimhashParseFilter makes it, and the body's) against another worktree's build (its dist/, built),
// in one process, alternated in 15 rounds: the paired medians of a change that should only be cheaper.

import { resolve } from 'node:path';
import { mainText } from './dedup-corpora.mjs';
import { dist } from './dist.mjs';
import { numberOption } from './proc.mjs';
import { createWeb } from './web.mjs';

const { fingerprint, shingleBag } = await dist('fingerprint/fingerprint.js');
const { bodyFingerprint } = await dist('fingerprint/body.js');
const { similarities } = await dist('fingerprint/jaccard.js');
const { bandKeys } = await dist('fingerprint/minhash.js');
const { nearness } = await dist('dedup/decide.js');

const hosts = numberOption('hosts', 20);
const perHost = numberOption('pages', 250);
const web = createWeb({ profile: 'small', hosts, pages: perHost });
/** @type {{ bytes: Buffer, text: string, fp: any }[]} */
const pages = [];
for (let h = 0; h < hosts; h++)
  for (let i = 0; i < perHost; i++) {
    const bytes = web.body(h, i);
    const text = mainText(bytes);
    pages.push({ bytes, text, fp: fingerprint(text) });
  }

// The candidates each page finds (a shared band key with a page judged before it) and that pass the
// estimates: the ones whose texts the judge reads and compares.
/** @type {Map<string, number[]>} */
const byKey = new Map();
/** @type {[number, number][]} */
const checks = [];
let candidates = 0;
for (const [i, p] of pages.entries()) {
  const keys = p.fp.minhash ? bandKeys(p.fp.minhash) : [];
  /** @type {Set<number>} */
  const found = new Set();
  for (const k of keys) for (const j of byKey.get(k) ?? []) found.add(j);
  candidates += found.size;
  for (const j of found)
    if (nearness(p.fp, /** @type {any} */ (pages[j]).fp) !== undefined) checks.push([i, j]);
  for (const k of keys) byKey.set(k, [...(byKey.get(k) ?? []), i]);
}

/** CPU ms per page of `f` over all pages, the median of 5 passes after one warm-up. @param {() => void} f */
function perPage(f) {
  f();
  const runs = [];
  for (let r = 0; r < 5; r++) {
    const t = process.cpuUsage();
    f();
    const u = process.cpuUsage(t);
    runs.push((u.user + u.system) / 1000 / pages.length);
  }
  return runs.sort((a, b) => a - b)[2] ?? 0;
}
// The body signature of the bag (the crawl's) and of the set (before the bag, to show what the bag's
// counts cost), alternated in 9 rounds: medians and the median paired difference.
/** @param {boolean} bag */
const bodyPass = (bag) => {
  const t = process.cpuUsage();
  for (const p of pages) bodyFingerprint(p.bytes, bag);
  const u = process.cpuUsage(t);
  return (u.user + u.system) / 1000 / pages.length;
};
bodyPass(true);
bodyPass(false);
/** @type {number[][]} */
const rounds = [];
for (let r = 0; r < 9; r++) {
  const a = r % 2 === 0 ? bodyPass(true) : 0;
  const b = bodyPass(false);
  rounds.push([r % 2 === 0 ? a : bodyPass(true), b]);
}
const median = (/** @type {number[]} */ xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)] ?? 0;
const body = median(rounds.map((r) => r[0] ?? 0));
const bodySet = median(rounds.map((r) => r[1] ?? 0));
const bagCost = median(rounds.map((r) => (r[0] ?? 0) - (r[1] ?? 0)));
const main = perPage(() => {
  for (const p of pages) fingerprint(p.text);
});
const exact = perPage(() => {
  for (const [i, j] of checks)
    similarities(
      shingleBag(/** @type {any} */ (pages[i]).text),
      shingleBag(/** @type {any} */ (pages[j]).text),
    );
});
console.log(
  `${pages.length} pages (~${Math.round(pages.reduce((s, p) => s + p.bytes.length, 0) / pages.length / 1024)} KB, main text ~${Math.round(pages.reduce((s, p) => s + p.text.length, 0) / pages.length)} characters)`,
);
console.log(
  `candidates found by band keys: ${(candidates / pages.length).toFixed(2)} per page; past the estimates (exact checks): ${checks.length} (${(checks.length / pages.length).toFixed(3)} per page)`,
);
console.log(
  `CPU per page: whole-body signature ${body.toFixed(3)} ms (of the set, as before the bag: ${bodySet.toFixed(3)}, paired difference ${bagCost.toFixed(3)}; for scale, the main text's fingerprint ${main.toFixed(3)} ms); exact checks ${exact.toFixed(4)} ms`,
);
console.log(`added by issue 43 in the crawler, in process: ${(body + exact).toFixed(3)} ms per page`);

const baseAt = process.argv.indexOf('--base');
if (baseAt >= 0) {
  const baseDir = resolve(process.argv[baseAt + 1] ?? '.');
  /** @type {typeof import('../../src/fingerprint/fingerprint.js')} */
  const baseFp = await import(`${baseDir}/dist/fingerprint/fingerprint.js`);
  /** @type {typeof import('../../src/fingerprint/body.js')} */
  const baseBody = await import(`${baseDir}/dist/fingerprint/body.js`);
  const { urlTokens } = await dist('fingerprint/fingerprint.js');
  const urls = pages.map((_, i) => `http://host${i % hosts}.test/p/${Math.floor(i / hosts)}.html`);
  /** CPU ms per page of one pass of `f` over all pages. @param {(p: typeof pages[number], url: string, i: number) => unknown} f */
  const pass = (f) => {
    const t = process.cpuUsage();
    for (const [i, p] of pages.entries()) f(p, /** @type {string} */ (urls[i]), i);
    const u = process.cpuUsage(t);
    return (u.user + u.system) / 1000 / pages.length;
  };
  /** @type {Record<string, (p: typeof pages[number], url: string, i: number) => unknown>} */
  const steps = {
    'main text (this build)': (p, url) => fingerprint(p.text, undefined, urlTokens(url)),
    'main text (base)': (p, url) => baseFp.fingerprint(p.text, undefined, baseFp.urlTokens(url)),
    'body (this build)': (p) => bodyFingerprint(p.bytes),
    'body (base)': (p) => baseBody.bodyFingerprint(p.bytes),
  };
  /** @type {Record<string, number[]>} */
  const times = {};
  for (const f of Object.values(steps)) pass(f);
  for (let r = 0; r < 15; r++) {
    const names = Object.keys(steps);
    // A, B, B, A: the order alternates so that a slow spell hits both builds.
    const order = r % 2 === 0 ? names : names.map((_, i) => names[i ^ 1]);
    for (const name of order) {
      const n = /** @type {string} */ (name);
      const t = times[n] ?? [];
      t.push(pass(/** @type {any} */ (steps[n])));
      times[n] = t;
    }
  }
  const pairedMedian = (/** @type {string} */ a, /** @type {string} */ b) =>
    median((times[a] ?? []).map((x, i) => x - (times[b]?.[i] ?? 0)));
  for (const part of ['main text', 'body'])
    console.log(
      `${part}: this build ${median(times[`${part} (this build)`] ?? []).toFixed(4)} ms, base ${median(times[`${part} (base)`] ?? []).toFixed(4)} ms a page; paired difference ${pairedMedian(`${part} (this build)`, `${part} (base)`).toFixed(4)} ms (15 rounds)`,
    );
}
