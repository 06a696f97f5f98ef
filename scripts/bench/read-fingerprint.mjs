// @ts-check
// What reading a page's fingerprint from its metadata costs (`readFingerprint`, twice a page: the judge and the
// indexer), with the hex signatures validated by the regular expression it uses now against a copy of
// the charCodeAt loop it used before (issue 43 point 4): CPU time, 9 alternated rounds of 200,000 calls
// over 500 pages' metadata.   node scripts/bench/read-fingerprint.mjs   (after `npm run build`)

import { dist } from './dist.mjs';

const { bodyFingerprint } = await dist('fingerprint/body.js');
const { fingerprint } = await dist('fingerprint/fingerprint.js');
const { readFingerprint } = await dist('fingerprint/page.js');
const { MD } = await dist('model/keys.js');
const { Metadata } = await dist('model/metadata.js');
/** @typedef {import('../../src/model/metadata.js').Metadata} Metadata */

const words =
  'the crawler reads pages and writes their status to the index every few seconds while hosts wait'.split(
    ' ',
  );
/** @type {Metadata[]} */
const mds = [];
for (let k = 0; k < 500; k++) {
  const t = Array.from(
    { length: 900 },
    (_, i) => `${words[(i * 7 + k * 13 + (i >> 3)) % words.length]}${i % 17 === k % 17 ? k : ''}`,
  ).join(' ');
  const f = fingerprint(t);
  const b = bodyFingerprint(Buffer.from(`<body><p>${t}</p></body>`));
  mds.push(
    Metadata.of({
      [MD.simhash]: f.hash,
      [MD.simhashTokens]: String(f.tokens),
      [MD.minhash]: /** @type {{ minhash?: string }} */ (f).minhash ?? '',
      [MD.bodyMinhash]: b.minhash ?? '',
      [MD.bodyTokens]: String(b.tokens),
    }),
  );
}
const hd = (/** @type {number} */ c) => (c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : -1);
const loopHex = (/** @type {string | undefined} */ s, /** @type {number} */ l) => {
  if (s === undefined || s.length !== l) return false;
  for (let i = 0; i < s.length; i++) if (hd(s.charCodeAt(i)) < 0) return false;
  return true;
};
/** @param {Metadata} md */
function oldRead(md) {
  const simhash = md.getFirstValue(MD.simhash);
  const hash = simhash ?? md.getFirstValue(MD.simhashExact);
  if (hash === undefined) return undefined;
  const tokens = Number(md.getFirstValue(MD.simhashTokens) ?? 0);
  const minhash = md.getFirstValue(MD.minhash);
  const bodyMinhash = md.getFirstValue(MD.bodyMinhash);
  const bodyTokens = Number(md.getFirstValue(MD.bodyTokens));
  const body =
    loopHex(bodyMinhash, 1024) && Number.isFinite(bodyTokens)
      ? { body: { minhash: bodyMinhash, tokens: bodyTokens } }
      : {};
  return {
    kind: simhash !== undefined ? 'simhash' : 'exact',
    hash,
    tokens,
    urlBlind: md.getFirstValue(MD.simhashUrlBlind) ?? hash,
    ...(simhash !== undefined && loopHex(minhash, 512) ? { minhash } : {}),
    ...body,
  };
}
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
/** @type {Record<string, number[]>} */
const res = { loop: [], regex: [] };
/** @type {[string, (md: Metadata) => { body?: unknown } | undefined][]} */
const forms = [
  ['loop', oldRead],
  ['regex', readFingerprint],
];
for (let r = 0; r < 9; r++)
  for (const [name, f] of r % 2 ? [...forms].reverse() : forms) {
    let ok = 0;
    const t = cpu();
    for (let i = 0; i < 200000; i++) if (f(/** @type {Metadata} */ (mds[i % 500]))?.body) ok++;
    // Both readings accept every signature: the same work, the same answer.
    if (ok !== 200000) throw new Error(`${name}: ${200000 - ok} fingerprints read without their body`);
    res[name]?.push(((cpu() - t) / 200000) * 1000);
  }
const med = (/** @type {number[]} */ a = []) => [...a].sort((x, y) => x - y)[a.length >> 1];
console.log(
  'readFingerprint, us of CPU a call (median of 9 rounds): loop',
  (med(res.loop) ?? Number.NaN).toFixed(2),
  'regex',
  (med(res.regex) ?? Number.NaN).toFixed(2),
);
