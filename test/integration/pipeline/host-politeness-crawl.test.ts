import pino from 'pino';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { buildCrawl } from '../../../src/app/compose.js';
import { buildConfig } from '../../../src/config/load.js';
import { DEFER_CAUSE, MD } from '../../../src/model/keys.js';
import { HttpProtocol } from '../../../src/protocol/http/client.js';
import { crawler, fastCrawlSettings, statusDocs, testClient, writeConf } from '../../support/crawl.js';
import { html, ReopenableHost } from '../../support/host.js';
import { deleteIndices, uniqueIndexNames } from '../../support/opensearch.js';

const ALLOW = 'User-agent: *\nAllow: /\n';
const created: string[] = [];
const hosts: ReopenableHost[] = [];

afterEach(async () => {
  vi.restoreAllMocks();
  for (const h of hosts.splice(0)) await h.close();
});
afterAll(async () => deleteIndices(...created));

const links = (paths: readonly string[]) =>
  `<html><body>${paths.map((p) => `<a href="${p}">${p}</a>`).join(' ')}</body></html>`;

async function host(address: string, handler: ConstructorParameters<typeof ReopenableHost>[1]) {
  const h = new ReopenableHost(address, handler);
  await h.open();
  hosts.push(h);
  return h;
}

function settingsFor(label: string, extra: Record<string, unknown> = {}) {
  const names = uniqueIndexNames(label);
  const transitions = `${names.status}-transitions`;
  created.push(names.status, names.content, transitions);
  const settings = {
    ...fastCrawlSettings(names),
    'status.transitions.index.name': transitions,
    'spout.ttl.purgatory': 1,
    ...extra,
  };
  return { names, transitions, settings, conf: writeConf(settings) };
}

/** The daemon in this process, logging into `lines`; `stop` is SIGTERM's path. */
async function daemon(settings: Record<string, unknown>, seeds: string[]) {
  const lines: Record<string, unknown>[] = [];
  const log = pino({ level: 'info' }, { write: (s: string) => void lines.push(JSON.parse(s)) });
  const crawl = await buildCrawl(buildConfig([{ source: 'test', entries: settings }]).config, { log, seeds });
  const running = crawl.crawler.run({ drainDeadlineMs: 10_000 });
  return {
    lines,
    async stop() {
      crawl.crawler.requestStop();
      await running;
      await crawl.close();
    },
  };
}

async function transitionsOf(index: string, prefix: string) {
  const client = testClient();
  try {
    await client.indices.refresh({ index });
    const res = await client.search({
      index,
      body: { size: 1000, query: { prefix: { url: prefix } }, sort: [{ appliedAt: 'asc' }] },
    });
    return (res.body.hits.hits as { _source: { url: string; status: string; reason: string } }[]).map(
      (h) => h._source,
    );
  } finally {
    await client.close();
  }
}

describe('politeness towards failing hosts, in a real crawl on OpenSearch', () => {
  it('a host answering 429 with Retry-After: 3 gets no request for 3 s; the URL ends FETCHED without a fetch error', async () => {
    const a = await host('127.0.4.1', (req, res, n) => {
      if (req.url === '/robots.txt') res.end(ALLOW);
      else if (req.url === '/') html(res, links(['/p1', '/p2']));
      else if (req.url === '/p1' && n === 0) res.writeHead(429, { 'retry-after': '3' }).end();
      else html(res, req.url);
    });
    const { names, transitions, settings } = settingsFor('retry-after');
    const d = await daemon(settings, [`${a.origin}/`]);
    try {
      await vi.waitFor(
        async () => {
          const docs = await statusDocs(names.status);
          expect([`${a.origin}/p1`, `${a.origin}/p2`].map((u) => docs.get(u)?.status)).toEqual([
            'FETCHED',
            'FETCHED',
          ]);
        },
        { timeout: 60_000, interval: 500 },
      );
    } finally {
      await d.stop();
    }
    const throttled = a.log.find((l) => l.status === 429)!;
    const after = a.log.filter((l) => l !== throttled && l.start >= throttled.start);
    expect(after.length).toBeGreaterThan(0);
    // The server's own clock: nothing for 3 s after the 429 went out.
    expect(Math.min(...after.map((l) => l.start)) - throttled.end).toBeGreaterThanOrEqual(3000 - 20);
    const p1 = (await statusDocs(names.status)).get(`${a.origin}/p1`)!;
    expect(p1.metadata).not.toHaveProperty(MD.fetchErrorCount);
    expect(p1.metadata).not.toHaveProperty(MD.deferCause);
    const history = (await transitionsOf(transitions, `${a.origin}/p1`)).map((t) => [t.status, t.reason]);
    expect(history).toContainEqual(['DISCOVERED', `deferred: ${DEFER_CAUSE.retryAfter}`]);
    expect(history.at(-1)).toEqual(['FETCHED', 'HTTP 200']);
    expect(history.map((h) => h[0])).not.toContain('FETCH_ERROR');
    expect(d.lines.map((l) => l.msg)).toContainEqual(
      expect.stringMatching(/^host 127\.0\.4\.1 paused: HTTP 429 with Retry-After 3 s/),
    );
  }, 90_000);

  it('a host that refuses connections for a while: its URLs are deferred, none ends ERROR, all end FETCHED once it is back; the other host goes on', async () => {
    const PAGES = 20;
    const aPaths = Array.from({ length: PAGES }, (_, i) => `/p${i}`);
    const bPaths = Array.from({ length: 10 }, (_, i) => `/q${i}`);
    let closedAt = 0;
    const a: ReopenableHost = await host('127.0.4.2', (req, res) => {
      if (req.url === '/robots.txt') return void res.end(ALLOW);
      if (req.url !== '/') return void html(res, req.url);
      // The outage starts once the home page (and its links) went out.
      res.on('finish', () => setTimeout(() => void a.close().then(() => (closedAt = Date.now())), 20));
      html(res, links(aPaths));
    });
    const b = await host('127.0.4.3', (req, res) => {
      if (req.url === '/robots.txt') res.end(ALLOW);
      else if (req.url === '/') html(res, links(bPaths));
      else html(res, req.url);
    });
    const { names, transitions, settings, conf } = settingsFor('host-down', {
      'fetcher.host.down.backoff': 2,
      'fetcher.host.down.max.backoff': 4,
      'fetcher.backoff.max.delay': 0.5,
      // The URLs that failed before the host was found down are FETCH_ERRORs, retried after 6 s.
      'fetchInterval.fetch.error': 0.1,
    });
    const attempts: { url: string; at: number }[] = [];
    const original = HttpProtocol.prototype.fetch;
    vi.spyOn(HttpProtocol.prototype, 'fetch').mockImplementation(function (this: HttpProtocol, ...args) {
      attempts.push({ url: args[0], at: Date.now() });
      return original.apply(this, args);
    });
    const aUrls = [`${a.origin}/`, ...aPaths.map((p) => `${a.origin}${p}`)];
    const bUrls = [`${b.origin}/`, ...bPaths.map((p) => `${b.origin}${p}`)];
    const d = await daemon(settings, [`${a.origin}/`, `${b.origin}/`]);
    let reopenedAt = 0;
    try {
      // Down: every URL of A is deferred (or a FETCH_ERROR of its own); B is crawled meanwhile.
      await vi.waitFor(
        async () => {
          expect(closedAt).toBeGreaterThan(0);
          const docs = await statusDocs(names.status);
          expect(bUrls.filter((u) => docs.get(u)?.status !== 'FETCHED')).toEqual([]);
          const settled = aUrls
            .slice(1)
            .filter((u) => docs.get(u)?.metadata[MD.deferCause] || docs.get(u)?.status === 'FETCH_ERROR');
          expect(settled).toHaveLength(PAGES);
        },
        { timeout: 60_000, interval: 500 },
      );
      const docs = await statusDocs(names.status);
      const deferred = aUrls.find((u) => docs.get(u)?.metadata[MD.deferCause]?.[0] === DEFER_CAUSE.hostDown)!;
      expect(deferred).toBeDefined();

      const stats = await crawler('stats', '--json', '--conf', conf);
      expect(stats.code).toBe(0);
      const s = JSON.parse(stats.out.join('\n'));
      expect(s.byStatus.ERROR).toBeUndefined();
      const aStats = s.deferredHosts.find((h: { host: string }) => h.host === a.host);
      expect(aStats.causes[DEFER_CAUSE.hostDown]).toBeGreaterThan(0);
      expect(s.deferredHosts.find((h: { host: string }) => h.host === b.host)).toBeUndefined();
      const text = await crawler('stats', '--conf', conf);
      expect(text.out).toContainEqual(expect.stringMatching(/^\s+\d+ {2}127\.0\.4\.2 {2}\(.*host\.down=\d+/));
      const url = await crawler('url', deferred, '--conf', conf);
      expect(url.code).toBe(0);
      expect(url.out).toContainEqual(
        expect.stringMatching(
          /^ {2}deferred at \S+ \(host\.down\), not fetched and not counted as an error: Connection refused \d+ times in a row/,
        ),
      );

      await a.open();
      reopenedAt = Date.now();
      await vi.waitFor(
        async () => {
          const now = await statusDocs(names.status);
          expect(aUrls.filter((u) => now.get(u)?.status !== 'FETCHED')).toEqual([]);
        },
        { timeout: 90_000, interval: 500 },
      );
    } finally {
      await d.stop();
    }
    const during = attempts.filter(
      (r) => r.url.startsWith(a.origin) && r.at >= closedAt && r.at < reopenedAt,
    );
    expect(during.length).toBeLessThan(PAGES);
    // B was never held up by A: all of it was fetched before A came back.
    expect(Math.max(...b.log.map((l) => l.end))).toBeLessThan(reopenedAt);
    const final = await statusDocs(names.status);
    for (const u of aUrls) {
      expect(final.get(u)?.metadata).not.toHaveProperty(MD.fetchErrorCount);
      expect(final.get(u)?.metadata).not.toHaveProperty(MD.deferCause);
    }
    const history = await transitionsOf(transitions, a.origin);
    expect(history.filter((t) => t.status === 'ERROR')).toEqual([]);
    expect(history.filter((t) => t.reason === `deferred: ${DEFER_CAUSE.hostDown}`).length).toBeGreaterThan(0);
    const msgs = d.lines.map((l) => String(l.msg));
    expect(msgs).toContainEqual(
      expect.stringMatching(/^host 127\.0\.4\.2 down: Connection refused 3 times in a row/),
    );
    expect(msgs).toContainEqual(expect.stringMatching(/^host 127\.0\.4\.2 is back \(HTTP 200\)/));
  }, 180_000);

  it('robots.txt answering 500 defers the seed (robots.txt unavailable) instead of making it ERROR; it is fetched once robots.txt answers', async () => {
    let broken = true;
    const c = await host('127.0.4.4', (req, res) => {
      if (req.url === '/robots.txt') broken ? res.writeHead(500).end() : res.end(ALLOW);
      else html(res, 'home');
    });
    const { names, conf } = settingsFor('robots-unavailable');
    const seed = `${c.origin}/`;
    const before = Date.now();
    expect((await crawler('run', '--once', '--seed', seed, '--conf', conf)).code).toBe(0);
    const doc = (await statusDocs(names.status)).get(seed)!;
    expect(doc.status).toBe('DISCOVERED');
    expect(doc.metadata).not.toHaveProperty(MD.errorCause);
    expect(doc.metadata[MD.deferCause]).toEqual([DEFER_CAUSE.robotsUnavailable]);
    expect(doc.metadata[MD.deferMessage]?.[0]).toMatch(/HTTP 500/);
    // Tried again when the robots.txt verdict leaves the error cache (an hour by default).
    expect(Date.parse(doc.nextFetchDate!)).toBeGreaterThan(before + 59 * 60_000);
    expect(c.pages()).toEqual([]);

    const s = JSON.parse((await crawler('stats', '--json', '--conf', conf)).out.join('\n'));
    expect(s.byStatus).toEqual({ DISCOVERED: 1 });
    expect(s.deferredByCause).toEqual({ [DEFER_CAUSE.robotsUnavailable]: 1 });
    expect(s.deferredHosts).toEqual([
      { host: c.host, urls: 1, causes: { [DEFER_CAUSE.robotsUnavailable]: 1 } },
    ]);
    const url = await crawler('url', seed, '--conf', conf);
    expect(url.out).toContainEqual(expect.stringMatching(/deferred at \S+ \(robots\.txt unavailable\)/));
    // A real Disallow and an unavailable robots.txt are told apart.
    expect((await crawler('reset-errors', '--cause', 'robots.txt', '--dry-run', '--conf', conf)).out[0]).toBe(
      '0 URLs would be reset',
    );
    const dry = await crawler(
      'reset-errors',
      '--deferred',
      '--cause',
      'robots.txt unavailable',
      '--dry-run',
      '--conf',
      conf,
    );
    expect(dry.out[0]).toBe('1 URL would be reset');

    broken = false;
    const reset = await crawler('reset-errors', '--deferred', '--conf', conf);
    expect(reset.out.at(-1)).toBe('made 1 deferred URL due now');
    expect((await crawler('run', '--once', '--conf', conf)).code).toBe(0);
    const fetched = (await statusDocs(names.status)).get(seed)!;
    expect(fetched.status).toBe('FETCHED');
    expect(fetched.metadata).not.toHaveProperty(MD.deferCause);
    expect(c.count('/robots.txt')).toBe(2);
  }, 90_000);
});
