// @ts-check
// The documents profile: a crawl of PDFs (100 KB to 1 MB, a few pages each, printed by Chromium from
// generated pages with text, links and incompressible images) through Apache Tika, end to end with
// `crawler run --once`: documents/s, CPU per document of the crawler, Tika and OpenSearch, and
// Tika's peak RSS.
//
//   node scripts/bench/documents.mjs [documents]   (npm run bench:documents; needs npm run build,
//   OpenSearch at OPENSEARCH_URL (default http://127.0.0.1:9200), Debian's chromium, Java and Maven)
//
// Tika: the embedded server on BENCH_TIKA_PORT (default 9998), started here when nothing answers
// there and stopped after; one already running is used as it is (its peak RSS then covers its
// whole life). The PDFs are made once into .bench/documents/.

import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { deflateSync } from 'node:zlib';
import { Client } from '@opensearch-project/opensearch';
import { chromium } from 'playwright-core';
import { crawlEndToEnd, deleteBenchIndices, writeBenchConf } from './crawl.mjs';
import { findOpenSearchPid } from './proc.mjs';
import { documentsSection } from './report.mjs';

const run = promisify(execFile);
const here = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(here, '../..');
/** Distinct PDFs; the crawl serves them under many URLs. */
const VARIANTS = 12;
const SOURCE_VERSION = 'v1';

/**
 * @typedef {{
 *   documents: number, hosts: number, variants: number,
 *   kb: { min: number, mean: number, max: number }, pagesPerDocument: number,
 *   crawl: import('./crawl.mjs').CrawlResult,
 *   documentsPerSec: number,
 *   msPerDocument: { crawler: number, tika: number, opensearch: number, web: number },
 *   tikaPeakRssMb: number, tikaStartedHere: boolean, tikaMaxConcurrent: number,
 *   statuses: Record<string, number>,
 * }} DocumentsResult
 */

/** A deterministic pseudo-random sequence (xorshift). */
function random(seed = 1) {
  let x = seed;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

/** @param {Buffer} b */
function crc32(b) {
  let c = 0xffffffff;
  for (const byte of b) c = (CRC_TABLE[(c ^ byte) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/**
 * An RGB PNG of noise (incompressible: its size is what it adds to the PDF).
 * @param {number} width
 * @param {number} height
 * @param {() => number} rnd
 */
function noisePng(width, height, rnd) {
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let i = 0; i < raw.length; i++) raw[i] = i % (width * 3 + 1) === 0 ? 0 : Math.floor(rnd() * 256);
  /** @type {(type: string, data: Buffer) => Buffer} */
  const chunk = (type, data) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'latin1');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
    return Buffer.concat([head, data, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.writeUInt8(8, 8);
  ihdr.writeUInt8(2, 9);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const WORDS = (
  'crawler document report annual research policy data analysis results method figure table ' +
  'section appendix summary review budget growth energy health transport water climate survey ' +
  'population market region committee evidence study design model sample measure public'
).split(' ');

/**
 * The HTML of PDF number `i`: 2 to 5 pages of text, a link per page, and images for its size.
 * @param {number} i
 */
function sourcePage(i) {
  const rnd = random(1000 + i);
  const pages = 2 + (i % 4);
  const words = (/** @type {number} */ n) =>
    Array.from({ length: n }, () => WORDS[Math.floor(rnd() * WORDS.length)]).join(' ');
  // From about 100 KB (one small image) to about 1 MB: images of 90 to 850 KB of noise in all.
  const imageBytes = 90_000 + Math.floor((760_000 * i) / (VARIANTS - 1));
  const perPage = Math.ceil(imageBytes / pages);
  const side = Math.floor(Math.sqrt(perPage / 3));
  const body = Array.from({ length: pages }, (_, p) => {
    const png = noisePng(side, side, rnd).toString('base64');
    const paragraphs = Array.from({ length: 6 }, () => `<p>${words(70)}.</p>`).join('');
    return (
      `<section style="page-break-after: always"><h2>${words(5)}</h2>${paragraphs}` +
      `<p><a href="https://example.org/ref/${i}/${p}">reference ${p + 1}</a></p>` +
      `<img src="data:image/png;base64,${png}" style="width: 8cm"></section>`
    );
  }).join('');
  return `<!doctype html><html lang="en"><head><title>Report ${i + 1}: ${words(4)}</title></head><body>${body}</body></html>`;
}

/**
 * The PDFs, printed by Chromium (made once; kept in `dir`).
 * @param {string} dir
 * @param {(line: string) => void} log
 * @returns {Promise<Buffer[]>}
 */
export async function benchPdfs(dir, log) {
  const folder = join(dir, `pdf-${SOURCE_VERSION}`);
  const files = Array.from({ length: VARIANTS }, (_, i) => join(folder, `report-${i}.pdf`));
  if (!files.every((f) => existsSync(f))) {
    mkdirSync(folder, { recursive: true });
    log(`printing ${VARIANTS} PDFs with Chromium into ${folder}`);
    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    try {
      const page = await browser.newPage();
      for (const [i, file] of files.entries()) {
        await page.setContent(sourcePage(i), { waitUntil: 'load' });
        writeFileSync(file, await page.pdf({ format: 'A4' }));
      }
    } finally {
      await browser.close();
    }
  }
  return files.map((f) => readFileSync(f));
}

/**
 * The pid of the embedded Tika server on `port` (scripts/tika marks its JVM), if one runs.
 * @param {number} port
 */
function tikaPid(port) {
  return run(join(ROOT, 'scripts/tika'), ['status'], {
    env: { ...process.env, TIKA_PORT: String(port) },
  }).then(
    (r) => Number(/\(pid (\d+),/.exec(r.stdout)?.[1]) || undefined,
    () => undefined,
  );
}

/** @param {number | undefined} pid */
function peakRssMb(pid) {
  try {
    const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/**
 * @param {{
 *   root: string, opensearchUrl: string, client: Client, documents: number, hosts?: number,
 *   tikaPort?: number, concurrency?: number, log: (line: string) => void,
 * }} o
 * @returns {Promise<DocumentsResult>}
 */
export async function documentsBench({
  root,
  opensearchUrl,
  client,
  documents,
  hosts = 10,
  tikaPort = 9998,
  concurrency = 50,
  log,
}) {
  const dir = join(root, '.bench', 'documents');
  const pdfs = await benchPdfs(dir, log);
  const sizes = pdfs.map((p) => p.length / 1024);
  const pageCounts = pdfs.map((p) => (p.toString('latin1').match(/\/Type\s*\/Page[^s]/g) ?? []).length);

  // Tika: started here unless one runs on the port.
  const script = join(root, 'scripts/tika');
  const env = { ...process.env, TIKA_PORT: String(tikaPort) };
  let pid = await tikaPid(tikaPort);
  const startedHere = pid === undefined;
  if (startedHere) {
    log(`starting the embedded Tika on port ${tikaPort} (scripts/tika start)`);
    await run(script, ['start'], { env, timeout: 600_000 });
    pid = await tikaPid(tikaPort);
  }
  const tika = `http://127.0.0.1:${tikaPort}`;
  // Warm-up, not counted: each PDF once, so the JIT has seen the parser before the crawl.
  for (const p of pdfs)
    await fetch(`${tika}/rmeta/html`, { method: 'PUT', body: p, headers: { maxEmbeddedResources: '0' } });

  // The site: `hosts` loopback hosts, each an index page linking to its share of the documents.
  const perHost = Math.ceil(documents / hosts);
  const addresses = Array.from({ length: hosts }, (_, h) => `127.2.0.${h + 1}`);
  const server = (/** @type {string} */ address) =>
    createServer((req, res) => {
      const path = req.url ?? '/';
      const m = /^\/doc-(\d+)\.pdf$/.exec(path);
      if (path === '/') {
        const links = Array.from({ length: perHost }, (_, k) => `<a href="/doc-${k}.pdf">document ${k}</a>`);
        res
          .writeHead(200, { 'content-type': 'text/html' })
          .end(`<html><body>${links.join(' ')}</body></html>`);
      } else if (m) {
        const n = Number(m[1]) + addresses.indexOf(address);
        res.writeHead(200, { 'content-type': 'application/pdf' }).end(pdfs[n % pdfs.length]);
      } else res.writeHead(404).end();
    });
  const servers = addresses.map(server);
  let port = 0;
  for (const [i, s] of servers.entries()) {
    await new Promise((done) => s.listen(port, addresses[i], () => done(undefined)));
    port = /** @type {import('node:net').AddressInfo} */ (s.address()).port;
  }
  const seeds = addresses.map((a) => `http://${a}:${port}/`);
  const maxConcurrent = 2;
  const conf = writeBenchConf(dir, root, {
    opensearchUrl,
    concurrency,
    hosts,
    extra: { 'tika.embedded.port': tikaPort, 'tika.max.concurrent': maxConcurrent },
  });
  const clear = () => deleteBenchIndices(client);
  try {
    await clear();
    log(`end to end: ${hosts} hosts x ${perHost} PDFs (${sizes.map((s) => Math.round(s)).join(', ')} KB)`);
    const crawl = await crawlEndToEnd({
      root,
      conf: conf.path,
      seeds,
      pids: { opensearch: findOpenSearchPid(), tika: pid, web: process.pid },
      log,
    });
    const docs = crawl.fetched - hosts;
    const per = (/** @type {number} */ ms) => (ms * crawl.fetched) / docs;
    return {
      documents: docs,
      hosts,
      variants: pdfs.length,
      kb: {
        min: Math.min(...sizes),
        mean: sizes.reduce((a, b) => a + b, 0) / sizes.length,
        max: Math.max(...sizes),
      },
      pagesPerDocument: pageCounts.reduce((a, b) => a + b, 0) / pageCounts.length,
      crawl,
      documentsPerSec: docs / crawl.secs,
      // The index pages are a few of the fetches: their cost is spread over the documents.
      msPerDocument: {
        crawler: per(crawl.msPerPage.crawler),
        tika: per(crawl.msPerPageOf.tika ?? Number.NaN),
        opensearch: per(crawl.msPerPage.opensearch),
        web: per(crawl.msPerPage.web),
      },
      tikaPeakRssMb: peakRssMb(pid),
      tikaStartedHere: startedHere,
      tikaMaxConcurrent: maxConcurrent,
      statuses: crawl.byStatus,
    };
  } finally {
    await clear();
    for (const s of servers) s.close();
    if (startedHere) await run(script, ['stop'], { env, timeout: 60_000 });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const opensearchUrl = process.env.OPENSEARCH_URL ?? 'http://127.0.0.1:9200';
  const client = new Client({ node: opensearchUrl });
  try {
    const r = await documentsBench({
      root: ROOT,
      opensearchUrl,
      client,
      documents: Number(process.argv[2] ?? 200),
      tikaPort: Number(process.env.BENCH_TIKA_PORT ?? 9998),
      log: console.log,
    });
    console.log(`\n${documentsSection(r)}`);
  } finally {
    await client.close();
  }
}
