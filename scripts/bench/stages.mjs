// @ts-check
// Stage limits of the machine on the synthetic web's own pages, each in a process of its own so its
// CPU and RSS are its own:
//   fetch  undici `request` of every page, concurrency C, keep-alive pools per origin, body read
//   parse  the crawler's page parser (SAX pass, metadata, text, outlinks through the URL filters and
//          metadata transfer) on the same pages, one thread
//   bulk   raw _bulk of the status documents a crawl of the web writes (one create for the
//          discovery, one index for the fetch, per page) into a scratch index of the same node
//   floor  the least a crawler must do per page, in one process: undici fetch, an htmlparser2 SAX
//          pass that keeps hrefs and text, the text's whitespace collapsed, every href resolved
//          with `new URL` (the crawler's CPU per page is read beside it)
//
//   node scripts/bench/stages.mjs <fetch|parse|bulk|floor> '<json options>'   (one JSON line)

import { performance } from 'node:perf_hooks';
import { dist } from './dist.mjs';
import { createWeb } from './web.mjs';

/** @typedef {import('./web.mjs').WebOptions} WebOptions */
/** @typedef {{ secs: number, cpuSecs: number, maxRssMb: number }} Usage */
/** @typedef {{ web: WebOptions, concurrency: number, limit?: number }} FetchOptions */
/** @typedef {Usage & { pages: number, bytes: number, pagesPerSec: number }} FetchResult */
/** @typedef {{ web: WebOptions, conf: string, sample: number, seconds: number }} ParseOptions */
/** @typedef {Usage & { pages: number, outlinksPerPage: number, pagesPerSec: number }} ParseResult */
/** @typedef {{ web: WebOptions, opensearchUrl: string, concurrency: number, bulkActions: number }} BulkOptions */
/** @typedef {Usage & { docs: number, docsPerSec: number }} BulkResult */
/** @typedef {Usage & { pages: number, links: number, pagesPerSec: number, cpuMsPerPage: number }} FloorResult */

/**
 * Wall time, CPU and peak RSS of this process since `t0` and `cpu0`.
 * @param {number} t0
 * @param {NodeJS.CpuUsage} cpu0
 * @returns {Usage}
 */
function usage(t0, cpu0) {
  const secs = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  return {
    secs,
    cpuSecs: (cpu.user + cpu.system) / 1e6,
    maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
  };
}

/**
 * Page URLs host by host in turn (as a crawl spreads them), limited to `limit`.
 * @param {import('./web.mjs').Web} web
 * @param {number} limit
 * @returns {[number, number][]} [host, page] pairs
 */
function interleaved(web, limit) {
  /** @type {[number, number][]} */
  const urls = [];
  for (let i = 0; i < web.pages && urls.length < limit; i++) {
    for (let h = 0; h < web.hosts && urls.length < limit; h++) urls.push([h, i]);
  }
  return urls;
}

/**
 * @param {FetchOptions} o
 * @returns {Promise<FetchResult>}
 */
async function fetchStage(o) {
  let bytes = 0;
  const { pages, u } = await fetchAll(o, (_url, body) => {
    bytes += body.length;
  });
  return { pages, bytes, pagesPerSec: pages / u.secs, ...u };
}

/**
 * Fetches every page of the web with undici (concurrency C, keep-alive pools per origin) and hands
 * each body to `onPage`; the usage covers the fetches and `onPage`.
 * @param {FetchOptions} o
 * @param {(url: string, body: Buffer) => void} onPage
 */
async function fetchAll(o, onPage) {
  const { Agent, request } = await import('undici');
  const web = createWeb(o.web);
  const dispatcher = new Agent({ connections: 4, pipelining: 1, keepAliveTimeout: 30_000 });
  const work = interleaved(web, o.limit ?? Number.POSITIVE_INFINITY);
  let next = 0;
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  await Promise.all(
    Array.from({ length: o.concurrency }, async () => {
      while (next < work.length) {
        const [h, i] = /** @type {[number, number]} */ (work[next++]);
        const url = web.pageUrl(h, i);
        const res = await request(url, { dispatcher, headers: { 'user-agent': 'benchbot' } });
        /** @type {Buffer[]} */
        const chunks = [];
        for await (const chunk of res.body) chunks.push(chunk);
        onPage(url, chunks.length === 1 ? /** @type {Buffer} */ (chunks[0]) : Buffer.concat(chunks));
      }
    }),
  );
  const u = usage(t0, cpu0);
  await dispatcher.close();
  return { pages: work.length, u };
}

/**
 * @param {FetchOptions} o
 * @returns {Promise<FloorResult>}
 */
async function floorStage(o) {
  const { Parser } = await import('htmlparser2');
  const LINK = new Set(['a', 'area', 'frame', 'iframe']);
  let links = 0;
  let kept = 0;
  /** @param {string} url @param {string} html */
  const extract = (url, html) => {
    /** @type {string[]} */
    const hrefs = [];
    /** @type {string[]} */
    const text = [];
    const parser = new Parser(
      {
        onopentag(name, attribs) {
          const href = name === 'frame' || name === 'iframe' ? attribs.src : attribs.href;
          if (LINK.has(name) && href !== undefined) hrefs.push(href);
        },
        ontext(data) {
          text.push(data);
        },
      },
      { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
    );
    parser.end(html);
    kept += text.join('').replace(/\s+/g, ' ').trim().length;
    for (const href of hrefs) {
      try {
        if (new URL(href, url).protocol.startsWith('http')) links++;
      } catch {
        // not a URL
      }
    }
  };
  const { pages, u } = await fetchAll(o, (url, body) => extract(url, body.toString('utf8')));
  if (kept === 0) throw new Error('the floor stage extracted no text');
  return { pages, links, pagesPerSec: pages / u.secs, cpuMsPerPage: (u.cpuSecs * 1000) / pages, ...u };
}

/**
 * @param {ParseOptions} o
 * @returns {Promise<ParseResult>}
 */
async function parseStage(o) {
  const { loadConfig } = await dist('config/load.js');
  const { loadURLFilters } = await dist('urlfilters/load.js');
  const { createPageParser } = await dist('parse/index.js');
  const { Metadata } = await dist('model/metadata.js');
  const { systemClock } = await dist('util/clock.js');
  const { silentLogger } = await dist('util/log.js');
  const { config } = loadConfig({ files: [o.conf], env: {} });
  const chain = loadURLFilters(config, { logger: silentLogger });
  const parser = createPageParser(config, {
    filter: chain,
    clock: systemClock,
    log: silentLogger,
  });
  await parser.ready;
  const web = createWeb(o.web);
  // Distinct pages spread over every host, built before the clock starts; parsed in turn until
  // `seconds` have passed.
  const sample = interleaved(web, o.sample).map(([h, i]) => ({
    url: web.pageUrl(h, i),
    body: web.body(h, i),
  }));
  let pages = 0;
  let outlinks = 0;
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  while (performance.now() - t0 < o.seconds * 1000) {
    for (const p of sample) {
      const md = new Metadata();
      md.setValue('depth', '1');
      md.setValue('content-type', 'text/html; charset=utf-8');
      const out = parser.parse({ url: p.url, metadata: md, content: p.body });
      outlinks += out.outlinks.length;
      pages++;
    }
  }
  const u = usage(t0, cpu0);
  return { pages, outlinksPerPage: outlinks / pages, pagesPerSec: pages / u.secs, ...u };
}

/**
 * @param {BulkOptions} o
 * @returns {Promise<BulkResult>}
 */
async function bulkStage(o) {
  const { Client } = await import('@opensearch-project/opensearch');
  const { readMapping } = await dist('opensearch/indices.js');
  const { documentId, toStatusSource } = await dist('opensearch/status-doc.js');
  const { Metadata } = await dist('model/metadata.js');
  const client = new Client({ node: o.opensearchUrl, requestTimeout: 120_000 });
  const index = 'bench-bulk-status';
  await client.indices.delete({ index, ignore_unavailable: true });
  const mapping = readMapping('status');
  await client.indices.create({ index, body: /** @type {never} */ (mapping) });
  const web = createWeb(o.web);
  const work = interleaved(web, Number.POSITIVE_INFINITY);
  const now = Date.now();
  // What the crawler writes per page: a create when the link is discovered, an index once fetched.
  /** @returns {Generator<[object, object]>} */
  function* actions() {
    for (const [h, i] of work) {
      const url = web.pageUrl(h, i);
      const key = new URL(url).hostname;
      const md = new Metadata();
      md.setValue('depth', '3');
      /** @type {(op: 'create' | 'index') => object} */
      const head = (op) => ({ [op]: { _index: index, _id: documentId(url), routing: key } });
      yield [
        head('create'),
        toStatusSource({ url, status: 'DISCOVERED', metadata: md, nextFetchDate: now }, key),
      ];
      md.setValue('fetch.statusCode', '200');
      yield [
        head('index'),
        toStatusSource({ url, status: 'FETCHED', metadata: md, nextFetchDate: now + 86_400_000 }, key),
      ];
    }
  }
  const gen = actions();
  let docs = 0;
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  await Promise.all(
    Array.from({ length: o.concurrency }, async () => {
      for (;;) {
        /** @type {object[]} */
        const body = [];
        for (let k = 0; k < o.bulkActions; k++) {
          const n = gen.next();
          if (n.done) break;
          body.push(...n.value);
        }
        if (body.length === 0) return;
        const res = await client.bulk({ body });
        if (res.body.errors) {
          const bad = res.body.items.find((it) => Object.values(it)[0]?.error);
          throw new Error(`bulk error: ${JSON.stringify(bad)}`);
        }
        docs += body.length / 2;
      }
    }),
  );
  const u = usage(t0, cpu0);
  await client.indices.delete({ index, ignore_unavailable: true });
  await client.close();
  return { docs, docsPerSec: docs / u.secs, ...u };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [stage = '', json = '{}'] = process.argv.slice(2);
  /** @type {Record<string, ((o: never) => Promise<object>) | undefined>} */
  const stages = { fetch: fetchStage, parse: parseStage, bulk: bulkStage, floor: floorStage };
  const run = stages[stage];
  if (!run) {
    console.error('usage: stages.mjs <fetch|parse|bulk|floor> <json options>');
    process.exit(2);
  }
  // The options are the JSON run.mjs wrote for that stage.
  const result = await run(/** @type {never} */ (JSON.parse(json)));
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
