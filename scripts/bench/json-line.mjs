// @ts-check
// What a content document costs on its way to OpenSearch, in process: the bench web's pages parsed
// as a crawl parses them (defaults: main text and Markdown; and whole-page text without Markdown),
// their content documents (contentDocument, as the indexer writes them), then the `_bulk` body the
// bulk writer sends: before, each line `JSON.stringify`d, the lines joined into one string that the
// OpenSearch client measures (Buffer.byteLength) and Node encodes as it writes; now each line
// written by documentJson (json-line.ts) and encoded once as it is added, the body put together
// from those bytes. CPU time per page, median of rounds; the outputs are checked byte for byte.
//
//   npm run build && node scripts/bench/json-line.mjs [--profile small|large] [--rounds 5]
//
// No assertion: numbers are for reading. The end-to-end figure is features.mjs's (a crawl).

import { parseArgs } from 'node:util';
import { dist } from './dist.mjs';
import { benchParseConfig } from './text-parser.mjs';
import { createWeb } from './web.mjs';

const { values } = parseArgs({
  options: { profile: { type: 'string', default: 'small' }, rounds: { type: 'string', default: '5' } },
});
const profile = /** @type {'small' | 'large'} */ (values.profile);
const { createPageParser } = await dist('parse/index.js');
const { Metadata } = await dist('model/metadata.js');
const { systemClock } = await dist('util/clock.js');
const { contentDocument, parseMapping } = await dist('opensearch/content-doc.js');
const { documentJson } = await dist('opensearch/json-line.js');
const { loadConfig } = await dist('config/load.js');
const { indexerOptions } = await dist('app/options.js');

const pages = 100;
const web = createWeb({ profile, hosts: 1, pages });
const md = Metadata.of({ 'protocol.content-type': 'text/html; charset=utf-8', depth: '1' });
const config = benchParseConfig(true);
// The content documents as a crawl with the default configuration writes them.
const options = indexerOptions(loadConfig({ env: {} }).config);
const mapping = parseMapping(options.mdMapping);
const variants = {
  defaults: {},
  'whole-page text, no Markdown': { 'textextractor.whole.page': true, 'textextractor.markdown': false },
};
/** @type {Record<string, { id: string, doc: Record<string, unknown> }[]>} */
const docs = {};
for (const [name, extra] of Object.entries(variants)) {
  const parser = createPageParser(
    { ...config, ...extra },
    { filter: { filter: (_s, _m, t) => t }, clock: systemClock },
  );
  docs[name] = [];
  for (let i = 0; i < pages; i++) {
    const url = `http://h0.example/p/${i}.html`;
    const r =
      /** @type {{ text: string, markdown?: string, metadata: import('../../src/model/metadata.js').Metadata }} */ (
        /** @type {unknown} */ (parser.parse({ url, metadata: md, content: web.body(0, i) }))
      );
    docs[name]?.push(
      contentDocument(
        { url, metadata: r.metadata, text: r.text, markdown: r.markdown },
        options,
        mapping,
        Date.now(),
      ),
    );
  }
}
const head = (/** @type {string} */ id) => JSON.stringify({ index: { _index: 'content', _id: id } });
const NEWLINE = Buffer.from('\n');
/** @param {{ id: string, doc: Record<string, unknown> }[]} batch */
const before = (batch) => {
  const lines = batch.map(({ id, doc }) => {
    let line = head(id);
    line += `\n${JSON.stringify(doc)}`;
    return line;
  });
  const body = `${lines.join('\n')}\n`;
  Buffer.byteLength(body);
  return Buffer.from(body);
};
/** @param {{ id: string, doc: Record<string, unknown> }[]} batch */
const after = (batch) => {
  /** @type {Buffer[]} */
  const parts = [];
  for (const { id, doc } of batch) parts.push(Buffer.from(`${head(id)}\n${documentJson(doc)}`), NEWLINE);
  return Buffer.concat(parts);
};
for (const batch of Object.values(docs))
  if (!before(batch).equals(after(batch))) throw new Error('the two bodies differ');

/** CPU-us per page. @param {(b: { id: string, doc: Record<string, unknown> }[]) => Buffer} f @param {{ id: string, doc: Record<string, unknown> }[]} batch */
const time = (f, batch) => {
  const t0 = process.cpuUsage();
  const reps = 50;
  for (let r = 0; r < reps; r++) f(batch);
  const t = process.cpuUsage(t0);
  return (t.user + t.system) / (reps * batch.length);
};
const median = (/** @type {number[]} */ a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)] ?? 0;
for (const [name, batch] of Object.entries(docs)) {
  /** @type {{ before: number[], after: number[] }} */
  const got = { before: [], after: [] };
  for (let r = 0; r < Number(values.rounds) + 1; r++) {
    const b = time(before, batch);
    const a = time(after, batch);
    if (r === 0) continue; // warm-up
    got.before.push(b);
    got.after.push(a);
  }
  const bytes = after(batch).length / batch.length;
  console.log(
    `${profile} ${name}: ${bytes.toFixed(0)} bytes a document; JSON.stringify, join, encode ${median(got.before).toFixed(1)} us/page; documentJson, encoded lines ${median(got.after).toFixed(1)} us/page`,
  );
}
