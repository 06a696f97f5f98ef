// @ts-check
// The deep site: one host whose pages are found only from the previous ones (page i links to the
// next `fanout`), each answered after `delayMs`. A crawl's frontier runs dry every few pages, so
// what it measures is how long the crawler waits between finding a URL and fetching it: the status
// flush, the index refresh and the spout query, unless the crawler hands new URLs straight to its
// fetcher. Crawled end to end by `crawler run --once` with the default timers and
// `fetcher.server.delay: 0`, and by Crawlee on the same site. Then politeness: the same kind of site
// (fewer pages) with `fetcher.server.delay: 1`, gaps between requests measured at the server.
//
//   node scripts/bench/deep.mjs serve '{"sites": [{"address": "127.3.0.1", "pages": 600, "fanout": 5, "delayMs": 20}]}'
//
// serves until killed and prints one JSON line {port} once it listens; GET /__stats on a site
// answers {requests, minGapMs} of that site's pages so far (the delay counted from the start of one
// request to the start of the next).

import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { stringify } from 'yaml';
import { crawlEndToEnd, deleteBenchIndices } from './crawl.mjs';
import { runNode } from './proc.mjs';

/** @typedef {{ address: string, pages: number, fanout: number, delayMs: number }} SiteSpec */
/**
 * What a site's server saw: requests for pages, the smallest gap between two request starts, and
 * how long the host sat idle between answering one page and being asked the next (none of it
 * while another request of it was open).
 * @typedef {{ requests: number, minGapMs: number, idleMs: number, idleMedianMs: number }} SiteStats
 */
/**
 * @typedef {{
 *   pages: number, fanout: number, delayMs: number,
 *   crawl: import('./crawl.mjs').CrawlResult, commandSecs: number, served: SiteStats,
 *   peer: import('./peer.mjs').PeerResult,
 *   polite: { pages: number, fetched: number, secs: number, minGapMs: number },
 * }} DeepResult
 */

/**
 * @param {number} i
 * @param {SiteSpec} site
 * @returns {Buffer}
 */
function pageBody(i, site) {
  const links = [];
  for (let k = i + 1; k <= i + site.fanout && k < site.pages; k++)
    links.push(`<a href="/p/${k}.html">page ${k}</a>`);
  const text = `Page ${i} of a site found page by page. `.repeat(40);
  return Buffer.from(
    `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Page ${i}</title></head>` +
      `<body><h1>Page ${i}</h1><p>${text}</p><nav>${links.join(' ')}</nav></body></html>\n`,
  );
}

/**
 * Serves the sites on one port; resolves with the port once every one listens.
 * @param {readonly SiteSpec[]} sites
 * @returns {Promise<number>}
 */
async function serve(sites) {
  let port = 0;
  for (const site of sites) {
    const bodies = Array.from({ length: site.pages }, (_, i) => pageBody(i, site));
    /** @type {number[]} */
    const starts = [];
    /** @type {number[]} */
    const idle = [];
    let open = 0;
    let lastEnd = Number.NaN;
    const server = createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
      const url = req.url ?? '/';
      if (url === '/__stats') {
        let minGapMs = Number.POSITIVE_INFINITY;
        for (let k = 1; k < starts.length; k++)
          minGapMs = Math.min(minGapMs, (starts[k] ?? 0) - (starts[k - 1] ?? 0));
        const sorted = [...idle].sort((a, b) => a - b);
        /** @type {SiteStats} */
        const stats = {
          requests: starts.length,
          minGapMs,
          idleMs: idle.reduce((a, b) => a + b, 0),
          idleMedianMs: sorted[Math.floor(sorted.length / 2)] ?? Number.NaN,
        };
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(stats));
        return;
      }
      if (url === '/robots.txt') {
        res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
        return;
      }
      const m = /^\/p\/(\d+)\.html$/.exec(url);
      const body = m ? bodies[Number(m[1])] : undefined;
      if (!body) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        return;
      }
      const now = performance.now();
      if (open === 0 && Number.isFinite(lastEnd)) idle.push(now - lastEnd);
      starts.push(now);
      open++;
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': body.length });
        res.end(body);
        open--;
        lastEnd = performance.now();
      }, site.delayMs);
    });
    await new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, site.address, () => resolve(undefined));
    });
    if (port === 0) port = /** @type {import('node:net').AddressInfo} */ (server.address()).port;
  }
  return port;
}

/**
 * The crawl's config: the crawler's defaults (timers included), politeness delay `delaySecs`.
 * @param {string} dir
 * @param {string} opensearchUrl
 * @param {number} delaySecs
 */
function writeDeepConf(dir, opensearchUrl, delaySecs) {
  mkdirSync(dir, { recursive: true });
  const settings = {
    'opensearch.addresses': opensearchUrl,
    'opensearch.status.index.name': 'bench-status',
    'opensearch.indexer.index.name': 'bench-content',
    'opensearch.hosts.index.name': 'bench-hosts',
    'http.agent.name': 'benchbot',
    // Loopback addresses are refused by default (SSRF guard); the site lives there.
    'http.filter.ipaddress.exclude': [],
    'fetcher.server.delay': delaySecs,
  };
  const path = join(dir, `deep-delay-${delaySecs}.yaml`);
  writeFileSync(path, stringify(settings));
  return { path, settings };
}

/**
 * @param {{
 *   root: string,
 *   opensearchUrl: string,
 *   client: import('@opensearch-project/opensearch').Client,
 *   pids: Record<string, number | undefined>,
 *   pages: number,
 *   politePages: number,
 *   log: (line: string) => void,
 * }} o
 * @returns {Promise<DeepResult>}
 */
export async function deepSiteBench(o) {
  const here = join(o.root, 'scripts/bench');
  const deep = { address: '127.3.0.1', pages: o.pages, fanout: 5, delayMs: 20 };
  const polite = { address: '127.3.0.2', pages: o.politePages, fanout: 5, delayMs: 20 };
  /** @type {(port: number) => void} */
  let listening = () => {};
  const { child, done } = runNode(
    [join(here, 'deep.mjs'), 'serve', JSON.stringify({ sites: [deep, polite] })],
    {
      onLine: (stream, line) => {
        if (stream === 'out' && typeof line === 'object') listening(Number(line.port));
      },
    },
  );
  /** @type {number} */
  const port = await new Promise((resolve, reject) => {
    listening = resolve;
    done.then(({ err }) => reject(new Error(`deep site server ended: ${err.join('\n')}`)));
  });
  /** @type {(site: SiteSpec) => string} */
  const origin = (site) => `http://${site.address}:${port}`;
  /** @type {(site: SiteSpec) => Promise<SiteStats>} */
  const stats = async (site) =>
    /** @type {SiteStats} */ (await (await fetch(`${origin(site)}/__stats`)).json());
  const clear = () => deleteBenchIndices(o.client);
  const dir = join(o.root, '.bench', 'deep');
  try {
    o.log(
      `deep site: ${deep.pages} pages, each linking to the next ${deep.fanout}, ${deep.delayMs} ms per page`,
    );
    await clear();
    const conf = writeDeepConf(dir, o.opensearchUrl, 0);
    const t0 = performance.now();
    const crawl = await crawlEndToEnd({
      root: o.root,
      conf: conf.path,
      seeds: [`${origin(deep)}/p/0.html`],
      pids: { ...o.pids, web: child.pid },
      log: o.log,
    });
    const commandSecs = (performance.now() - t0) / 1000;
    const served = await stats(deep);
    o.log(
      `  crawler: ${crawl.fetched} pages in ${crawl.secs.toFixed(1)} s (${commandSecs.toFixed(1)} s with start-up); ` +
        `the host sat idle ${(served.idleMs / 1000).toFixed(1)} s between pages (median ${served.idleMedianMs.toFixed(1)} ms)`,
    );
    await clear();
    const peer = /** @type {import('./peer.mjs').PeerResult} */ (
      (
        await runNode([
          join(here, 'peer.mjs'),
          JSON.stringify({
            seeds: [`${origin(deep)}/p/0.html`],
            concurrency: 50,
            maxRequests: deep.pages * 2,
          }),
        ]).done
      ).out.findLast((l) => typeof l === 'object')
    );
    o.log(`  Crawlee: ${peer.pages} pages in ${peer.secs.toFixed(1)} s`);
    o.log(`politeness: ${polite.pages} pages of one host with fetcher.server.delay 1`);
    const politeConf = writeDeepConf(dir, o.opensearchUrl, 1);
    const politeCrawl = await crawlEndToEnd({
      root: o.root,
      conf: politeConf.path,
      seeds: [`${origin(polite)}/p/0.html`],
      pids: { ...o.pids, web: child.pid },
      log: o.log,
    });
    const seen = await stats(polite);
    o.log(
      `  ${politeCrawl.fetched} pages in ${politeCrawl.secs.toFixed(1)} s; smallest gap ${seen.minGapMs.toFixed(0)} ms`,
    );
    await clear();
    return {
      pages: deep.pages,
      fanout: deep.fanout,
      delayMs: deep.delayMs,
      crawl,
      commandSecs,
      served,
      peer,
      polite: {
        pages: polite.pages,
        fetched: politeCrawl.fetched,
        secs: politeCrawl.secs,
        minGapMs: seen.minGapMs,
      },
    };
  } finally {
    child.kill('SIGTERM');
  }
}

if (import.meta.url === `file://${process.argv[1]}` && process.argv[2] === 'serve') {
  /** @type {{ sites: SiteSpec[] }} */
  const o = JSON.parse(process.argv[3] ?? '{"sites": []}');
  const port = await serve(o.sites);
  process.stdout.write(`${JSON.stringify({ port })}\n`);
  process.on('SIGTERM', () => process.exit(0));
}
