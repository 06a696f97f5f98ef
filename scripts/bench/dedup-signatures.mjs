// @ts-check
// The near-duplicate signatures of real pages, written to a file and compared with an earlier one:
// the check that a change to src/fingerprint that should only make it cheaper leaves every value as
// it was (issue 43 point 4), so verdicts and stored documents' signatures compare as before. Per
// page: the main text's fingerprint (simhash or exact signature, token count, URL-blind hash with
// the words of a URL made from the file's path, MinHash), its lookup keys, its shingle bag, the
// whole body's signature (bag and set) and token count, and the whole-page text's fingerprint.
//
//   DEDUP_DOC_ROOT=/tmp/debdoc/root node scripts/bench/dedup-signatures.mjs --trafilatura DIR
//     --per 250 --out /tmp/signatures-before.jsonl [--compare /tmp/signatures-before.jsonl]
// (after `npm run build`; --per: the first pages of each corpus of dedup-corpora.mjs)

import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { corpora, corpusFiles, mainText, pageText } from './dedup-corpora.mjs';
import { dist } from './dist.mjs';
import { numberOption } from './proc.mjs';

const { fingerprint, shingleBag, urlTokens } = await dist('fingerprint/fingerprint.js');
const { bodyFingerprint } = await dist('fingerprint/body.js');
const { lookupKeys, memoryKeys } = await dist('dedup/keys.js');

const per = numberOption('per', 250);
const arg = (/** @type {string} */ name) => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
};
const out = arg('--out');
const compare = arg('--compare');

const digest = (/** @type {Int32Array} */ a) =>
  createHash('sha256')
    .update(Buffer.from(a.buffer, a.byteOffset, a.byteLength))
    .digest('hex')
    .slice(0, 16);

/** @type {string[]} */
const lines = [];
for (const c of corpora) {
  for (const file of corpusFiles(c, per)) {
    const bytes = readFileSync(file);
    const url = `https://docs.example/${relative(c.dir, file)}?print=1&sort=name`;
    const text = mainText(bytes);
    const fp = fingerprint(text, undefined, urlTokens(url));
    const row = {
      page: `${c.name}/${relative(c.dir, file)}`,
      fp,
      keys: lookupKeys(fp),
      memory: memoryKeys(fp),
      bag: digest(shingleBag(text)),
      body: bodyFingerprint(bytes),
      bodySet: bodyFingerprint(bytes, false),
      whole: fingerprint(pageText(bytes)),
    };
    lines.push(JSON.stringify(row));
  }
}
if (out) writeFileSync(out, `${lines.join('\n')}\n`);
console.log(
  `${lines.length} pages, all signatures' sha256 ${createHash('sha256').update(lines.join('\n')).digest('hex')}`,
);
if (compare) {
  const before = readFileSync(compare, 'utf8').trimEnd().split('\n');
  let differ = 0;
  for (let i = 0; i < Math.max(before.length, lines.length); i++) {
    if (before[i] === lines[i]) continue;
    if (differ++ < 5) console.log(`differs: ${(lines[i] ?? before[i] ?? '').slice(0, 120)}`);
  }
  console.log(
    differ === 0
      ? `identical to ${compare} (${before.length} pages)`
      : `${differ} of ${before.length} pages differ from ${compare}`,
  );
  if (differ > 0) process.exitCode = 1;
}
