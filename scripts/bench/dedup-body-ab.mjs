// @ts-check
// Paired in-process A/B of the whole-body signature (issue 43's added crawler work on the cost
// bench's small web, 20 hosts x 250 pages): another build's (BASE, a dist/ folder, e.g. the build
// before a change) against this one's, and the main text's fingerprint for scale (what a loaded
// machine inflates alike); CPU time, the two alternated in each of 9 rounds.
//
//   npm run build && BASE=/path/to/other/dist node scripts/bench/dedup-body-ab.mjs
import { loadavg } from 'node:os';
import { mainText } from './dedup-corpora.mjs';
import { createWeb } from './web.mjs';

const base = process.env.BASE;
if (!base) throw new Error('BASE=<the dist folder of another build> is needed');
const oldB = await import(`${base}/fingerprint/body.js`);
const newB = await import(new URL('../../dist/fingerprint/body.js', import.meta.url).href);
const { fingerprint } = await import(new URL('../../dist/fingerprint/fingerprint.js', import.meta.url).href);
const web = createWeb({ profile: 'small', hosts: 20, pages: 250 });
const pages = [];
for (let h = 0; h < 20; h++) for (let i = 0; i < 250; i++) pages.push(web.body(h, i));
const texts = pages.map((b) => mainText(b));
/** @param {(x: any) => unknown} f @param {any[]} xs */
const time = (f, xs) => {
  const t = process.cpuUsage();
  for (const p of xs) f(p);
  const u = process.cpuUsage(t);
  return (u.user + u.system) / 1000 / xs.length;
};
time(oldB.bodyFingerprint, pages);
time(newB.bodyFingerprint, pages);
time(fingerprint, texts);
/** @type {number[]} */
const o = [];
/** @type {number[]} */
const n = [];
/** @type {number[]} */
const m = [];
const l0 = loadavg()[0];
for (let r = 0; r < 9; r++) {
  if (r % 2) {
    n.push(time(newB.bodyFingerprint, pages));
    o.push(time(oldB.bodyFingerprint, pages));
  } else {
    o.push(time(oldB.bodyFingerprint, pages));
    n.push(time(newB.bodyFingerprint, pages));
  }
  m.push(time(fingerprint, texts));
}
const med = (/** @type {number[]} */ a) => a.slice().sort((x, y) => x - y)[4] ?? Number.NaN;
const sp = (/** @type {number[]} */ a) => `${Math.min(...a).toFixed(3)}-${Math.max(...a).toFixed(3)}`;
console.log(
  `load ${(l0 ?? 0).toFixed(0)}-${(loadavg()[0] ?? 0).toFixed(0)}; per page CPU ms, median of 9 (spread): BASE's body signature ${med(o).toFixed(3)} (${sp(o)}), this one ${med(n).toFixed(3)} (${sp(n)}), main fingerprint ${med(m).toFixed(3)} (${sp(m)}); paired old-new ${o.map((x, i) => (x - (n[i] ?? 0)).toFixed(3)).join(' ')}`,
);
