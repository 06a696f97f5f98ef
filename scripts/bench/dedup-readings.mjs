// @ts-check
// The set and the bag (multiset) readings of the exact Jaccard, side by side (issue 43, finishing
// pass): for every candidate pair of the whole pool (as dedup-quality.mjs's precision: a shared band
// key and past the estimates) and for the recall copies with 1% and 2% of the words replaced (main
// texts and whole pages, as dedup-recall-causes.mjs makes them, every EVERY'th page), one JSON line
// with each figure a rule may use: main-text J (bag, set), token counts, whole-body J (exact, bag
// and set) and the body signature's estimates (of the set, and of the bag), and the truth the
// precision bars use: the page texts' J (set and bag). `dedup-rules.mjs` then counts verdicts and
// misses for each rule on these lines, in seconds.
//
//   npm run build && EVERY=6 DEDUP_DOC_ROOT=... node scripts/bench/dedup-readings.mjs --trafilatura DIR > lines.jsonl
import { readFileSync } from 'node:fs';
import {
  corpora,
  corpusFiles,
  editedPage,
  editedText,
  mainText,
  pageHtml,
  pageText,
} from './dedup-corpora.mjs';
import { crawlFingerprint } from './dedup-quality.mjs';
import { dist } from './dist.mjs';
import { rng } from './web.mjs';

const { shingleBag, MIN_DEDUP_TOKENS, lengthRatio } = await dist('fingerprint/fingerprint.js');
const { similarities } = await dist('fingerprint/jaccard.js');
const { bodyText, bodyFingerprint } = await dist('fingerprint/body.js');
const { bandKeys } = await dist('fingerprint/minhash.js');
const { bodySimilarity } = await dist('fingerprint/body-minhash.js');
const { nearness } = await dist('dedup/decide.js');
const EVERY = Number(process.env.EVERY ?? 6);

/** @typedef {{ corpus: string, path: string, text: string, fp: any, bag: string | undefined, i: number }} P */
/** @type {P[]} */
const pages = [];
for (const c of corpora)
  for (const path of corpusFiles(c, 0)) {
    const bytes = readFileSync(path);
    const text = mainText(bytes);
    const fp = crawlFingerprint(text, bytes);
    if (fp.tokens < MIN_DEDUP_TOKENS) continue;
    pages.push({
      corpus: c.name,
      path,
      text,
      fp,
      bag: bodyFingerprint(bytes, true).minhash,
      i: pages.length,
    });
  }
console.error(`${pages.length} pages`);

/**
 * @param {string} kind @param {string} corpus @param {string} a @param {string} b @param {any} fa
 * @param {any} fb @param {string | undefined} bagA @param {string | undefined} bagB @param {string} bodyA
 * @param {string} bodyB @param {string} [truthA] @param {string} [truthB] @param {string[]} [paths]
 */
function line(kind, corpus, a, b, fa, fb, bagA, bagB, bodyA, bodyB, truthA, truthB, paths) {
  const main = similarities(shingleBag(a), shingleBag(b));
  const body = similarities(shingleBag(bodyA), shingleBag(bodyB));
  const page =
    truthA !== undefined && truthB !== undefined
      ? similarities(shingleBag(truthA), shingleBag(truthB))
      : body;
  const keys = new Set(fa.minhash ? bandKeys(fa.minhash) : []);
  const out = {
    kind,
    corpus,
    key: fb.minhash ? bandKeys(fb.minhash).some((k) => keys.has(k)) : false,
    near: nearness(fa, fb) !== undefined,
    mainBag: main.bag,
    mainSet: main.set,
    ta: fa.tokens,
    tb: fb.tokens,
    ba: fa.body?.tokens ?? 0,
    bb: fb.body?.tokens ?? 0,
    mainLen: lengthRatio(fa.tokens, fb.tokens),
    bodyLen: fa.body && fb.body ? lengthRatio(fa.body.tokens, fb.body.tokens) : 0,
    estSet: fa.body && fb.body ? bodySimilarity(fa.body.minhash, fb.body.minhash) : 0,
    estBag: bagA && bagB ? bodySimilarity(bagA, bagB) : 0,
    bodyBag: body.bag,
    bodySet: body.set,
    pageBag: page.bag,
    pageSet: page.set,
    ...(paths ? { paths } : {}),
  };
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

if (!process.env.NOPRECISION) {
  /** @type {Map<string, number[]>} */
  const buckets = new Map();
  for (const p of pages)
    for (const k of p.fp.minhash ? bandKeys(p.fp.minhash) : []) {
      const l = buckets.get(k);
      if (l) l.push(p.i);
      else buckets.set(k, [p.i]);
    }
  /** @type {Set<string>} */
  const pairs = new Set();
  for (const l of buckets.values())
    for (let x = 0; x < l.length; x++) for (let y = x + 1; y < l.length; y++) pairs.add(`${l[x]},${l[y]}`);
  /** @type {Map<number, string>} */
  const texts = new Map();
  const pt = (/** @type {P} */ p) => {
    let t = texts.get(p.i);
    if (t === undefined) {
      t = pageText(readFileSync(p.path));
      texts.set(p.i, t);
    }
    return t;
  };
  for (const pair of pairs) {
    const [x, y] = pair.split(',').map(Number);
    const pa = /** @type {P} */ (pages[/** @type {number} */ (x)]);
    const pb = /** @type {P} */ (pages[/** @type {number} */ (y)]);
    if (pa.fp.kind !== 'simhash' || pb.fp.kind !== 'simhash' || nearness(pa.fp, pb.fp) === undefined)
      continue;
    const where = pa.corpus === pb.corpus ? pa.corpus : 'across corpora';
    line('pool', where, pa.text, pb.text, pa.fp, pb.fp, pa.bag, pb.bag, pt(pa), pt(pb), pt(pa), pt(pb), [
      pa.path,
      pb.path,
    ]);
  }
}

const r = rng(32);
const allWords = pages
  .flatMap((p, i) => (i % 7 === 0 ? p.text.split(/\s+/).slice(0, 200) : []))
  .filter((w) => /^\p{L}{3,}$/u.test(w));
const word = () => allWords[Math.floor(r() * allWords.length)] ?? 'word';
const sample = pages.filter((p, i) => i % EVERY === 0 && p.fp.tokens >= 80 && p.fp.minhash);
for (const pct of process.env.NORECALL ? [] : [1, 2])
  for (const p of sample) {
    const b = editedText(p.text, pct, r, word);
    const [ha, hb] = [`<body>${p.text}</body>`, `<body>${b}</body>`];
    const fb = crawlFingerprint(b, hb);
    const fa = crawlFingerprint(p.text, ha);
    line(
      `text${pct}`,
      p.corpus,
      p.text,
      b,
      fa,
      fb,
      bodyFingerprint(ha, true).minhash,
      bodyFingerprint(hb, true).minhash,
      bodyText(ha),
      bodyText(hb),
    );
  }
const rp = rng(43);
for (const pct of process.env.NORECALL ? [] : [1, 2])
  for (const p of sample) {
    const html = pageHtml(readFileSync(p.path));
    const text = mainText(html);
    const copy = editedPage(html, pct, rp, word, text);
    const tb = mainText(copy);
    line(
      `page${pct}`,
      p.corpus,
      text,
      tb,
      crawlFingerprint(text, html),
      crawlFingerprint(tb, copy),
      bodyFingerprint(html, true).minhash,
      bodyFingerprint(copy, true).minhash,
      bodyText(html),
      bodyText(copy),
    );
  }
