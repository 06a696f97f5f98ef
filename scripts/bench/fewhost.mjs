// @ts-check
// The few-host profile: a documentation site on two hosts (~2,000 pages of ~54 KB with a wide
// fan-out: every page's sidebar lists every section and every page of its own section, as real
// documentation does), crawled by `crawler run --once` with the crawler's defaults and
// `fetcher.server.delay: 0` (one connection per host, the default), by GNU wget -r (one
// connection) and by Crawlee's CheerioCrawler (two connections, one per host) on the same site.
// What it measures is whether a crawl of few hosts runs at the pace its politeness allows: the
// crawler's wall time beside wget's, how long the hosts sat idle while the index held due URLs of
// theirs (the crawl summary's `idleWithWorkMs`) and the CPU per page.
//
//   node scripts/bench/fewhost.mjs serve '{"hosts": ["127.3.1.1", "127.3.1.2"], "sections": 20, "pages": 50}'
//
// serves until killed and prints one JSON line {port} once it listens; GET /__stats on a host
// answers {requests, distinct, repeated, idleMs} of that host's pages so far.

import { execFile } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { stringify } from 'yaml';
import { crawlEndToEnd, deleteBenchIndices } from './crawl.mjs';
import { runNode } from './proc.mjs';
import { rng } from './web.mjs';

/** @typedef {{ hosts: string[], sections: number, pages: number }} SiteSpec */
/**
 * What a host's server saw: page requests, distinct pages, pages asked for more than once, and the
 * time the host sat with no request open between two of them.
 * @typedef {{ requests: number, distinct: number, repeated: number, idleMs: number, bytes: number }} HostStats
 */
/**
 * @typedef {{
 *   hosts: number, pages: number, avgBytes: number, avgLinks: number,
 *   crawl: import('./crawl.mjs').CrawlResult & { idleWithWorkMs: number, idleShare: number },
 *   crawlServed: HostStats, commandSecs: number,
 *   wget: { secs: number, pages: number, code: number | null },
 *   peer: import('./peer.mjs').PeerResult & { concurrency: number },
 * }} FewHostResult
 */

/** Paragraphs of text per page: ~54 KB pages, the size of the real documentation site of issue 23. */
const PARAGRAPHS = 100;

const WORDS = (
  'the of and to in is for on that with as by this from at are be it an or was which not have has ' +
  'install configure option value default returns example function parameter module class method ' +
  'server client request response header body index query filter field type string number list'
).split(' ');

/**
 * One host's pages: section s, page j at /s{s}/p{j}.html; relative links, as generated docs have.
 * @param {number} h host number
 * @param {SiteSpec} site
 * @returns {Buffer[]} bodies by s * pages + j
 */
function renderHost(h, site, port = 0) {
  const r = rng(101 + h);
  /** @type {(n: number) => string} */
  const words = (n) => Array.from({ length: n }, () => WORDS[Math.floor(r() * WORDS.length)]).join(' ');
  const title = (/** @type {number} */ s, /** @type {number} */ j) => `Section ${s}, page ${j}`;
  /** @type {Buffer[]} */
  const out = [];
  for (let s = 0; s < site.sections; s++) {
    for (let j = 0; j < site.pages; j++) {
      let side = '<nav class="sidebar"><ul>';
      for (let k = 0; k < site.sections; k++) {
        side += `<li class="toc-l1"><a class="reference internal" href="../s${k}/p0.html">${title(k, 0)}</a>`;
        if (k === s) {
          side += '<ul>';
          for (let m = 1; m < site.pages; m++)
            side += `<li class="toc-l2"><a class="reference internal" href="p${m}.html">${title(s, m)}</a></li>`;
          side += '</ul>';
        }
        side += '</li>';
      }
      side += '</ul></nav>';
      let body = `<h1>${title(s, j)}</h1>`;
      // Text with a few links into other sections, as cross-references are.
      for (let para = 0; para < PARAGRAPHS; para++) {
        body += `<p>${words(40)}`;
        if (para % 4 === 0) {
          const ts = Math.floor(r() * site.sections);
          const tj = Math.floor(r() * site.pages);
          body += ` see <a class="reference internal" href="../s${ts}/p${tj}.html#sec-${para}">${title(ts, tj)}</a>`;
        }
        body += ` <code>${words(2)}</code> ${words(25)}.</p>\n`;
        if (para % 10 === 5) body += `<pre class="highlight"><code>${words(30)}\n${words(30)}</code></pre>\n`;
      }
      const prev = j > 0 ? `<a href="p${j - 1}.html" rel="prev">previous</a>` : '';
      const next = j + 1 < site.pages ? `<a href="p${j + 1}.html" rel="next">next</a>` : '';
      const other =
        site.hosts.length > 1
          ? `<a href="http://${site.hosts[(h + 1) % site.hosts.length]}:${port}/s${s}/p${j}.html">elsewhere</a>`
          : '';
      out.push(
        Buffer.from(
          `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>${title(s, j)} | Docs ${h}</title>` +
            `<meta name="viewport" content="width=device-width, initial-scale=1">` +
            `<link rel="stylesheet" href="../_static/docs.css"></head><body><div class="wrap">${side}` +
            `<main role="main"><div class="breadcrumbs"><a href="../s0/p0.html">Docs</a> » <a href="p0.html">Section ${s}</a></div>` +
            `<article>${body}</article><footer>${prev} ${next} ${other}</footer></main></div></body></html>\n`,
          'utf8',
        ),
      );
    }
  }
  return out;
}

/**
 * Serves the site's hosts on one port; resolves with the port once every host listens.
 * @param {SiteSpec} site
 * @returns {Promise<number>}
 */
async function serve(site) {
  let port = 0;
  /** @type {Buffer[][]} bodies by host, rendered once the port (part of cross-host links) is known */
  const rendered = [];
  for (let h = 0; h < site.hosts.length; h++) {
    const pages = site.sections * site.pages;
    const seen = new Uint16Array(pages);
    let requests = 0;
    let bytes = 0;
    let idleMs = 0;
    let open = 0;
    let lastEnd = Number.NaN;
    const server = createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
      const url = (req.url ?? '/').split('#')[0] ?? '/';
      if (url === '/__stats') {
        let distinct = 0;
        let repeated = 0;
        for (const n of seen) {
          if (n > 0) distinct++;
          if (n > 1) repeated++;
        }
        /** @type {HostStats} */
        const stats = { requests, distinct, repeated, idleMs, bytes };
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(stats));
        return;
      }
      if (url === '/robots.txt') {
        res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
        return;
      }
      const m = /^\/s(\d+)\/p(\d+)\.html$/.exec(url);
      const s = m ? Number(m[1]) : -1;
      const j = m ? Number(m[2]) : -1;
      const body =
        s >= 0 && s < site.sections && j >= 0 && j < site.pages
          ? rendered[h]?.[s * site.pages + j]
          : undefined;
      if (!body) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        return;
      }
      const now = performance.now();
      if (open === 0 && Number.isFinite(lastEnd)) idleMs += now - lastEnd;
      open++;
      requests++;
      bytes += body.length;
      const k = s * site.pages + j;
      seen[k] = (seen[k] ?? 0) + 1;
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': body.length });
      res.end(body, () => {
        open--;
        lastEnd = performance.now();
      });
    });
    const host = site.hosts[h] ?? '127.0.0.1';
    await new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve(undefined));
    });
    if (port === 0) port = /** @type {import('node:net').AddressInfo} */ (server.address()).port;
  }
  for (let h = 0; h < site.hosts.length; h++) rendered.push(renderHost(h, site, port));
  return port;
}

/** Links and bytes of one host's pages, for the report. */
function siteShape(/** @type {SiteSpec} */ site) {
  const bodies = renderHost(0, site);
  const bytes = bodies.reduce((n, b) => n + b.length, 0);
  const links = bodies.reduce((n, b) => n + (b.toString('latin1').match(/<a /g)?.length ?? 0), 0);
  return { avgBytes: bytes / bodies.length, avgLinks: links / bodies.length };
}

/**
 * The crawl's config: the crawler's defaults (timers, max.urls.per.bucket included) and
 * `fetcher.server.delay: 0`.
 * @param {string} dir
 * @param {string} opensearchUrl
 */
function writeConf(dir, opensearchUrl) {
  mkdirSync(dir, { recursive: true });
  const settings = {
    'opensearch.addresses': opensearchUrl,
    'opensearch.status.index.name': 'bench-status',
    'opensearch.indexer.index.name': 'bench-content',
    'http.agent.name': 'benchbot',
    // Loopback addresses are refused by default (SSRF guard); the site lives there.
    'http.filter.ipaddress.exclude': [],
    'fetcher.server.delay': 0,
  };
  const path = join(dir, 'fewhost.yaml');
  writeFileSync(path, stringify(settings));
  return { path, settings };
}

/**
 * GNU wget -r over the site: one connection, every page parsed for links, files deleted after.
 * @param {string[]} seeds
 * @param {string[]} hosts
 * @param {string} dir
 */
async function wget(seeds, hosts, dir) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const args = ['-r', '-l', 'inf', '-nv', '-H', '-D', hosts.join(','), '--delete-after', '-P', dir, ...seeds];
  const t0 = performance.now();
  /** @type {number | null} */
  const code = await new Promise((resolve) => {
    const child = execFile('wget', args, { maxBuffer: 64 * 1024 * 1024 }, () => resolve(child.exitCode));
  });
  const secs = (performance.now() - t0) / 1000;
  rmSync(dir, { recursive: true, force: true });
  return { secs, code };
}

/**
 * @param {{
 *   root: string,
 *   opensearchUrl: string,
 *   client: import('@opensearch-project/opensearch').Client,
 *   pids: Record<string, number | undefined>,
 *   sections: number,
 *   pages: number,
 *   log: (line: string) => void,
 * }} o
 * @returns {Promise<FewHostResult>}
 */
export async function fewHostBench(o) {
  const here = join(o.root, 'scripts/bench');
  /** @type {SiteSpec} */
  const site = { hosts: ['127.3.1.1', '127.3.1.2'], sections: o.sections, pages: o.pages };
  const total = site.hosts.length * site.sections * site.pages;
  const shape = siteShape(site);
  const dir = join(o.root, '.bench', 'fewhost');
  const clear = () => deleteBenchIndices(o.client);
  /** Starts a fresh server (fresh counters) and returns its origin maker, stats and stop. */
  async function start() {
    /** @type {(port: number) => void} */
    let listening = () => {};
    const { child, done } = runNode([join(here, 'fewhost.mjs'), 'serve', JSON.stringify(site)], {
      onLine: (stream, line) => {
        if (stream === 'out' && typeof line === 'object') listening(Number(line.port));
      },
    });
    /** @type {number} */
    const port = await new Promise((resolve, reject) => {
      listening = resolve;
      done.then(({ err }) => reject(new Error(`few-host site server ended: ${err.join('\n')}`)));
    });
    const seeds = site.hosts.map((h) => `http://${h}:${port}/s0/p0.html`);
    const stats = async () => {
      /** @type {HostStats[]} */
      const all = await Promise.all(
        site.hosts.map(
          async (h) => /** @type {HostStats} */ (await (await fetch(`http://${h}:${port}/__stats`)).json()),
        ),
      );
      return all.reduce((a, b) => ({
        requests: a.requests + b.requests,
        distinct: a.distinct + b.distinct,
        repeated: a.repeated + b.repeated,
        idleMs: a.idleMs + b.idleMs,
        bytes: a.bytes + b.bytes,
      }));
    };
    return { child, seeds, hosts: site.hosts.map((h) => `${h}`), stats, stop: () => child.kill('SIGTERM') };
  }
  o.log(
    `few hosts: ${site.hosts.length} hosts x ${site.sections * site.pages} pages of ${Math.round(shape.avgBytes / 1024)} KB, ` +
      `${Math.round(shape.avgLinks)} links each`,
  );
  // wget first: it warms nothing the crawler uses (its own process, no OpenSearch).
  let srv = await start();
  let wgetRun;
  try {
    const w = await wget(srv.seeds, srv.hosts, join(dir, 'wget'));
    const seen = await srv.stats();
    wgetRun = { secs: w.secs, pages: seen.distinct, code: w.code };
    o.log(`  wget -r: ${seen.distinct} pages in ${w.secs.toFixed(1)} s (exit ${w.code})`);
  } finally {
    srv.stop();
  }
  srv = await start();
  let crawl;
  let crawlServed;
  let commandSecs;
  try {
    await clear();
    const conf = writeConf(dir, o.opensearchUrl);
    const t0 = performance.now();
    const r = await crawlEndToEnd({
      root: o.root,
      conf: conf.path,
      seeds: srv.seeds,
      pids: { ...o.pids, web: srv.child.pid },
      log: o.log,
    });
    commandSecs = (performance.now() - t0) / 1000;
    crawlServed = await srv.stats();
    const idleWithWorkMs = r.idleWithWorkMs ?? Number.NaN;
    crawl = { ...r, idleWithWorkMs, idleShare: idleWithWorkMs / (r.secs * 1000 * site.hosts.length) };
    o.log(
      `  crawler: ${r.fetched} pages (${crawlServed.distinct} distinct, ${crawlServed.repeated} asked twice) in ` +
        `${r.secs.toFixed(1)} s; hosts idle with due URLs ${(idleWithWorkMs / 1000).toFixed(1)} host-s ` +
        `(${(crawl.idleShare * 100).toFixed(1)}%); ${r.msPerPage.crawler.toFixed(2)} CPU ms/page`,
    );
    await clear();
  } finally {
    srv.stop();
  }
  srv = await start();
  let peer;
  try {
    const concurrency = site.hosts.length;
    const p = /** @type {import('./peer.mjs').PeerResult} */ (
      (
        await runNode([
          join(here, 'peer.mjs'),
          JSON.stringify({ seeds: srv.seeds, concurrency, maxRequests: total * 2 }),
        ]).done
      ).out.findLast((l) => typeof l === 'object')
    );
    peer = { ...p, concurrency };
    o.log(`  Crawlee (${concurrency} connections): ${p.pages} pages in ${p.secs.toFixed(1)} s`);
  } finally {
    srv.stop();
  }
  return {
    hosts: site.hosts.length,
    pages: total,
    avgBytes: shape.avgBytes,
    avgLinks: shape.avgLinks,
    crawl,
    crawlServed,
    commandSecs,
    wget: wgetRun,
    peer,
  };
}

if (import.meta.url === `file://${process.argv[1]}` && process.argv[2] === 'serve') {
  /** @type {SiteSpec} */
  const site = JSON.parse(process.argv[3] ?? '{"hosts": ["127.3.1.1"], "sections": 2, "pages": 5}');
  const port = await serve(site);
  process.stdout.write(`${JSON.stringify({ port })}\n`);
  process.on('SIGTERM', () => process.exit(0));
}
