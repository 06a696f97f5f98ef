import { mkdtempSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCrawl } from '../../../src/app/compose.js';
import { buildConfig } from '../../../src/config/load.js';
import {
  contentDocs,
  crawler,
  fastCrawlSettings,
  persistAlso,
  statusDocs,
  testClient,
  writeConf,
} from '../../support/crawl.js';
import { deleteIndices, uniqueIndexNames } from '../../support/opensearch.js';
import { robots, Site } from '../../support/site.js';
import { readWarc, warcFiles } from '../../support/warc.js';
import { requireChromium } from './support.js';

/*
 * Whole crawls on OpenSearch with the system's Chromium: an app whose text and links come from
 * fetch() of JSON, crawled with no rule configured (adaptive), beside a plain host.
 */

const APP = '127.0.24.1';
const PLAIN = '127.0.24.2';
/** A host the app's script calls, on an address the crawl excludes. */
const SECRET = '127.0.24.9';
/** An app whose browser is killed during the crawl. */
const KILL = '127.0.24.3';
const KILL_PAGES = ['/k0', '/k1', '/k2', '/k3', '/k4'];
const site = new Site();
const created: string[] = [];

const APP_PAGES = ['/', '/a', '/b', '/c', '/d', '/e', '/f'];
/** The app page whose data the server answers SLOW_API_MS late. */
const SLOW_API_PAGE = '/d';
const SLOW_API_MS = 1_500;
const words = (n: number, seed: string) =>
  Array.from({ length: n }, (_, i) => `${seed}${i % 7 === 0 ? '.' : ''}`).join(' ');

/** The app's shell: nothing in it but a root, a script and an image. */
const shell = (secret: string) => (_n: number, _q: IncomingMessage, res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(
    '<!doctype html><html><head><title>App</title>' +
      `<script>window.SECRET = ${JSON.stringify(secret)};</script>` +
      '<script src="/app.js" defer></script></head>' +
      '<body><div id="root"></div><img src="/logo.png" alt=""></body></html>',
  );
};

/** Builds the page from /api/page?path=...; also calls the excluded host (which must never see it). */
const APP_JS = `
fetch(window.SECRET + '/leak').catch(() => {});
fetch('/api/page?path=' + encodeURIComponent(location.pathname))
  .then((r) => r.json())
  .then((p) => {
    const root = document.getElementById('root');
    root.innerHTML = '<h1>' + p.title + '</h1><p>' + p.text + '</p>' +
      p.links.map((l) => '<a href="' + l + '">' + l + '</a>').join(' ');
  });
`;

function apiPage(path: string) {
  const i = Math.max(0, APP_PAGES.indexOf(path));
  const next = [APP_PAGES[(i + 1) % APP_PAGES.length]!, APP_PAGES[(i + 2) % APP_PAGES.length]!];
  // The last app page links to the page that never finishes loading.
  if (path === '/f') next.push('/hang');
  return { title: `App page ${path}`, text: `${words(80, `appword${i}`)} rendered-only-text`, links: next };
}

const PLAIN_PAGES = ['/', '/p1', '/p2', '/p3', '/p4', '/p5'];
const plainPage = (path: string) => (_n: number, _q: IncomingMessage, res: ServerResponse) => {
  const i = PLAIN_PAGES.indexOf(path);
  const links = [PLAIN_PAGES[(i + 1) % PLAIN_PAGES.length], PLAIN_PAGES[(i + 2) % PLAIN_PAGES.length]];
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(
    `<!doctype html><html><head><title>Plain ${path}</title><script>var analytics = 1;</script></head>` +
      `<body><h1>Plain ${path}</h1><p>${words(60, 'plainword')}</p>` +
      links.map((l) => `<a href="${l}">${l}</a>`).join(' ') +
      '</body></html>',
  );
};

let secretHits = 0;

beforeAll(async () => {
  requireChromium();
  await site.start([APP, PLAIN, SECRET, KILL]);
  const secret = site.origin(SECRET);
  site.route(SECRET, '/leak', (_n, _q, res) => {
    secretHits++;
    res.writeHead(200, { 'access-control-allow-origin': '*' }).end('secret');
  });
  site.route(APP, '/robots.txt', robots('User-agent: *\nAllow: /\n'));
  site.route(PLAIN, '/robots.txt', robots('User-agent: *\nAllow: /\n'));
  for (const p of APP_PAGES) site.route(APP, p, shell(secret));
  site.route(APP, '/app.js', (_n, _q, res) => {
    res.writeHead(200, { 'content-type': 'text/javascript' }).end(APP_JS);
  });
  site.route(APP, '/logo.png', (_n, _q, res) =>
    res.writeHead(200, { 'content-type': 'image/png' }).end('png'),
  );
  for (const p of APP_PAGES)
    site.route(APP, `/api/page?path=${encodeURIComponent(p)}`, (_n, _q, res) => {
      const answer = () =>
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(apiPage(p)));
      // One page's data comes late, as from a slow API: its render must wait for it.
      if (p === SLOW_API_PAGE) setTimeout(answer, SLOW_API_MS);
      else answer();
    });
  // A page that never finishes loading: its links are in the DOM at once, a script never comes.
  site.route(APP, '/hang', (_n, _q, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(
      '<!doctype html><html><body><div id="root"></div>' +
        '<script>document.getElementById("root").innerHTML = "<p>' +
        words(60, 'hangword') +
        '</p><a href=\\"/after-hang\\">after</a>";</script>' +
        '<script src="/never.js"></script></body></html>',
    );
  });
  site.route(APP, '/never.js', () => {
    // Never answered: the render's deadline ends it.
  });
  site.route(APP, '/after-hang', shell(secret));
  site.route(APP, `/api/page?path=${encodeURIComponent('/after-hang')}`, (_n, _q, res) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(apiPage('/after-hang')));
  });
  for (const p of PLAIN_PAGES) site.route(PLAIN, p, plainPage(p));
});

afterAll(async () => {
  await site.close();
  await deleteIndices(...created);
});

function settingsFor(label: string, extra: Record<string, unknown> = {}) {
  const names = uniqueIndexNames(label);
  const hosts = `${names.status}-hosts`;
  created.push(names.status, names.content, hosts);
  return {
    names,
    hosts,
    settings: {
      ...fastCrawlSettings(names),
      'opensearch.hosts.index.name': hosts,
      'http.filter.ipaddress.exclude': [SECRET],
      'http.timeout': 4000,
      'fetcher.threads.number': 4,
      'metadata.persist': persistAlso('render.*', 'fetch.exception'),
      // A page is asked for once: no second fetch before the index shows the first (a busy node).
      'spout.ttl.purgatory': 10,
      ...extra,
    },
  };
}

async function crawl(
  settings: Record<string, unknown>,
  seeds: string[],
  during?: (c: Awaited<ReturnType<typeof buildCrawl>>) => void,
) {
  const lines: Record<string, unknown>[] = [];
  const debug = process.env.RENDER_DEBUG !== undefined;
  const log = pino(
    { level: debug ? 'debug' : 'info' },
    {
      write: (s: string) => {
        lines.push(JSON.parse(s));
        if (debug) process.stderr.write(s);
      },
    },
  );
  const c = await buildCrawl(buildConfig([{ source: 'test', entries: settings }]).config, { log, seeds });
  during?.(c);
  try {
    await c.crawler.run({ once: true, drainDeadlineMs: 20_000 });
  } finally {
    await c.close();
  }
  return { lines, crawl: c };
}

describe('rendering in a crawl, with no rule configured (adaptive)', () => {
  it('crawls the app whole from its rendered DOM, asks the server once per page, loads no image, never reaches the excluded address, and leaves the plain host alone', async () => {
    const warcDir = mkdtempSync(join(tmpdir(), 'render-warc-'));
    const { names, hosts, settings } = settingsFor('render-app', {
      'warc.enabled': true,
      'warc.dir': warcDir,
    });
    const app = site.origin(APP);
    const plain = site.origin(PLAIN);
    const { lines } = await crawl(settings, [`${app}/`, `${plain}/`]);

    const docs = await statusDocs(names.status);
    // The whole app was found: every page, the one that never finishes and the page it links to.
    for (const p of [...APP_PAGES, '/hang', '/after-hang'])
      expect(docs.get(`${app}${p}`)?.status, `${p}`).toBe('FETCHED');
    for (const p of PLAIN_PAGES) expect(docs.get(`${plain}${p}`)?.status, `${p}`).toBe('FETCHED');

    // Its text was indexed: it exists only in the JSON the page's script fetched.
    const content = [...(await contentDocs(names.content)).values()];
    const appText = content.filter(
      (c) => String(c.url).startsWith(app) && String(c.content).includes('rendered-only-text'),
    );
    expect(appText.length).toBeGreaterThanOrEqual(APP_PAGES.length - 1);
    // The page whose data came 1.5 s late was indexed with it, not empty.
    const slow = content.find((c) => c.url === `${app}${SLOW_API_PAGE}`);
    expect(String(slow?.content)).toContain('rendered-only-text');
    expect(docs.get(`${app}${SLOW_API_PAGE}`)?.metadata['render.outcome']).toEqual(['rendered']);

    // Each main document was asked for once; no image at all; the excluded host never.
    const host = site.hosts.get(APP)!;
    for (const p of [...APP_PAGES, '/hang', '/after-hang']) expect(host.count(p), p).toBe(1);
    expect(host.count('/logo.png')).toBe(0);
    expect(secretHits).toBe(0);

    // The page that never finished loading ended with the DOM it had within the timeout.
    const hang = docs.get(`${app}/hang`)!;
    expect(hang.metadata['render.outcome']).toEqual(['timeout']);
    expect(host.count('/never.js')).toBe(1);

    // The plain host: never rendered (it shows no sign, so not even a sample).
    for (const p of PLAIN_PAGES) expect(docs.get(`${plain}${p}`)!.metadata['render.outcome']).toBeUndefined();

    // The decision is kept in the hosts index: the app host renders, the plain host has none.
    const client = testClient();
    try {
      const a = await client.get({ index: hosts, id: APP });
      expect((a.body._source as { render: { decision: string; signal: string } }).render).toMatchObject({
        decision: 'render',
        signal: 'empty-root:root',
      });
      const b = await client.get({ index: hosts, id: PLAIN }, { ignore: [404] });
      expect((b.body as { found?: boolean }).found).toBe(false);
    } finally {
      await client.close();
    }

    // WARC keeps the server's bytes (the empty shell), not the DOM.
    const records = (await Promise.all(warcFiles(warcDir).map(readWarc))).flat();
    const home = records.find((r) => r.type === 'response' && r.uri === `${app}/a`)!;
    expect(home.payload.toString()).toContain('<div id="root"></div>');
    expect(home.payload.toString()).not.toContain('rendered-only-text');
    expect(lines.some((l) => String(l.msg).startsWith('rendering:'))).toBe(true);

    // Operators see the decision: crawler url for a page of the host, crawler stats for all hosts.
    const conf = writeConf(settings);
    const url = await crawler('url', `${app}/a`, '--conf', conf);
    expect(url.out).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^  rendering: host ${APP}: rendered since .*samples gained by rendering \\(sign empty-root:root`,
        ),
      ),
    );
    expect(url.out).toContain('    render.outcome = rendered');
    const stats = await crawler('stats', '--conf', conf);
    expect(stats.out).toContain('  rendering: hosts render 1');
    expect(stats.out).toContainEqual(expect.stringMatching(new RegExp(`^    ${APP}  \\(`)));
  }, 120_000);
});

describe('a browser that dies in the middle of a crawl', () => {
  it('is started again, and the crawl ends with every URL written (none lost)', async () => {
    const { names, settings } = settingsFor('render-kill', {
      // Every page is rendered, by a rule: no samples, no adaptive choice.
      'protocol.delegator.config': [{ className: 'playwright' }],
    });
    const app = site.origin(KILL);
    let pid: () => number | undefined = () => undefined;
    let killed = 0;
    site.route(KILL, '/robots.txt', robots('User-agent: *\nAllow: /\n'));
    for (const p of KILL_PAGES) {
      site.route(KILL, p, shell(site.origin(SECRET)));
      site.route(KILL, `/api/page?path=${encodeURIComponent(p)}`, (_n, _q, res) => {
        // The third page's data request kills the browser before it is answered.
        if (p === KILL_PAGES[2] && killed === 0 && pid() !== undefined) {
          killed++;
          process.kill(pid()!, 'SIGKILL');
        }
        const i = KILL_PAGES.indexOf(p);
        const links = KILL_PAGES.slice(i + 1, i + 3);
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ title: p, text: words(50, 'killword'), links }));
      });
    }
    site.route(KILL, '/app.js', (_n, _q, res) =>
      res.writeHead(200, { 'content-type': 'text/javascript' }).end(APP_JS),
    );
    const { lines } = await crawl(settings, [`${app}${KILL_PAGES[0]}`], (c) => {
      pid = () => c.rendering.renderer?.pool.pid;
    });
    expect(killed).toBe(1);
    const docs = await statusDocs(names.status);
    for (const p of KILL_PAGES) expect(docs.get(`${app}${p}`)?.status, p).toBe('FETCHED');
    const summary = lines.find((l) => String(l.msg).startsWith('rendering:')) as {
      browser: { launches: number; deaths: number };
      retried: number;
    };
    expect(summary.browser).toMatchObject({ launches: 2, deaths: 1 });
    expect(summary.retried).toBeGreaterThanOrEqual(1);
  }, 120_000);
});
