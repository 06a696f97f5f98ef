// @ts-check
// The rendering profile: an app host whose pages are built by a script from fetch() of JSON (an
// empty root in the HTML, a ~40 KB script, the text and links in /api/<i>.json), beside plain
// hosts of ordinary HTML pages.
//
// 1. adaptive: `crawler run --once` with the defaults (no rule): which pages were rendered (the
//    share, and that the plain hosts got none), pages/s, CPU of the crawler and of the browser,
//    peak RSS of both;
// 2. every page of the app rendered (a protocol.delegator.config rule), against Crawlee's
//    PlaywrightCrawler on the same Chromium and pages (peer-render.mjs): rendered pages/s and CPU
//    per rendered page, crawler process plus browser processes;
// 3. the cost of the feature when no host needs it: the small synthetic web (web.mjs) crawled with
//    rendering on (the default) and off (render.adaptive: false), CPU per page.
//
//   npm run bench:render           (alone; OpenSearch from OPENSEARCH_URL or the local node)
//   node scripts/bench/render.mjs serve '{"address": "127.4.0.1", "appPages": 200, "plainHosts": 4, "plainPages": 200}'
//
// `serve` serves until killed and prints one JSON line {port, seeds} once it listens.

import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { crawlEndToEnd, deleteBenchIndices, writeBenchConf } from './crawl.mjs';
import { runNode } from './proc.mjs';

/** @typedef {{ appPages: number, plainHosts: number, plainPages: number }} RenderWebSpec */
/**
 * @typedef {{
 *   pages: number, rendered: number, secs: number, pagesPerSec: number,
 *   renderedPerSec: number, crawlerCpuSecs: number, browserCpuSecs: number,
 *   crawlerRssMb: number, browserRssMb: number, plainRendered: number, emptyPages?: number,
 * }} RenderRun
 */
/**
 * @typedef {{
 *   web: RenderWebSpec & { appBytes: number, scriptBytes: number, plainBytes: number },
 *   adaptive: RenderRun, forced: RenderRun, peer: import('./peer-render.mjs').PeerRenderResult,
 *   plainCost: { hosts: number, pages: number, on: { pages: number, msPerPage: number }, off: { pages: number, msPerPage: number } },
 * }} RenderResult
 */

const APP = '127.4.0.1';
const plainAddress = (/** @type {number} */ i) => `127.4.1.${i + 1}`;

/** A script of a realistic size: the app's bundle (most of it code that never runs). */
function appScript() {
  const filler = Array.from(
    { length: 400 },
    (_, i) => `function unused${i}(a, b) { return a.map((x) => x * ${i} + b).filter(Boolean).join(','); }`,
  ).join('\n');
  return `${filler}
(async () => {
  const i = location.pathname.split('/').pop();
  const page = await (await fetch('/api/' + i + '.json')).json();
  const root = document.getElementById('root');
  root.innerHTML = '<h1>' + page.title + '</h1>' + page.paragraphs.map((p) => '<p>' + p + '</p>').join('') +
    '<nav>' + page.links.map((l) => '<a href="' + l + '">' + l + '</a>').join(' ') + '</nav>';
})();
`;
}

/**
 * @param {number} i
 * @param {number} n
 */
function apiPage(i, n) {
  const links = [1, 2, 3, 5, 8].map((k) => `/app/${(i + k) % n}`);
  const paragraphs = Array.from(
    { length: 6 },
    (_, p) => `Paragraph ${p} of app page ${i}: ${'words the script puts on the page '.repeat(8)}`,
  );
  return Buffer.from(JSON.stringify({ title: `App page ${i}`, paragraphs, links }));
}

const shell = Buffer.from(
  '<!doctype html><html><head><meta charset="utf-8"><title>App</title>' +
    '<script src="/static/app.js" defer></script><link rel="icon" href="/favicon.png"></head>' +
    '<body><div id="root"></div><noscript>You need to enable JavaScript to run this app.</noscript></body></html>',
);

/**
 * @param {number} h
 * @param {number} i
 * @param {number} n
 * @param {number} hosts
 * @param {number} port
 */
function plainPage(h, i, n, hosts, port) {
  const links = [1, 2, 3, 7].map((k) => `/p/${(i + k) % n}`);
  // Some links to the other plain hosts, as a web of sites has.
  links.push(`http://${plainAddress((h + 1) % hosts)}:${port}/p/${(i * 7) % n}`);
  const text = `Plain page ${i} of host ${h}, written on the server. `.repeat(120);
  return Buffer.from(
    `<!doctype html><html><head><meta charset="utf-8"><title>Plain ${h}/${i}</title>` +
      '<script>window.dataLayer = [];</script></head>' +
      `<body><h1>Plain ${h}/${i}</h1><p>${text}</p><nav>${links.map((l) => `<a href="${l}">${l}</a>`).join(' ')}</nav></body></html>`,
  );
}

/**
 * Serves the app host and the plain hosts on one port.
 * @param {RenderWebSpec} spec
 */
async function serve(spec) {
  const script = Buffer.from(appScript());
  let port = 0;
  const handlers = [
    {
      address: APP,
      /** @type {(url: string) => [string, Buffer] | undefined} */
      route: (url) => {
        if (url === '/static/app.js') return ['text/javascript', script];
        let m = /^\/app\/(\d+)$/.exec(url);
        if (m && Number(m[1]) < spec.appPages) return ['text/html; charset=utf-8', shell];
        m = /^\/api\/(\d+)\.json$/.exec(url);
        if (m && Number(m[1]) < spec.appPages)
          return ['application/json', apiPage(Number(m[1]), spec.appPages)];
        return undefined;
      },
    },
    ...Array.from({ length: spec.plainHosts }, (_, h) => ({
      address: plainAddress(h),
      /** @type {(url: string) => [string, Buffer] | undefined} */
      route: (url) => {
        const m = /^\/p\/(\d+)$/.exec(url);
        if (m && Number(m[1]) < spec.plainPages)
          return [
            'text/html; charset=utf-8',
            plainPage(h, Number(m[1]), spec.plainPages, spec.plainHosts, port),
          ];
        return undefined;
      },
    })),
  ];
  for (const { address, route } of handlers) {
    const server = createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
      const url = req.url ?? '/';
      if (url === '/robots.txt') {
        res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
        return;
      }
      const hit = route(url);
      if (!hit) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        return;
      }
      res.writeHead(200, { 'content-type': hit[0], 'content-length': hit[1].length }).end(hit[1]);
    });
    await new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, address, () => resolve(undefined));
    });
    if (port === 0) port = /** @type {import('node:net').AddressInfo} */ (server.address()).port;
  }
  const seeds = [
    `http://${APP}:${port}/app/0`,
    ...handlers.slice(1).map((h) => `http://${h.address}:${port}/p/0`),
  ];
  return { port, seeds, scriptBytes: script.length, plainBytes: plainPage(0, 0, 10, 2, port).length };
}

/**
 * Resident memory of a process's descendants, bytes (the browser of a crawler process).
 * @param {number} root
 */
function descendantsRss(root) {
  /** @type {Map<number, number[]>} */
  const children = new Map();
  /** @type {Map<number, number>} */
  const rss = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const pid = Number(entry);
      const ppid = Number(f[1]);
      rss.set(pid, Number(f[21]) * 4096);
      children.set(ppid, [...(children.get(ppid) ?? []), pid]);
    } catch {
      // gone meanwhile
    }
  }
  let total = 0;
  const stack = [...(children.get(root) ?? [])];
  while (stack.length > 0) {
    const pid = /** @type {number} */ (stack.pop());
    total += rss.get(pid) ?? 0;
    stack.push(...(children.get(pid) ?? []));
  }
  return total;
}

/**
 * One `crawler run --once` of the render web, with peak RSS of the browser sampled from /proc and
 * the rendering summary line read.
 * @param {{ root: string, conf: string, seeds: string[], webPid: number | undefined, log: (l: string) => void }} o
 * @returns {Promise<RenderRun>}
 */
async function crawlRender(o) {
  let browserPeak = 0;
  /** @type {Record<string, any> | undefined} */
  let summary;
  let plainRendered = 0;
  const args = [join(o.root, 'dist/cli/main.js'), 'run', '--once', '--conf', o.conf];
  for (const s of o.seeds) args.push('--seed', s);
  /** @type {number | undefined} */
  let startAt;
  /** @type {Record<string, any> | undefined} */
  let stopped;
  const { child, done } = runNode(args, {
    env: { LOG_FORMAT: 'json', LOG_LEVEL: 'info' },
    onLine: (_s, v) => {
      if (typeof v !== 'object') return;
      if (v.msg === 'crawling') startAt = performance.now();
      if (v.msg === 'crawl stopped') stopped = { ...v, t: performance.now() };
      if (typeof v.msg === 'string' && v.msg.startsWith('rendering:')) summary = v;
      if (
        v.msg === 'transition' &&
        String(v.url).includes('127.4.1.') &&
        v.metadata &&
        typeof v.metadata === 'object'
      ) {
        if ('render.outcome' in /** @type {object} */ (v.metadata)) plainRendered++;
      }
      if (v.msg === 'progress') o.log(`  ${v.fetched} fetched, ${v.fetchedPerSec} pages/s`);
    },
  });
  const timer = setInterval(() => {
    if (child.pid) browserPeak = Math.max(browserPeak, descendantsRss(child.pid));
  }, 250);
  const { code, err } = await done;
  clearInterval(timer);
  if (code !== 0 || !stopped || startAt === undefined)
    throw new Error(
      `crawler run exited ${code}: ${err
        .slice(-5)
        .map((l) => JSON.stringify(l))
        .join('\n')}`,
    );
  const secs = (stopped.t - startAt) / 1000;
  const rendered = Number(summary?.renders ?? 0);
  return {
    pages: Number(stopped.fetched),
    rendered,
    secs,
    pagesPerSec: Number(stopped.fetched) / secs,
    renderedPerSec: rendered / secs,
    crawlerCpuSecs: (Number(stopped.cpuUserMs) + Number(stopped.cpuSystemMs)) / 1000,
    browserCpuSecs: Number(summary?.browser?.cpuMs ?? Number.NaN) / 1000,
    crawlerRssMb: Number(stopped.maxRssMb),
    browserRssMb: Math.round(browserPeak / 2 ** 20),
    plainRendered,
  };
}

/**
 * @param {{
 *   root: string,
 *   opensearchUrl: string,
 *   client: import('@opensearch-project/opensearch').Client,
 *   quick: boolean,
 *   log: (line: string) => void,
 * }} o
 * @returns {Promise<RenderResult>}
 */
export async function renderBench(o) {
  const here = join(o.root, 'scripts/bench');
  const spec = o.quick
    ? { appPages: 40, plainHosts: 2, plainPages: 60 }
    : { appPages: Number(process.env.BENCH_RENDER_APP_PAGES ?? 200), plainHosts: 4, plainPages: 200 };
  /** @type {(info: any) => void} */
  let listening = () => {};
  const web = runNode([join(here, 'render.mjs'), 'serve', JSON.stringify(spec)], {
    onLine: (stream, line) => {
      if (stream === 'out' && typeof line === 'object') listening(line);
    },
  });
  /** @type {{ port: number, seeds: string[], scriptBytes: number, plainBytes: number }} */
  const info = await new Promise((resolve, reject) => {
    listening = resolve;
    web.done.then(({ err }) => reject(new Error(`render web ended: ${err.join('\n')}`)));
  });
  const clear = () => deleteBenchIndices(o.client);
  const dir = join(o.root, '.bench', 'render');
  const base = {
    opensearchUrl: o.opensearchUrl,
    concurrency: 16,
    hosts: spec.plainHosts + 1,
  };
  const { KEYS } = await import(join(o.root, 'dist/config/schema.js'));
  const common = {
    'opensearch.hosts.index.name': 'bench-hosts',
    // Transition lines carry the kept render.outcome: the plain hosts' pages must have none.
    'metadata.persist': [...KEYS['metadata.persist'].default, 'render.*'],
  };
  try {
    o.log(
      `rendering: an app host of ${spec.appPages} script-built pages beside ${spec.plainHosts} plain hosts x ${spec.plainPages} pages`,
    );
    await clear();
    const adaptiveConf = writeBenchConf(join(dir, 'adaptive'), o.root, { ...base, extra: common });
    const adaptive = await crawlRender({
      root: o.root,
      conf: adaptiveConf.path,
      seeds: info.seeds,
      webPid: web.child.pid,
      log: o.log,
    });
    o.log(
      `  adaptive: ${adaptive.pages} pages in ${adaptive.secs.toFixed(1)} s, ${adaptive.rendered} rendered ` +
        `(${adaptive.plainRendered} of the plain hosts); crawler ${adaptive.crawlerCpuSecs.toFixed(1)} CPU s, browser ${adaptive.browserCpuSecs.toFixed(1)}`,
    );
    await clear();
    o.log('  the app alone, every page rendered (a protocol.delegator.config rule)');
    const forcedConf = writeBenchConf(join(dir, 'forced'), o.root, {
      ...base,
      extra: { ...common, 'protocol.delegator.config': [{ className: 'playwright' }] },
    });
    const forced = await crawlRender({
      root: o.root,
      conf: forcedConf.path,
      seeds: [/** @type {string} */ (info.seeds[0])],
      webPid: web.child.pid,
      log: o.log,
    });
    // A page indexed without the text its script fetched was taken before its data came.
    await o.client.indices.refresh({ index: 'bench-content' });
    const empty = await o.client.count({
      index: 'bench-content',
      body: {
        query: { bool: { must_not: { match_phrase: { content: 'words the script puts on the page' } } } },
      },
    });
    forced.emptyPages = Number(empty.body.count);
    o.log(
      `  forced: ${forced.rendered} rendered in ${forced.secs.toFixed(1)} s; crawler ${forced.crawlerCpuSecs.toFixed(1)} CPU s, browser ${forced.browserCpuSecs.toFixed(1)}; ${forced.emptyPages} indexed without their text`,
    );
    await clear();
    o.log('  peer: Crawlee PlaywrightCrawler on the same app and Chromium');
    const peer = /** @type {import('./peer-render.mjs').PeerRenderResult} */ (
      (
        await runNode([
          join(here, 'peer-render.mjs'),
          JSON.stringify({ seeds: [info.seeds[0]], concurrency: 4, maxRequests: spec.appPages }),
        ]).done
      ).out.findLast((l) => typeof l === 'object')
    );
    o.log(
      `  Crawlee: ${peer.pages} pages in ${peer.secs.toFixed(1)} s; ${peer.cpuSecs.toFixed(1)} CPU s with its browser`,
    );
    const plainCost = await plainCostAB(o, here, dir);
    return {
      web: { ...spec, appBytes: shell.length, scriptBytes: info.scriptBytes, plainBytes: info.plainBytes },
      adaptive,
      forced,
      peer,
      plainCost,
    };
  } finally {
    web.child.kill('SIGTERM');
    await clear();
  }
}

/**
 * The small synthetic web (web.mjs) crawled with rendering on (the default: pages are scanned for
 * signs, no browser starts) and off: the CPU per page the feature costs when no host needs it.
 * @param {{ root: string, opensearchUrl: string, client: import('@opensearch-project/opensearch').Client, quick: boolean, log: (l: string) => void }} o
 * @param {string} here
 * @param {string} dir
 */
async function plainCostAB(o, here, dir) {
  const hosts = o.quick ? 5 : 10;
  const pages = o.quick ? 200 : 1000;
  /** @type {(info: any) => void} */
  let listening = () => {};
  const web = runNode(
    [join(here, 'web.mjs'), '--profile', 'small', '--hosts', String(hosts), '--pages', String(pages)],
    {
      onLine: (stream, line) => {
        if (stream === 'out' && typeof line === 'object') listening(line);
      },
    },
  );
  /** @type {{ seeds: string[] }} */
  const info = await new Promise((resolve, reject) => {
    listening = resolve;
    web.done.then(({ err }) => reject(new Error(`web server ended: ${err.join('\n')}`)));
  });
  const clear = () => deleteBenchIndices(o.client);
  try {
    /** @type {Record<'on' | 'off', { pages: number, msPerPage: number }>} */
    const out = { on: { pages: 0, msPerPage: 0 }, off: { pages: 0, msPerPage: 0 } };
    // Twice each, alternating, on a busy machine: the lower figure of each.
    for (const round of [0, 1]) {
      for (const mode of /** @type {const} */ (['off', 'on'])) {
        await clear();
        const extra = {
          'opensearch.hosts.index.name': 'bench-hosts',
          ...(mode === 'off' ? { 'render.adaptive': false } : {}),
        };
        const conf = writeBenchConf(join(dir, `plain-${mode}`), o.root, {
          opensearchUrl: o.opensearchUrl,
          concurrency: 50,
          hosts,
          extra,
        });
        const r = await crawlEndToEnd({ root: o.root, conf: conf.path, seeds: info.seeds, pids: {} });
        const ms = r.msPerPage.crawler;
        if (round === 0 || ms < out[mode].msPerPage) out[mode] = { pages: r.fetched, msPerPage: ms };
        o.log(`  plain web, rendering ${mode}: ${r.fetched} pages, ${ms.toFixed(2)} CPU ms per page`);
      }
    }
    return { hosts, pages, ...out };
  } finally {
    web.child.kill('SIGTERM');
    await clear();
  }
}

if (import.meta.url === `file://${process.argv[1]}` && process.argv[2] === 'serve') {
  /** @type {RenderWebSpec} */
  const spec = JSON.parse(process.argv[3] ?? '{}');
  const served = await serve(spec);
  process.stdout.write(`${JSON.stringify(served)}\n`);
  process.on('SIGTERM', () => process.exit(0));
}

// Alone: `npm run bench:render` (node scripts/bench/render.mjs).
if (import.meta.url === `file://${process.argv[1]}` && process.argv[2] === undefined) {
  const { Client } = await import('@opensearch-project/opensearch');
  const { resolve, dirname } = await import('node:path');
  const { fileURLToPath } = await import('node:url');
  const { renderReport } = await import('./report-render.mjs');
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
  const opensearchUrl = process.env.OPENSEARCH_URL ?? 'http://127.0.0.1:9200';
  const client = new Client({ node: opensearchUrl });
  const started = Date.now();
  const log = (/** @type {string} */ l) =>
    console.log(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${l}`);
  try {
    const r = await renderBench({ root, opensearchUrl, client, quick: process.env.BENCH_QUICK === '1', log });
    const md = renderReport(r);
    writeFileSync(join(root, '.bench', 'render', 'RESULT.md'), md);
    console.log(`\n${md}`);
  } finally {
    await client.close();
  }
}
