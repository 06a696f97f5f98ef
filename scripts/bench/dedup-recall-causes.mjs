// @ts-check
// Why a copy with 1% or 2% of its words replaced is not called `duplicate` (issue 43): the same copies
// as dedup-quality.mjs's recall (main texts, and whole pages edited in the HTML), on every EVERY'th
// page (default 3), each miss put down to the first rule it fails: no shared band key, the exact
// main-text Jaccard under 0.85 (the bag's; then the set's under 0.82), main or body lengths 10%
// apart, the exact whole-body Jaccard (bag) under 0.85, else the body signature's estimate. Prints counts and the body misses' figures.
//
//   npm run build && EVERY=3 DEDUP_DOC_ROOT=... node scripts/bench/dedup-recall-causes.mjs --trafilatura DIR
// (NOTEXTS=1: the whole pages only; NOPAGES=1: the main texts only)
import { readFileSync } from 'node:fs';
import {
  corpora,
  corpusFiles,
  editedPage,
  editedText,
  editStats,
  mainText,
  pageHtml,
} from './dedup-corpora.mjs';
import { crawlFingerprint, verdict } from './dedup-quality.mjs';
import { dist } from './dist.mjs';
import { rng } from './web.mjs';

const { shingleHashes, shingleBag, MIN_DEDUP_TOKENS, lengthRatio, tokenise } = await dist(
  'fingerprint/fingerprint.js',
);
const { similarities } = await dist('fingerprint/jaccard.js');
const { SET_MARGIN, DUPLICATE_SIMILARITY } = await dist('dedup/decide.js');
const { bodyText } = await dist('fingerprint/body.js');
const { bandKeys } = await dist('fingerprint/minhash.js');
const { bodySimilarity } = await dist('fingerprint/body-minhash.js');
const EVERY = Number(process.env.EVERY ?? 3);
const pages = [];
for (const c of corpora)
  for (const [fi, path] of corpusFiles(c, 0).entries()) {
    if (fi % EVERY !== 0) continue;
    const bytes = readFileSync(path);
    const text = mainText(bytes);
    const fp = crawlFingerprint(text, bytes);
    if (fp.tokens < MIN_DEDUP_TOKENS) continue;
    pages.push({ corpus: c.name, path, text, fp });
  }
const r = rng(32);
const allWords = pages
  .flatMap((p, i) => (i % 7 === 0 ? p.text.split(/\s+/).slice(0, 200) : []))
  .filter((w) => /^\p{L}{3,}$/u.test(w));
const word = () => allWords[Math.floor(r() * allWords.length)] ?? 'word';
const sample = pages.filter((p) => p.fp.tokens >= 80 && p.fp.minhash);
/** @type {Map<string, number>} */
const cls = new Map();
const add = (/** @type {string} */ k) => cls.set(k, (cls.get(k) ?? 0) + 1);
/** @type {string[]} */
const bodyErr = [];
/** @type {string[]} each whole-page miss of today's copy model, with its figures */
const pageMiss = [];
/** @param {string} kind @param {string} a @param {string} b @param {string} [bodyA] @param {string} [bodyB] @param {string} [where] */
function judge(kind, a, b, bodyA, bodyB, where) {
  /** @type {{ fp: any, text: string, url: string }} */
  const pa = { fp: crawlFingerprint(a, bodyA), text: a, url: 'http://a/' };
  /** @type {{ fp: any, text: string, url: string }} */
  const pb = { fp: crawlFingerprint(b, bodyB), text: b, url: 'http://b/' };
  if (!pa.fp.minhash || !pb.fp.minhash) {
    add(`${kind} nominhash`);
    return;
  }
  const ka = new Set(bandKeys(pa.fp.minhash));
  const shares = bandKeys(pb.fp.minhash).some((k) => ka.has(k));
  const d = shares ? verdict(pa, pb).kind : 'nokey';
  add(`${kind} n`);
  if (d === 'duplicate') {
    add(`${kind} dup`);
    return;
  }
  // The main texts in both readings (the bag decides, the set may be SET_MARGIN under), the body's
  // exact bag (what its signature estimates).
  const m = similarities(shingleBag(a), shingleBag(b));
  const mj = m.bag;
  const bt = [bodyText(bodyA ?? `<body>${a}</body>`), bodyText(bodyB ?? `<body>${b}</body>`)];
  const bj = similarities(shingleBag(bt[0] ?? ''), shingleBag(bt[1] ?? '')).bag;
  const best = bodySimilarity(pa.fp.body.minhash, pb.fp.body.minhash);
  const why =
    d === 'nokey'
      ? 'nokey'
      : mj < DUPLICATE_SIMILARITY
        ? 'main<0.85'
        : m.set < DUPLICATE_SIMILARITY - SET_MARGIN
          ? 'mainSet<0.82'
          : lengthRatio(pa.fp.tokens, pb.fp.tokens) < 0.9
            ? 'mainlen'
            : lengthRatio(pa.fp.body.tokens, pb.fp.body.tokens) < 0.9
              ? 'bodylen'
              : bj < 0.85
                ? 'bodyExact<0.85'
                : best < 0.84
                  ? 'bodyEstimate'
                  : 'other';
  add(`${kind} miss ${why}`);
  if (where)
    pageMiss.push(
      `${kind} ${where}: ${why}; main ${pa.fp.tokens} tokens, ${changed(a, b)} changed; main bag ${mj.toFixed(3)} set ${m.set.toFixed(3)}; body ${pa.fp.body.tokens} tokens, bag ${bj.toFixed(3)}, estimate ${best.toFixed(3)}`,
    );
  if (why === 'main<0.85' || why === 'mainSet<0.82') add(`${kind} miss ${why}: ${tokenChange(a, b)}`);
  if (why === 'bodyEstimate' || why === 'bodyExact<0.85')
    bodyErr.push(
      `${kind} ${why} mj=${mj.toFixed(3)} bj=${bj.toFixed(3)} est=${best.toFixed(3)} tok=${pa.fp.tokens} btok=${pa.fp.body.tokens}`,
    );
}
/** The share of the copy's main-text tokens that differ, position by position. @param {string} a @param {string} b */
function changed(a, b) {
  const ta = tokenise(a);
  const tb = tokenise(b);
  if (ta.length !== tb.length) return `${ta.length} -> ${tb.length} tokens`;
  let d = 0;
  for (let i = 0; i < ta.length; i++) if (ta[i] !== tb[i]) d++;
  return `${d} (${((100 * d) / ta.length).toFixed(1)}%)`;
}
/**
 * Why a copy's main text lost so many shingles: the share of its tokens that differ from the
 * original's, position by position (an edit keeps the count of tokens; a count that moved means
 * the extractor took other text from the copy).
 * @param {string} a @param {string} b
 */
function tokenChange(a, b) {
  const ta = tokenise(a);
  const tb = tokenise(b);
  if (ta.length !== tb.length) return `extractor took other text (${ta.length} -> ${tb.length} tokens)`;
  let d = 0;
  for (let i = 0; i < ta.length; i++) if (ta[i] !== tb[i]) d++;
  const share = (100 * d) / ta.length;
  if (share > 2.5) return 'more than 2.5% of its tokens changed';
  // At most 2.5% changed and still under 0.85: a text whose 3-shingles repeat (a table, code, a
  // list) has fewer distinct ones than tokens, so each changed token weighs more in the set.
  const distinctShare = shingleHashes(a).length / Math.max(1, ta.length - 2);
  return distinctShare < 0.97
    ? 'at most 2.5% changed, shingles repeat (under 97% distinct)'
    : `at most 2.5% changed, shingles distinct (n=${ta.length}, ${d} changed)`;
}
// Two copy models each: the bench's before 2026-12-06 (`-drawn`: space-separated pieces replaced,
// drawn with replacement; whole pages: words drawn over the whole page) and today's (exactly
// round(pct% of n) distinct tokens; whole pages: that share of the main text and of the rest).
for (const pct of process.env.NOTEXTS ? [] : [1, 2])
  for (const p of sample) {
    const w = p.text.split(' ');
    const n = Math.max(1, Math.round((w.length * pct) / 100));
    for (let i = 0; i < n; i++) w[Math.floor(r() * w.length)] = word();
    judge(`text${pct}-drawn`, p.text, w.join(' '));
    judge(`text${pct}`, p.text, editedText(p.text, pct, r, word));
  }
const rp = rng(43);
if (!process.env.NOPAGES)
  for (const pct of [1, 2])
    for (const p of sample) {
      const html = pageHtml(readFileSync(p.path));
      const text = mainText(html);
      const drawn = editedPage(html, pct, rp, word);
      judge(`page${pct}-drawn`, text, mainText(drawn), html, drawn);
      const copy = editedPage(html, pct, rp, word, text);
      judge(
        `page${pct}`,
        text,
        mainText(copy),
        html,
        copy,
        `${p.corpus} ${p.path.split('/').slice(-2).join('/')}`,
      );
    }
console.log(
  [...cls]
    .sort()
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n'),
);
console.log(bodyErr.slice(0, 30).join('\n'));
console.log(pageMiss.join('\n'));
console.log(
  `whole-page copies with the main text's share checked: ${editStats.copies}, drawn again ${editStats.redrawn}, left inexact ${editStats.inexact}`,
);
