// @ts-check
// Whether a change to the HTML pass keeps its outputs byte for byte (issue 42 point 8: cost cuts must
// not change what is stored). Parses real pages with the built crawler's defaults and hashes each
// page's stored text and Markdown (and its metadata and outlinks); `--save` writes the hashes,
// `--check` compares against a saved file and lists the pages that differ (exit 1 if any).
//
//   node scripts/bench/content-hashes.mjs --save /tmp/before.json     (on the build before the change)
//   node scripts/bench/content-hashes.mjs --check /tmp/before.json    (on the build after it)
//
// `--set key=value` (repeatable, value read as JSON when it parses) changes a parse setting from the
// defaults, for paths the defaults never take: `--set textextractor.skip.after=500` (outputs cut),
// `--set textextractor.markdown=false` (text alone).
//
// Pages (each set skipped with a note when its folder is absent): the bench web's small and large
// profiles (240 pages each), trafilatura's evaluation set (TRAFILATURA_TESTS), Readability's test pages
// (READABILITY_PAGES), WCXB dev and test (WCXB), the article benchmark (ARTICLES_BENCH), one Debian
// documentation page in `--docs-every` (DEDUP_DOC_ROOT, default 30). Defaults are this machine's paths.

import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { dist } from './dist.mjs';
import { benchParser } from './text-parser.mjs';
import { createWeb } from './web.mjs';

const { values } = parseArgs({
  options: {
    save: { type: 'string' },
    check: { type: 'string' },
    'docs-every': { type: 'string', default: '30' },
    set: { type: 'string', multiple: true, default: [] },
  },
});
const env = (/** @type {string} */ k, /** @type {string} */ d) => process.env[k] ?? d;

const { Metadata } = await dist('model/metadata.js');
/** @type {Record<string, unknown>} */
const sets = {};
for (const kv of values.set ?? []) {
  const at = kv.indexOf('=');
  if (at < 1) throw new Error(`--set ${kv}: write key=value (e.g. --set textextractor.skip.after=500)`);
  const raw = kv.slice(at + 1);
  try {
    sets[kv.slice(0, at)] = JSON.parse(raw);
  } catch {
    sets[kv.slice(0, at)] = raw;
  }
}
const parser = await benchParser(sets);

/** @type {Array<{ id: string, url: string, html: () => Buffer }>} */
const pages = [];
for (const profile of /** @type {const} */ (['small', 'large'])) {
  const web = createWeb({ profile, hosts: 4, pages: 60 });
  for (let h = 0; h < 4; h++)
    for (let i = 0; i < 60; i++)
      pages.push({
        id: `web-${profile}/${h}/${i}`,
        url: `http://h${h}.example/p/${i}`,
        html: () => web.body(h, i),
      });
}
const traf = env('TRAFILATURA_TESTS', '/work/data/traf/tests');
if (existsSync(join(traf, 'evaldata.json'))) {
  const evaldata = JSON.parse(readFileSync(join(traf, 'evaldata.json'), 'utf8'));
  for (const [url, item] of Object.entries(evaldata)) {
    const path = ['cache', 'eval'].map((d) => join(traf, d, item.file)).find((p) => existsSync(p));
    if (path) pages.push({ id: `traf/${item.file}`, url, html: () => readFileSync(path) });
  }
} else console.error(`skipped trafilatura's set: no ${traf}/evaldata.json`);
const rp = env('READABILITY_PAGES', '/work/data/readability/test/test-pages');
if (existsSync(rp)) {
  for (const name of readdirSync(rp).sort()) {
    const f = join(rp, name, 'source.html');
    if (existsSync(f))
      pages.push({
        id: `readability/${name}`,
        url: `http://pages.example/${name}/`,
        html: () => readFileSync(f),
      });
  }
} else console.error(`skipped Readability's pages: no ${rp}`);
const wcxb = env('WCXB', '/work/data/wcxb');
for (const split of ['dev', 'test']) {
  const gtDir = join(wcxb, split, 'ground-truth');
  if (!existsSync(gtDir)) {
    console.error(`skipped WCXB ${split}: no ${gtDir}`);
    continue;
  }
  for (const f of readdirSync(gtDir).sort()) {
    const id = f.replace(/\.json$/, '');
    const url = JSON.parse(readFileSync(join(gtDir, f), 'utf8')).url ?? `http://wcxb.example/${id}`;
    pages.push({
      id: `wcxb-${split}/${id}`,
      url,
      html: () => gunzipSync(readFileSync(join(wcxb, split, 'html', `${id}.html.gz`))),
    });
  }
}
const aeb = env('ARTICLES_BENCH', '/work/data/aeb');
if (existsSync(join(aeb, 'ground-truth.json'))) {
  const truth = JSON.parse(readFileSync(join(aeb, 'ground-truth.json'), 'utf8'));
  for (const [id, t] of Object.entries(truth)) {
    const f = join(aeb, 'html', `${id}.html.gz`);
    if (existsSync(f))
      pages.push({
        id: `aeb/${id}`,
        url: t.url ?? `http://aeb.example/${id}`,
        html: () => gunzipSync(readFileSync(f)),
      });
  }
} else console.error(`skipped the article benchmark: no ${aeb}/ground-truth.json`);
const docs = env('DEDUP_DOC_ROOT', '/tmp/debdoc/root');
if (existsSync(docs)) {
  const every = Number(values['docs-every']);
  /** @type {string[]} */
  const files = [];
  const walk = (/** @type {string} */ d) => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (e.isDirectory()) walk(join(d, e.name));
      else if (e.name.endsWith('.html')) files.push(join(d, e.name));
    }
  };
  walk(docs);
  files.forEach((f, i) => {
    if (i % every === 0)
      pages.push({
        id: `docs${f.slice(docs.length)}`,
        url: `http://docs.example${f.slice(docs.length)}`,
        html: () => readFileSync(f),
      });
  });
} else console.error(`skipped the Debian docs: no ${docs}`);

/** @type {Record<string, string>} */
const hashes = {};
let cpu = 0;
for (const p of pages) {
  const content = p.html();
  const t0 = process.cpuUsage();
  const r = parser.parse({
    url: p.url,
    content,
    metadata: Metadata.of({ 'protocol.content-type': 'text/html' }),
  });
  const t = process.cpuUsage(t0);
  cpu += t.user + t.system;
  const h = createHash('sha256');
  if (r.kind === 'parsed') {
    h.update(r.text)
      .update('\0')
      .update(r.markdown ?? '\u0001')
      .update('\0');
    const meta = [...r.metadata.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
    h.update(JSON.stringify(meta))
      .update('\0')
      .update(r.outlinks.map((o) => o.url).join('\n'));
  } else h.update(`kind:${r.kind}`);
  hashes[p.id] = h.digest('hex').slice(0, 24);
}
console.log(
  `${pages.length} pages, parse ${(cpu / 1000 / pages.length).toFixed(3)} CPU-ms a page (warm-up included)`,
);
if (values.save) {
  writeFileSync(values.save, JSON.stringify(hashes));
  console.log(`saved to ${values.save}`);
}
if (values.check) {
  /** @type {Record<string, string>} */
  const before = JSON.parse(readFileSync(values.check, 'utf8'));
  const differ = Object.keys(hashes).filter((id) => before[id] !== undefined && before[id] !== hashes[id]);
  const missing = Object.keys(before).filter((id) => hashes[id] === undefined);
  console.log(
    `${differ.length} of ${Object.keys(hashes).length} pages differ from ${values.check}; ${missing.length} of its pages not parsed here`,
  );
  for (const id of differ.slice(0, 20)) console.log(`  differs: ${id}`);
  if (differ.length > 0 || missing.length > 0) process.exitCode = 1;
}
