// @ts-check
// The feeds profile: H hosts (127.1.x.y) x F feeds of E entries each, RSS 2.0, Atom 1.0 and JSON
// Feed in turn (~30 KB each: a summary and the article's HTML per entry, as WordPress and most news
// CMSs publish them), served from this process. It measures
// 1. the parse stage alone on those feeds (createPageParser, the crawler's own): CPU µs per feed
//    and per entry, by format;
// 2. `crawler run --once` end to end (the built CLI in its own process) seeded with every feed: the
//    spout is limited to the seeds (opensearch.status.filterQuery: only URLs without a depth), so
//    each fetched document is a feed and each of its entries one DISCOVERED write: feeds/s, and the
//    CPU per feed of the crawler and of OpenSearch.
//
//   npm run bench:feeds   (builds first; OpenSearch at OPENSEARCH_URL, default http://127.0.0.1:9200;
//                          BENCH_QUICK=1 for small sizes)
//
// run.mjs calls feedsBench() for the full report.

import { createServer } from 'node:http';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Client } from '@opensearch-project/opensearch';
import { crawlEndToEnd, deleteBenchIndices, writeBenchConf } from './crawl.mjs';
import { dist } from './dist.mjs';
import { findOpenSearchPid } from './proc.mjs';
import { benchParseConfig } from './text-parser.mjs';
import { hostAddress, rng } from './web.mjs';

/**
 * @typedef {{ format: string, bytes: number, usPerFeed: number, usPerEntry: number }} FeedParseRow
 * @typedef {{
 *   hosts: number, feedsPerHost: number, entries: number, feedBytes: number,
 *   parse: FeedParseRow[],
 *   crawl: import('./crawl.mjs').CrawlResult & { feeds: number, entriesWritten: number },
 * }} FeedsResult
 */

const here = fileURLToPath(new URL('.', import.meta.url));
const FORMATS = /** @type {const} */ (['rss', 'atom', 'json']);
const TYPES = { rss: 'application/rss+xml', atom: 'application/atom+xml', json: 'application/feed+json' };

const WORDS = (
  'harbour bridge council library ferry tide lighthouse market festival school road station park ' +
  'the of and to in is for on that with as by this from at are be it an or was which not have has ' +
  'résumé café naïve über straße — “quoted” words & more'
).split(' ');

/** @type {(s: string) => string} */
const xml = (s) => s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/**
 * Feed `f` of host `h` as its server sends it.
 * @param {string} origin
 * @param {number} h
 * @param {number} f
 * @param {number} entries
 */
export function feedBody(origin, h, f, entries) {
  const r = rng(h * 100_003 + f);
  /** @type {(n: number) => string} */
  const words = (n) => Array.from({ length: n }, () => WORDS[(r() * WORDS.length) | 0]).join(' ');
  const format = FORMATS[f % FORMATS.length] ?? 'rss';
  const items = Array.from({ length: entries }, (_, i) => {
    const link = `${origin}/news/${f}/${i}.html`;
    const date = new Date(Date.UTC(2025, 5, 1) - (f * entries + i) * 3_600_000);
    const summary = `<p>${words(45)} <a href="${origin}/tag/${i}">${words(2)}</a>.</p>`;
    const body = Array.from({ length: 6 }, () => `<p>${words(40)}</p>`).join('');
    return { title: words(8), link, date, summary, body };
  });
  if (format === 'json')
    return JSON.stringify({
      version: 'https://jsonfeed.org/version/1.1',
      title: `Host ${h} feed ${f}`,
      home_page_url: `${origin}/`,
      feed_url: `${origin}/feeds/${f}`,
      items: items.map((e) => ({
        id: e.link,
        url: e.link,
        title: e.title,
        summary: e.summary.replace(/<[^>]+>/g, ''),
        content_html: e.body,
        date_published: e.date.toISOString(),
      })),
    });
  if (format === 'atom')
    return (
      `<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom"><id>${origin}/</id>` +
      `<title>Host ${h} feed ${f}</title><updated>${items[0]?.date.toISOString()}</updated>` +
      `<link rel="self" href="${origin}/feeds/${f}"/>` +
      items
        .map(
          (e) =>
            `<entry><title type="html">${xml(e.title)}</title><id>${e.link}</id><link href="${e.link}"/>` +
            `<published>${e.date.toISOString()}</published><updated>${e.date.toISOString()}</updated>` +
            `<summary type="html"><![CDATA[${e.summary}]]></summary><content type="html">${xml(e.body)}</content></entry>\n`,
        )
        .join('') +
      '</feed>\n'
    );
  return (
    `<?xml version="1.0" encoding="utf-8"?>\n<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" ` +
    `xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:atom="http://www.w3.org/2005/Atom"><channel>` +
    `<title>Host ${h} feed ${f}</title><link>${origin}/</link><description>${words(10)}</description>` +
    `<atom:link href="${origin}/feeds/${f}" rel="self" type="application/rss+xml"/>` +
    items
      .map(
        (e) =>
          `<item><title>${xml(e.title)}</title><link>${e.link}</link><guid isPermaLink="true">${e.link}</guid>` +
          `<dc:creator><![CDATA[Newsroom]]></dc:creator><pubDate>${e.date.toUTCString()}</pubDate>` +
          `<description><![CDATA[${e.summary}]]></description><content:encoded><![CDATA[${e.body}]]></content:encoded></item>\n`,
      )
      .join('') +
    '</channel></rss>\n'
  );
}

/**
 * Serves every host's feeds (and a robots.txt) on one port.
 * @param {number} hosts
 * @param {number} feedsPerHost
 * @param {number} entries
 */
async function serveFeeds(hosts, feedsPerHost, entries) {
  /** @type {import('node:http').Server[]} */
  const servers = [];
  /** @type {Buffer[]} */
  let bodies = [];
  const robots = Buffer.from('User-agent: *\nDisallow: /private/\n');
  let port = 0;
  for (let h = 0; h < hosts; h++) {
    const server = createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
      const m = /^\/feeds\/(\d+)$/.exec(req.url ?? '');
      const f = m ? Number(m[1]) : -1;
      if (f >= 0 && f < feedsPerHost) {
        const body = /** @type {Buffer} */ (bodies[h * feedsPerHost + f]);
        const type = TYPES[FORMATS[f % FORMATS.length] ?? 'rss'];
        res.writeHead(200, { 'content-type': `${type}; charset=utf-8`, 'content-length': body.length });
        res.end(body);
      } else if (req.url === '/robots.txt') {
        res.writeHead(200, { 'content-type': 'text/plain', 'content-length': robots.length }).end(robots);
      } else res.writeHead(404, { 'content-length': 9 }).end('not found');
    });
    await new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, hostAddress(h), () => resolve(undefined));
    });
    if (port === 0) port = /** @type {import('node:net').AddressInfo} */ (server.address()).port;
    servers.push(server);
  }
  /** @type {(h: number) => string} */
  const origin = (h) => `http://${hostAddress(h)}:${port}`;
  bodies = [];
  for (let h = 0; h < hosts; h++)
    for (let f = 0; f < feedsPerHost; f++) bodies.push(Buffer.from(feedBody(origin(h), h, f, entries)));
  return {
    seeds: Array.from({ length: hosts * feedsPerHost }, (_, k) => {
      const h = Math.floor(k / feedsPerHost);
      return `${origin(h)}/feeds/${k % feedsPerHost}`;
    }),
    bodies,
    close: () => Promise.all(servers.map((s) => new Promise((r) => s.close(() => r(undefined))))),
  };
}

/**
 * The parse stage alone: CPU µs per feed, by format, best of three runs of `seconds`.
 * @param {number} entries
 * @param {number} seconds
 * @returns {Promise<FeedParseRow[]>}
 */
async function parseStage(entries, seconds) {
  const { createPageParser } = await dist('parse/index.js');
  const { Metadata } = await dist('model/metadata.js');
  const { systemClock } = await dist('util/clock.js');
  const config = benchParseConfig(true);
  const parser = createPageParser(config, { filter: { filter: (_s, _m, t) => t }, clock: systemClock });
  await parser.ready;
  /** @type {FeedParseRow[]} */
  const rows = [];
  for (const [k, format] of FORMATS.entries()) {
    const inputs = Array.from({ length: 16 }, (_, i) => ({
      url: `https://www.example.com/feeds/${k + 3 * i}`,
      metadata: Metadata.of({ 'protocol.content-type': TYPES[format] }),
      content: Buffer.from(feedBody('https://www.example.com', i, k + 3 * i, entries)),
    }));
    let best = Number.POSITIVE_INFINITY;
    for (let run = 0; run < 3; run++) {
      let n = 0;
      const cpu0 = process.cpuUsage();
      const end = performance.now() + seconds * 1000;
      while (performance.now() < end) {
        const input = /** @type {(typeof inputs)[number]} */ (inputs[n % inputs.length]);
        const r = parser.parse(input);
        if (r.kind !== 'status' || r.status !== 'FETCHED' || r.outlinks.length !== entries)
          throw new Error(`feed ${input.url} parsed as ${r.kind} ${'status' in r ? r.status : ''}`);
        n++;
      }
      const cpu = process.cpuUsage(cpu0);
      best = Math.min(best, (cpu.user + cpu.system) / n);
    }
    const bytes = inputs.reduce((t, i) => t + i.content.length, 0) / inputs.length;
    rows.push({ format, bytes, usPerFeed: best, usPerEntry: best / entries });
  }
  return rows;
}

/** Full size: 20 hosts x 100 feeds of 20 entries; BENCH_QUICK: 5 x 20. */
const SIZES = { full: { hosts: 20, feedsPerHost: 100 }, quick: { hosts: 5, feedsPerHost: 20 } };
const ENTRIES = 20;
const CONCURRENCY = 50;

/**
 * @param {{ root: string, opensearchUrl: string, client: Client, quick: boolean, log?: (line: string) => void }} o
 * @returns {Promise<FeedsResult>}
 */
export async function feedsBench({ root, opensearchUrl, client, quick, log = () => {} }) {
  const { hosts, feedsPerHost } = quick ? SIZES.quick : SIZES.full;
  const [entries, concurrency] = [ENTRIES, CONCURRENCY];
  log(`feeds: the parse stage alone on feeds of ${entries} entries`);
  const parse = await parseStage(entries, 3);
  for (const p of parse)
    log(
      `  ${p.format}: ${(p.bytes / 1024).toFixed(0)} KiB, ${p.usPerFeed.toFixed(0)} µs/feed, ${p.usPerEntry.toFixed(1)} µs/entry`,
    );
  log(`feeds: crawler run --once over ${hosts} hosts x ${feedsPerHost} feeds of ${entries} entries`);
  const web = await serveFeeds(hosts, feedsPerHost, entries);
  const clear = () => deleteBenchIndices(client);
  try {
    // The seeds have no depth; entries do: the spout hands out feeds only, entries are written.
    const extra = { 'opensearch.status.filterQuery': ['-_exists_:metadata.depth'] };
    const conf = writeBenchConf(join(root, '.bench', 'feeds'), root, {
      opensearchUrl,
      concurrency,
      hosts,
      extra,
    });
    await clear();
    const r = await crawlEndToEnd({
      root,
      conf: conf.path,
      seeds: web.seeds,
      pids: { opensearch: findOpenSearchPid(), web: process.pid },
      log,
    });
    const total = (await client.count({ index: 'bench-status' })).body.count;
    const feeds = r.fetched;
    log(
      `  ${feeds} feeds in ${r.secs.toFixed(1)} s: ${(feeds / r.secs).toFixed(0)} feeds/s, ${r.msPerPage.crawler.toFixed(2)} CPU ms/feed`,
    );
    await clear();
    const feedBytes = web.bodies.reduce((t, b) => t + b.length, 0) / web.bodies.length;
    return {
      hosts,
      feedsPerHost,
      entries,
      feedBytes,
      parse,
      crawl: { ...r, feeds, entriesWritten: total - feeds },
    };
  } finally {
    await web.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const opensearchUrl = process.env.OPENSEARCH_URL ?? 'http://127.0.0.1:9200';
  const client = new Client({ node: opensearchUrl });
  const started = Date.now();
  try {
    const r = await feedsBench({
      root: join(here, '../..'),
      opensearchUrl,
      client,
      quick: process.env.BENCH_QUICK === '1',
      log: (l) => console.log(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${l}`),
    });
    const { feedsSection } = await import('./report-feeds.mjs');
    console.log(`\n${feedsSection(r)}`);
  } finally {
    await client.close();
  }
}
