// @ts-check
// The scoring of github.com/scrapinghub/article-extraction-benchmark (its evaluate.py), in JS: the
// text is cut into tokens (Python's `\w+` with re.UNICODE: letters, digits, underscore), the
// tokens into 4-gram shingles; per page tp/fp/fn are the shingle multiset's overlap, normalised by
// their sum (so a long page weighs as much as a short one); precision is the mean over the pages
// with tp + fp > 0, recall over those with tp + fn > 0, F1 their harmonic mean (not a mean of
// per-page F1s). A page whose text and truth are equal token for token counts for "accuracy".

/** Python's `\w` on str: Unicode letters (L*), numbers (N*: Nd, Nl, No) and the underscore. */
const TOKEN = /[\p{L}\p{N}_]+/gu;

/** @param {string | undefined} text @returns {string[]} */
export function tokenize(text) {
  return (text ?? '').match(TOKEN) ?? [];
}

/**
 * evaluate.py's `_ngrams` counted: with fewer than n tokens, one shingle of all of them (none when
 * there is no token). A shingle's tokens are joined by a space, which no token holds.
 * @param {string | undefined} text
 * @param {number} n
 * @returns {Map<string, number>}
 */
function shingles(text, n) {
  const tokens = tokenize(text);
  /** @type {Map<string, number>} */
  const out = new Map();
  for (let i = 0; i < Math.max(1, tokens.length - n + 1); i++) {
    const s = tokens.slice(i, i + n);
    if (s.length === 0) continue;
    const key = s.join(' ');
    out.set(key, (out.get(key) ?? 0) + 1);
  }
  return out;
}

/**
 * evaluate.py's `string_shingle_matching`: [tp, fp, fn] of one page, normalised to sum 1.
 * @param {string | undefined} truth
 * @param {string | undefined} pred
 * @returns {[number, number, number]}
 */
export function shingleMatching(truth, pred, n = 4) {
  const t = shingles(truth, n);
  const p = shingles(pred, n);
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const key of new Set([...t.keys(), ...p.keys()])) {
    const tc = t.get(key) ?? 0;
    const pc = p.get(key) ?? 0;
    tp += Math.min(tc, pc);
    fp += Math.max(0, pc - tc);
    fn += Math.max(0, tc - pc);
  }
  const s = tp + fp + fn;
  return s > 0 ? [tp / s, fp / s, fn / s] : [tp, fp, fn];
}

/** @param {number} tp @param {number} fp @param {number} fn */
export function precisionScore(tp, fp, fn) {
  if (fp === 0 && fn === 0) return 1;
  if (tp === 0 && fp === 0) return 0;
  return tp / (tp + fp);
}

/** @param {number} tp @param {number} fp @param {number} fn */
export function recallScore(tp, fp, fn) {
  if (fp === 0 && fn === 0) return 1;
  if (tp === 0 && fn === 0) return 0;
  return tp / (tp + fn);
}

/** @param {number[]} xs */
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;

/**
 * evaluate.py's `evaluate` without the bootstrap: every page of `truth` (a missing prediction is an
 * empty text).
 * @param {Record<string, { articleBody?: string }>} truth
 * @param {Record<string, { articleBody?: string } | undefined>} pred
 */
export function evaluate(truth, pred) {
  /** @type {{ key: string, tp: number, fp: number, fn: number, precision: number, recall: number }[]} */
  const pages = [];
  let exact = 0;
  for (const [key, item] of Object.entries(truth)) {
    const text = pred[key]?.articleBody ?? '';
    const [tp, fp, fn] = shingleMatching(item.articleBody ?? '', text);
    pages.push({ key, tp, fp, fn, precision: precisionScore(tp, fp, fn), recall: recallScore(tp, fp, fn) });
    if (tokenize(item.articleBody).join(' ') === tokenize(text).join(' ')) exact++;
  }
  const precision = mean(pages.filter((p) => p.tp + p.fp > 0).map((p) => p.precision));
  const recall = mean(pages.filter((p) => p.tp + p.fn > 0).map((p) => p.recall));
  return {
    f1: (2 * precision * recall) / (precision + recall),
    precision,
    recall,
    accuracy: exact / pages.length,
    pages,
  };
}
