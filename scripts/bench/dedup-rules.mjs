// @ts-check
// Counts, for each candidate rule of a `duplicate` verdict, what dedup-readings.mjs's lines give:
// precision on the pool (verdicts, how many with main-text J < 0.85 in the set and in the bag
// reading, how many with page-text J < 0.8, set and bag) and recall on the 1% and 2% copies.
//
//   node scripts/bench/dedup-rules.mjs lines.jsonl
import { readFileSync } from 'node:fs';

const lines = readFileSync(process.argv[2] ?? '/dev/stdin', 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l));

/** @typedef {{ kind: string, corpus: string, key: boolean, near: boolean, mainBag: number, mainSet: number, ta: number, tb: number, ba: number, bb: number, mainLen: number, bodyLen: number, estSet: number, estBag: number, bodyBag: number, bodySet: number, pageBag: number, pageSet: number }} L */
/** A body whose main text is nearly all of it: the exact main-text check measured the body. */
const covered = (/** @type {L} */ l, /** @type {number} */ c) => l.ta >= c * l.ba && l.tb >= c * l.bb;
/** @type {Record<string, (l: L) => boolean>} */
const rules = {
  'set >= .85, body est(set) >= .84 (today)': (l) => l.mainSet >= 0.85 && l.estSet >= 0.84,
  'bag >= .85, body est(set) >= .84': (l) => l.mainBag >= 0.85 && l.estSet >= 0.84,
  'bag >= .85, body est(bag) >= .84': (l) => l.mainBag >= 0.85 && l.estBag >= 0.84,
  'bag >= .85 & set >= .80, body est(bag) >= .84': (l) =>
    l.mainBag >= 0.85 && l.mainSet >= 0.8 && l.estBag >= 0.84,
  'bag >= .85 & set >= .75, body est(bag) >= .84': (l) =>
    l.mainBag >= 0.85 && l.mainSet >= 0.75 && l.estBag >= 0.84,
  'bag >= .85 & set >= .80, body est(bag) >= .84 or covered .97': (l) =>
    l.mainBag >= 0.85 && l.mainSet >= 0.8 && (l.estBag >= 0.84 || covered(l, 0.97)),
  'bag >= .85 & set >= .80, body est(bag) >= .84 or covered .95': (l) =>
    l.mainBag >= 0.85 && l.mainSet >= 0.8 && (l.estBag >= 0.84 || covered(l, 0.95)),
  'bag >= .85, body est(bag) >= .84 or covered .97': (l) =>
    l.mainBag >= 0.85 && (l.estBag >= 0.84 || covered(l, 0.97)),
  'bag >= .85 & set >= .80, body est(set) >= .84': (l) =>
    l.mainBag >= 0.85 && l.mainSet >= 0.8 && l.estSet >= 0.84,
  'bag >= .85 & set >= .80, body est(set) >= .84 or covered .97': (l) =>
    l.mainBag >= 0.85 && l.mainSet >= 0.8 && (l.estSet >= 0.84 || covered(l, 0.97)),
  'bag >= .85 & set >= .80, body est(set) >= .84 or covered .95': (l) =>
    l.mainBag >= 0.85 && l.mainSet >= 0.8 && (l.estSet >= 0.84 || covered(l, 0.95)),
  'bag >= .85 & set >= .75, body est(set) >= .84 or covered .97 & set >= .8': (l) =>
    l.mainBag >= 0.85 && l.mainSet >= 0.75 && (l.estSet >= 0.84 || (covered(l, 0.97) && l.mainSet >= 0.8)),
  'bag >= .85, body est(set) >= .84 or covered .97 & set >= .8': (l) =>
    l.mainBag >= 0.85 && (l.estSet >= 0.84 || (covered(l, 0.97) && l.mainSet >= 0.8)),
  'bag >= .85, body est(set) >= .84 or covered .97 & set >= .82': (l) =>
    l.mainBag >= 0.85 && (l.estSet >= 0.84 || (covered(l, 0.97) && l.mainSet >= 0.82)),
};
const base = (/** @type {L} */ l) => l.key && l.near && l.mainLen >= 0.9 && l.bodyLen >= 0.9;
const kinds = [...new Set(lines.map((l) => l.kind))].filter((k) => k !== 'pool');
for (const [name, rule] of Object.entries(rules)) {
  const dup = lines.filter((l) => l.kind === 'pool' && base(l) && rule(l));
  const n = (/** @type {(l: L) => boolean} */ f) => dup.filter(f).length;
  const low = (/** @type {'mainSet' | 'mainBag'} */ k) => Math.min(...dup.map((l) => l[k])).toFixed(3);
  const rec = kinds
    .map((k) => {
      const all = lines.filter((l) => l.kind === k);
      const hit = all.filter((l) => base(l) && rule(l)).length;
      return `${k} ${hit}/${all.length} = ${((100 * hit) / all.length).toFixed(1)}%`;
    })
    .join(', ');
  console.log(
    `${name}\n  pool: ${dup.length} duplicates; main J < .85 set ${n((l) => l.mainSet < 0.85)} (lowest ${low('mainSet')}), bag ${n((l) => l.mainBag < 0.85)} (lowest ${low('mainBag')}); page J < .8 set ${n((l) => l.pageSet < 0.8)}, bag ${n((l) => l.pageBag < 0.8)}\n  recall: ${rec}`,
  );
}
