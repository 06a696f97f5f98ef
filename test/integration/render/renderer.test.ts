import { mkdtempSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildConfig } from '../../../src/config/load.js';
import { HttpProtocol } from '../../../src/protocol/http/client.js';
import { metadataOf } from '../../../src/protocol/types.js';
import { BrowserPool } from '../../../src/render/browser.js';
import { Renderer, RenderFailure } from '../../../src/render/renderer.js';
import type { SubrequestDeps } from '../../../src/render/subrequests.js';
import { loadURLFilters } from '../../../src/urlfilters/load.js';
import { Site } from '../../support/site.js';
import { requireChromium } from './support.js';

/*
 * One render at a time on the system's Chromium, one browser for the whole file: the document comes
 * from our bytes, every other request passes the gate (types, URL filters, address filter, cap).
 */

const A = '127.0.24.21';
const EXCLUDED = '127.0.24.29';
const site = new Site();
const log = pino({ level: 'silent' });
const dir = mkdtempSync(join(tmpdir(), 'render-filters-'));
const filtersFile = join(dir, 'urlfilters.json');
writeFileSync(
  filtersFile,
  JSON.stringify({
    'org.apache.stormcrawler.filtering.URLFilters': [
      {
        class: 'org.apache.stormcrawler.filtering.regex.RegexURLFilter',
        name: 'NoTrackers',
        params: { applyToSubrequests: true, urlFilters: ['-/tracker', '+.'] },
      },
    ],
  }),
);
const config = buildConfig([
  {
    source: 'test',
    entries: {
      'http.agent.name': 'renderbot',
      'http.filter.ipaddress.exclude': [EXCLUDED],
      'http.timeout': 3000,
      'urlfilters.config.file': filtersFile,
    },
  },
]).config;
const http = new HttpProtocol(config);
const reports: { page: string; url: string; code: number | undefined }[] = [];
let pool: BrowserPool;
let renderer: Renderer;

function gate(extra: Partial<SubrequestDeps> = {}): SubrequestDeps {
  return {
    fetch: (url, init, signal) => http.subrequest(url, init, signal),
    filter: loadURLFilters(config, { logger: log }),
    skipTypes: new Set(['image', 'font', 'media']),
    max: 20,
    report: (page, url, code) => void reports.push({ page, url, code }),
    ...extra,
  };
}

function newPool(extra: Partial<ConstructorParameters<typeof BrowserPool>[0]> = {}) {
  return new BrowserPool(
    {
      executable: requireChromium(),
      cdpUrl: '',
      remoteWs: '',
      userAgent: http.userAgent,
      pagesMax: 2,
      pageMaxRenders: 100,
      browserMaxRenders: 1000,
      sandbox: 'auto',
      ...extra,
    },
    log,
  );
}

const doc = (path: string, body: string) => ({
  url: `${site.origin(A)}${path}`,
  statusCode: 200,
  headers: { 'content-type': ['text/html; charset=utf-8'] },
  body: Buffer.from(body),
});

const json = (value: unknown) => (_n: number, _q: IncomingMessage, res: ServerResponse) =>
  res
    .writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': '*' })
    .end(JSON.stringify(value));

let excludedHits = 0;
/** Held API answers: the test decides when they go out. */
const held: (() => void)[] = [];

beforeAll(async () => {
  await site.start([A, EXCLUDED]);
  site.route(EXCLUDED, '/data', (_n, _q, res) => {
    excludedHits++;
    res.writeHead(200, { 'access-control-allow-origin': '*' }).end('{}');
  });
  site.route(A, '/data', json({ text: 'text from the api' }));
  site.route(A, '/tracker', json({}));
  site.route(A, '/busy', (_n, _q, res) => res.writeHead(503, { 'retry-after': '1' }).end());
  site.route(A, '/held', (_n, _q, res) => {
    held.push(() => json({ text: 'held text' })(0, _q, res));
  });
  site.route(A, '/pic.png', (_n, _q, res) => res.writeHead(200, { 'content-type': 'image/png' }).end('png'));
  pool = newPool();
  renderer = new Renderer(pool, gate(), { timeoutMs: 2000, loadEvent: 'load' });
  // A cold browser's first navigation (its renderer process starting) can take longer than the
  // 2-s deadline on a loaded machine; the tests below measure renders, not that start.
  await renderer.render(doc('/warm', '<!doctype html><p>warm</p>'), metadataOf());
}, 120_000);

afterAll(async () => {
  await renderer.close();
  await http.close();
  await site.close();
});

const script = (code: string) =>
  `<!doctype html><html><body><div id="root"></div><img src="/pic.png"><script>${code}</script></body></html>`;

describe('one render on the system Chromium', () => {
  it('serves the document from our bytes, fetches the data the script asks for, and blocks images', async () => {
    const before = site.hosts.get(A)!.requests.length;
    const page = await renderer.render(
      doc(
        '/app',
        script(
          "fetch('/data').then(r => r.json()).then(d => { document.getElementById('root').textContent = d.text; })",
        ),
      ),
      metadataOf(),
    );
    expect(page.outcome).toBe('rendered');
    expect(page.html).toContain('<div id="root">text from the api</div>');
    const asked = site.hosts
      .get(A)!
      .requests.slice(before)
      .map((r) => r.path);
    // The server saw the data request only: not the page (we had it), not the image.
    expect(asked).toEqual(['/data']);
    expect(site.hosts.get(A)!.requests.at(-1)!.userAgent).toBe(http.userAgent);
    expect(page.subrequests).toEqual({ fetched: 1, refused: 1, failed: 0 });
  });

  it('refuses a request to an excluded address and one the URL filters drop; neither leaves', async () => {
    const before = site.hosts.get(A)!.count('/tracker');
    const page = await renderer.render(
      doc(
        '/leaky',
        script(
          `fetch('${site.origin(EXCLUDED)}/data').catch(() => { document.title = 'excluded refused'; });` +
            "fetch('/tracker').catch(() => { document.body.dataset.tracker = 'refused'; });",
        ),
      ),
      metadataOf(),
    );
    expect(page.html).toContain('<title>excluded refused</title>');
    expect(page.html).toContain('data-tracker="refused"');
    expect(excludedHits).toBe(0);
    expect(site.hosts.get(A)!.count('/tracker')).toBe(before);
    expect(page.subrequests.refused).toBe(3);
  });

  it('refuses the requests of a page beyond playwright.subrequests.max', async () => {
    const capped = new Renderer(pool, gate({ max: 2 }), { timeoutMs: 2000, loadEvent: 'load' });
    const before = site.hosts.get(A)!.count('/data');
    const page = await capped.render(
      doc(
        '/many',
        script(
          "Promise.allSettled([1,2,3,4].map(i => fetch('/data?i=' + i))).then(r => { document.title = r.filter(x => x.status === 'fulfilled').length + ' answered'; });",
        ),
      ),
      metadataOf(),
    );
    expect(page.html).toContain('<title>2 answered</title>');
    expect(page.subrequests.fetched).toBe(2);
    expect(site.hosts.get(A)!.requests.filter((r) => r.path.startsWith('/data?i=')).length).toBe(2);
    expect(site.hosts.get(A)!.count('/data')).toBe(before);
  });

  it("reports each answer of the page's requests for its host's health (a 503 with Retry-After)", async () => {
    reports.length = 0;
    await renderer.render(doc('/busy-page', script("fetch('/busy').catch(() => {});")), metadataOf());
    expect(reports).toEqual([
      { page: `${site.origin(A)}/busy-page`, url: `${site.origin(A)}/busy`, code: 503 },
    ]);
  });

  it('waits for text a server sends late (2.5 s): the DOM is taken once requests and DOM settled', async () => {
    site.route(A, '/late', (_n, q, res) => {
      setTimeout(() => json({ text: 'late text' })(0, q, res), 2_500);
    });
    const patient = new Renderer(pool, gate(), { timeoutMs: 6000, loadEvent: 'load' });
    const page = await patient.render(
      doc(
        '/late-app',
        script(
          "fetch('/late').then(r => r.json()).then(d => { document.getElementById('root').textContent = d.text; })",
        ),
      ),
      metadataOf(),
    );
    expect(page.outcome).toBe('rendered');
    expect(page.html).toContain('<div id="root">late text</div>');
  });

  it('waits for text an XHR brings late (1.5 s)', async () => {
    site.route(A, '/late-xhr', (_n, q, res) => {
      setTimeout(() => json({ text: 'xhr text' })(0, q, res), 1_500);
    });
    const patient = new Renderer(pool, gate(), { timeoutMs: 6000, loadEvent: 'load' });
    const page = await patient.render(
      doc(
        '/xhr-app',
        script(
          "const x = new XMLHttpRequest(); x.open('GET', '/late-xhr');" +
            "x.onload = () => { document.getElementById('root').textContent = JSON.parse(x.responseText).text; };" +
            'x.send();',
        ),
      ),
      metadataOf(),
    );
    expect(page.outcome).toBe('rendered');
    expect(page.html).toContain('<div id="root">xhr text</div>');
  });

  it('fails a render whose body is still empty at the deadline with requests in flight (render timeout)', async () => {
    site.route(A, '/never-data', () => {
      // never answered
    });
    const rendering = renderer.render(
      doc(
        '/empty-app',
        script(
          "fetch('/never-data').then(r => r.json()).then(d => { document.getElementById('root').textContent = d.text; })",
        ),
      ),
      metadataOf(),
    );
    await expect(rendering).rejects.toBeInstanceOf(RenderFailure);
    await expect(rendering).rejects.toThrow(
      /^render timeout: the body was still empty after 2000 ms \(http\.timeout\), 1 of the page's requests in flight$/,
    );
  });

  it('keeps the DOM built so far when the page is not loaded by the deadline', async () => {
    site.route(A, '/slow.js', () => {
      // never answered
    });
    const page = await renderer.render(
      doc(
        '/slow',
        '<!doctype html><html><body><p id="before">built before</p>' +
          "<script>document.getElementById('before').textContent = 'built by script';</script>" +
          '<script src="/slow.js"></script><p>after the script</p></body></html>',
      ),
      metadataOf(),
    );
    expect(page.outcome).toBe('timeout');
    expect(page.html).toContain('built by script');
  });

  it('replaces a page whose script never yields, and renders the next one on a fresh page', async () => {
    const opened = pool.stats.pagesOpened;
    await expect(
      renderer.render(doc('/loop', script('while (true) {}')), metadataOf()),
    ).rejects.toBeInstanceOf(RenderFailure);
    const next = await renderer.render(doc('/after-loop', script("document.title = 'fine';")), metadataOf());
    expect(next.html).toContain('<title>fine</title>');
    expect(pool.stats.pagesOpened).toBeGreaterThan(opened);
  }, 30_000);

  it('renders again on a new browser when the browser is killed in the middle of a render', async () => {
    const launches = pool.stats.launches;
    const rendering = renderer.render(
      doc(
        '/held-page',
        script(
          "fetch('/held').then(r => r.json()).then(d => { document.getElementById('root').textContent = d.text; })",
        ),
      ),
      metadataOf(),
    );
    // Killed while its data request is held at the server.
    await waitFor(() => held.length > 0);
    process.kill(pool.pid!, 'SIGKILL');
    const answerHeld = () => {
      for (const answer of held.splice(0)) answer();
    };
    answerHeld();
    // The second attempt asks again; answered at once this time.
    const answering = setInterval(answerHeld, 20);
    try {
      const page = await rendering;
      expect(page.html).toContain('held text');
    } finally {
      clearInterval(answering);
    }
    expect(pool.stats.deaths).toBe(1);
    expect(pool.stats.launches).toBe(launches + 1);
    expect(renderer.stats.retried).toBe(1);
  }, 60_000);
});

describe('the page pool', () => {
  it('replaces a page after playwright.page.max.renders and the browser after playwright.browser.max.renders', async () => {
    const small = newPool({ pagesMax: 1, pageMaxRenders: 2, browserMaxRenders: 3 });
    const r = new Renderer(small, gate(), { timeoutMs: 2000, loadEvent: 'load' });
    try {
      for (let i = 0; i < 4; i++)
        await r.render(doc(`/n${i}`, script(`document.title = 't${i}';`)), metadataOf());
      // Renders 1-2 on page 1, 3 on page 2 (then the browser restarts), 4 on page 3 of browser 2.
      expect(small.stats).toMatchObject({ launches: 2, restarts: 1, pagesOpened: 3, deaths: 0 });
    } finally {
      await r.close();
    }
  }, 60_000);
});

async function waitFor(check: () => boolean, ms = 20_000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}
