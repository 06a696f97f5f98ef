import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/run.js';
import { until } from '../../support/child.js';
import { crawler, fastCrawlSettings, testClient, writeConf } from '../../support/crawl.js';
import { deleteIndices, uniqueIndexNames } from '../../support/opensearch.js';
import { freePort } from '../../support/prometheus.js';
import { page, robots, Site } from '../../support/site.js';

// The live console in a real browser (Debian's chromium, driven by playwright-core) while a loopback
// crawl runs: rates and counts change, a URL carrying <script> shows as text and runs nothing; and
// without the token, or by another Host, nothing is served. The screenshot is kept in
// test-artifacts/ (git-ignored).

const ARTIFACTS = fileURLToPath(new URL('../../../test-artifacts/', import.meta.url));
const site = new Site();
const H = '127.0.8.1';
const CHAIN = 25;
const TOKEN = 'console-test-token-0123456789';
const XSS = '/q?x=<script>window.__pwned=1</script><img src=x onerror="window.__pwned=2">';
const names = uniqueIndexNames('console');
/** /c3 is answered only once the page is open, so that the page sees the crawl move on. */
let release!: () => void;
const gate = new Promise<void>((resolve) => {
  release = resolve;
});
/** /c12 is held until the console's counts are checked: the status index stands still meanwhile. */
const HELD = 12;
let releaseHeld!: () => void;
const held = new Promise<void>((resolve) => {
  releaseHeld = resolve;
});

beforeAll(async () => {
  await site.start([H]);
  site.route(H, '/robots.txt', robots('User-agent: *\nAllow: /\n'));
  // A chain of slow pages, so the crawl lasts a few seconds; its last page links to a URL that
  // carries a script in its query.
  for (let i = 0; i < CHAIN; i++) {
    const answer = page(`chain ${i}`, [i + 1 < CHAIN ? `/c${i + 1}` : XSS]);
    site.route(H, `/c${i}`, (n, req, res) => {
      const later = () => setTimeout(() => answer(n, req, res), 150);
      if (i === 3) void gate.then(later);
      else if (i === HELD) void held.then(later);
      else later();
    });
  }
  const xss = page('<script>window.__pwned=4</script>');
  site.route(H, encodeURI(XSS).replace(/'/g, '%27'), xss);
  site.route(
    H,
    '/q?x=%3Cscript%3Ewindow.__pwned=1%3C/script%3E%3Cimg%20src=x%20onerror=%22window.__pwned=2%22%3E',
    xss,
  );
}, 60_000);

afterAll(async () => {
  await site.close();
  await deleteIndices(names.status, names.content, `${names.status}-m-*`);
});

/** A request with the Host header and token given (fetch() does not let a page set Host). */
function get(port: number, path: string, headers: Record<string, string> = {}, method = 'GET') {
  return new Promise<{ status: number; headers: Record<string, unknown> }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the live console', () => {
  it('in Chromium: rates and counts change during a crawl; a <script> URL is text; token and Host are enforced', async () => {
    const port = await freePort();
    const conf = writeConf({
      ...fastCrawlSettings(names),
      'opensearch.metrics.index.name': `${names.status}-m`,
      'console.port': port,
      'console.token': TOKEN,
      // /c3 is held until the page is open.
      'http.timeout': 120_000,
    });
    const said: string[] = [];
    const run = main(['run', '--conf', conf, '--seed', `${site.origin(H)}/c0`, '--log-level', 'silent'], {
      out: () => {},
      err: (l) => said.push(l),
    });
    let ended = false;
    void run.finally(() => {
      ended = true;
    });
    const profile = mkdtempSync(join(tmpdir(), 'console-chromium-'));
    const browser = await chromium.launchPersistentContext(profile, {
      executablePath: '/usr/bin/chromium',
      headless: true,
      args: [
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
      await until(
        async () => (await get(port, '/').catch(() => undefined)) !== undefined,
        60_000,
        'the console',
      );

      // Without the token every path answers 401; a wrong token too; by another Host, nothing.
      const bearer = { authorization: `Bearer ${TOKEN}` };
      for (const path of [
        '/',
        '/console.js',
        '/console.css',
        '/api/state',
        '/api/chart',
        '/api/url?url=http://a.b/',
        '/metrics',
        '/nothing',
        `/?token=${TOKEN}x`,
      ]) {
        const r = await get(port, path);
        expect(r.status, path).toBe(401);
        expect(r.headers['access-control-allow-origin'], path).toBeUndefined();
      }
      expect((await get(port, '/api/state', { authorization: 'Bearer nope' })).status).toBe(401);
      expect((await get(port, '/api/state', { ...bearer, host: `attacker.example:${port}` })).status).toBe(
        421,
      );
      expect((await get(port, '/api/state', { ...bearer, host: `127.0.0.1:${port + 1}` })).status).toBe(421);
      expect((await get(port, '/api/state', bearer, 'POST')).status).toBe(405);
      const ok = await get(port, '/api/state', bearer);
      expect(ok.status).toBe(200);
      expect(ok.headers['access-control-allow-origin']).toBeUndefined();
      expect(String(ok.headers['content-security-policy'])).toContain("script-src 'self'");

      const tab = await browser.newPage();
      const errors: string[] = [];
      tab.on('pageerror', (e) => errors.push(e.message));
      // Every answer of 300 or more the page gets (a favicon once answered 303, then 404).
      const failed: string[] = [];
      tab.on('response', (r) => {
        if (r.status() >= 300 && !r.url().includes('?token=')) failed.push(`${r.status()} ${r.url()}`);
      });
      await tab.goto(`http://127.0.0.1:${port}/?token=${TOKEN}`);
      // The token became a cookie, and left the address bar.
      expect(tab.url()).toBe(`http://127.0.0.1:${port}/`);
      const fetched = async () => Number((await tab.textContent('#fetched'))?.replace(/,/g, '') || 'NaN');
      const fetchedRun = async () =>
        (
          await tab.$$eval('#status-counts tbody tr', (rows) =>
            rows.map((r) => r.children[2]?.textContent ?? ''),
          )
        ).join('|');
      await until(async () => (await fetched()) > 0, 60_000, 'pages fetched on the page');
      const first = await fetched();
      const firstCounts = await fetchedRun();
      release();
      // Watched from the release on: the crawl stands still at /c12 a few pages later, and "now" is
      // the last 10 s, so the rate is above 0 only while c4..c11 are fetched and a little after.
      const rateSeen = until(
        async () => Number(await tab.textContent('#rate-now')) > 0,
        60_000,
        'a rate now',
      );
      await until(async () => (await fetched()) > first, 60_000, 'the count to change');
      await until(async () => (await fetchedRun()) !== firstCounts, 60_000, 'status counts to change');
      await rateSeen;
      // The status index, counted at start-up by this one process.
      await until(
        async () => /\d/.test((await tab.textContent('#due')) ?? ''),
        60_000,
        'status index counts',
      );

      // Held at /c12, the crawl has acknowledged c0..c11 FETCHED. The console's count of the status
      // index follows within seconds (it counts again while watched), not at the next minute, and
      // says how old it is; it matches what the index itself says.
      const cells = async (col: number) =>
        Object.fromEntries(
          await tab.$$eval(
            '#status-counts tbody tr',
            (rows, c) =>
              rows.map((r) => [r.children[0]?.textContent ?? '', r.children[c]?.textContent ?? '']),
            col,
          ),
        ) as Record<string, string>;
      await until(async () => (await cells(2)).FETCHED === String(HELD), 90_000, `${HELD} FETCHED this run`);
      const client = testClient();
      await client.indices.refresh({ index: names.status });
      const inIndex = (
        await client.count({ index: names.status, body: { query: { term: { status: 'FETCHED' } } } })
      ).body.count;
      await client.close();
      expect(inIndex).toBe(HELD);
      const heldAt = Date.now();
      await until(
        async () => (await cells(1)).FETCHED === String(HELD),
        30_000,
        'the index count on the page',
      );
      const waited = Date.now() - heldAt;
      const age = /^\(counted (\d+) s ago\)$/.exec((await tab.textContent('#counted')) ?? '');
      expect(age, 'the age of the counts').not.toBeNull();
      expect(Number(age![1])).toBeLessThanOrEqual(Math.ceil(waited / 1000) + 10);
      releaseHeld();

      // The crawled URL that carries a script: shown as text, nothing ran.
      await until(
        async () =>
          (await tab.$$eval('#transitions td.url', (c) => c.map((x) => x.textContent ?? ''))).some((t) =>
            t.includes('script'),
          ),
        90_000,
        'the <script> URL in the transitions',
      );
      expect(await tab.evaluate('window.__pwned')).toBeUndefined();
      expect(await tab.$$eval('#transitions script, #transitions img, main script', (x) => x.length)).toBe(0);

      // "Explain one URL" says what `crawler url` prints, and echoes what was typed, raw <script>
      // included, as text.
      await tab.fill('#explain-url', `${site.origin(H)}/q?x=<script>window.__pwned=3</script>`);
      await tab.click('#explain button');
      await until(
        async () => ((await tab.textContent('#explain-out')) ?? '').includes('rendering:'),
        30_000,
        'the explanation',
      );
      const explained = (await tab.textContent('#explain-out')) ?? '';
      expect(explained).toContain('<script>window.__pwned=3</script>');
      expect(explained).toContain('\n  not in the status index\n');
      expect(await tab.$$eval('#explain-out *', (x) => x.length)).toBe(0);
      expect(await tab.evaluate('window.__pwned')).toBeUndefined();
      // A crawled URL: the same lines as `crawler url URL`.
      const c1 = `${site.origin(H)}/c1`;
      await tab.fill('#explain-url', c1);
      await tab.click('#explain button');
      await until(
        async () => ((await tab.textContent('#explain-out')) ?? '').startsWith(`${c1}\n  status FETCHED`),
        30_000,
        'the explanation of a fetched URL',
      );
      const printed = await crawler('url', c1, '--conf', conf);
      expect(printed.code).toBe(0);
      const shown = ((await tab.textContent('#explain-out')) ?? '').split('\n');
      // Both say when it is due in minutes from their own "now": the lines but that one agree.
      const same = (lines: string[]) => lines.filter((l) => !l.startsWith('  status '));
      expect(same(shown)).toEqual(same(printed.out));
      expect(errors).toEqual([]);

      // The icon the page links, and the one browsers ask for on their own.
      expect(await tab.evaluate(async () => (await fetch('/favicon.ico')).status)).toBe(200);
      expect(failed).toEqual([]);

      mkdirSync(ARTIFACTS, { recursive: true });
      release();
      await tab.screenshot({ path: join(ARTIFACTS, 'console.png'), fullPage: true });
    } finally {
      release();
      releaseHeld();
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
      // The crawl stops as on Ctrl-C (its handler is installed while it runs).
      if (!ended) process.kill(process.pid, 'SIGTERM');
      expect(await run, said.join('\n')).toBe(0);
    }
  }, 240_000);
});
