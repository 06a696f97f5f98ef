import pino from 'pino';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { buildCrawl } from '../../../src/app/compose.js';
import { buildConfig } from '../../../src/config/load.js';
import { DEFER_CAUSE, MD } from '../../../src/model/keys.js';
import { statusDocs } from '../../support/crawl.js';
import { html, ReopenableHost } from '../../support/host.js';
import {
  deleteIndices,
  isolationSettings,
  opensearchUrl,
  uniqueIndexNames,
} from '../../support/opensearch.js';

// Few hosts crawled at the pace their politeness allows, with the crawler's default timers (status
// bulks every 5 s, spout queries 2 s apart, a 30 s purgatory, 2 URLs per host per query): the
// frontier keeps each host's queue supplied, and a URL deferred by a host's Retry-After comes back
// soon after the pause, not after the purgatory.

const ALLOW = 'User-agent: *\nAllow: /\n';
const created: string[] = [];
const hosts: ReopenableHost[] = [];

afterEach(async () => {
  for (const h of hosts.splice(0)) await h.close();
});
afterAll(async () => deleteIndices(...created));

async function host(address: string, handler: ConstructorParameters<typeof ReopenableHost>[1]) {
  const h = new ReopenableHost(address, handler);
  await h.open();
  hosts.push(h);
  return h;
}

/** The crawler's defaults, but for the test node, loopback sites and `more`. */
function settingsFor(label: string, more: Record<string, unknown> = {}) {
  const names = uniqueIndexNames(label);
  created.push(names.status, names.content, `${names.status.replace(/-status$/, '-hosts')}`);
  return {
    names,
    settings: {
      'opensearch.addresses': opensearchUrl(),
      'opensearch.status.index.name': names.status,
      'opensearch.indexer.index.name': names.content,
      'opensearch.status.shards': 2,
      'opensearch.indexer.shards': 1,
      'http.agent.name': 'fewbot',
      'http.filter.ipaddress.exclude': [],
      ...isolationSettings(names),
      ...more,
    },
  };
}

/**
 * `crawler run` in this process, `--once` or (without `until`) until `until` holds; resolves with its
 * summary and wall time.
 */
async function crawl(settings: Record<string, unknown>, seeds: string[], until?: () => Promise<void>) {
  const log = pino({ level: 'warn' }, { write: () => {} });
  const built = await buildCrawl(buildConfig([{ source: 'test', entries: settings }]).config, { log, seeds });
  const started = Date.now();
  try {
    if (until) {
      const running = built.crawler.run();
      try {
        await vi.waitFor(until, { timeout: 60_000, interval: 250 });
      } finally {
        built.crawler.requestStop();
        await running;
      }
    } else {
      await built.crawler.run({ once: true });
    }
    return { summary: built.crawler.summary(), secs: (Date.now() - started) / 1000 };
  } finally {
    await built.close();
  }
}

describe('a documentation site on two hosts, fetcher.server.delay 0 and the default timers', () => {
  // Each host: 10 sections of 15 pages; every page links to every section's first page and to
  // every page of its own section, as a documentation sidebar does.
  const SECTIONS = 10;
  const PAGES = 15;
  const paths = Array.from(
    { length: SECTIONS * PAGES },
    (_, i) => `/s${Math.floor(i / PAGES)}/p${i % PAGES}`,
  );
  const docs = (req: { url?: string }, res: Parameters<typeof html>[0]) => {
    if (req.url === '/robots.txt') return void res.end(ALLOW);
    const m = /^\/s(\d+)\/p(\d+)$/.exec(req.url ?? '');
    if (!m) return void res.writeHead(404).end();
    const s = Number(m[1]);
    const links = [
      ...Array.from({ length: SECTIONS }, (_, k) => `/s${k}/p0`),
      ...Array.from({ length: PAGES }, (_, j) => `/s${s}/p${j}`),
    ];
    html(
      res,
      `<nav>${links.map((l) => `<a href="${l}">${l}</a>`).join(' ')}</nav><p>${'text '.repeat(200)}</p>`,
    );
  };

  it('fetches every page once, and the hosts are rarely idle while the index holds due URLs of theirs', async () => {
    const a = await host('127.0.23.1', (req, res) => docs(req, res));
    const b = await host('127.0.23.2', (req, res) => docs(req, res));
    const { names, settings } = settingsFor('two-hosts', { 'fetcher.server.delay': 0 });
    const { summary, secs } = await crawl(settings, [`${a.origin}/s0/p0`, `${b.origin}/s0/p0`]);
    const all = [a, b].flatMap((h) => paths.map((p) => `${h.origin}${p}`));
    const docsByUrl = await statusDocs(names.status);
    expect(all.filter((u) => docsByUrl.get(u)?.status !== 'FETCHED')).toEqual([]);
    for (const h of [a, b]) {
      const asked = h.pages().map((l) => l.path);
      expect(asked.length).toBe(paths.length);
      expect(new Set(asked).size).toBe(paths.length);
    }
    const hostMs = 2 * secs * 1000;
    console.info(
      `two hosts x ${paths.length} pages in ${secs.toFixed(1)} s; idle with due URLs ${summary.idleWithWorkMs} ms ` +
        `(${((summary.idleWithWorkMs / hostMs) * 100).toFixed(1)}% of host time); ${summary.adopted} adopted, ` +
        `${summary.spout.queries} spout queries`,
    );
    expect(summary.fetched).toBe(2 * paths.length);
    // Near zero: a host waits for a URL at most while a per-key query is on its way. The measured
    // figure is the benchmark's (few-host profile); this is a generous ceiling for a busy machine.
    expect(summary.idleWithWorkMs).toBeLessThan(0.1 * hostMs);
    // Waiting on the timers (2 URLs per host per 2-s query) takes minutes.
    expect(secs).toBeLessThan(90);
  }, 180_000);
});

describe('a host answering 429 with Retry-After 2 once to each of three URLs', () => {
  it('each URL is fetched again within a few seconds of its pause ending, and all end FETCHED without a fetch error', async () => {
    const urls = ['/a', '/b', '/c'];
    const h = await host('127.0.23.3', (req, res, n) => {
      if (req.url === '/robots.txt') res.end(ALLOW);
      else if (req.url === '/') html(res, urls.map((u) => `<a href="${u}">${u}</a>`).join(' '));
      else if (urls.includes(req.url ?? '') && n === 0) res.writeHead(429, { 'retry-after': '2' }).end();
      else html(res, req.url ?? '');
    });
    // The default purgatory (30 s) and timers: the URLs must come back well before. The daemon,
    // since `--once` ends when nothing is due (and deferred URLs are due later).
    const { names, settings } = settingsFor('retry-after', { 'fetcher.server.delay': 0 });
    const { summary, secs } = await crawl(settings, [`${h.origin}/`], async () => {
      const docs = await statusDocs(names.status);
      expect(urls.map((u) => docs.get(`${h.origin}${u}`)?.status)).toEqual(['FETCHED', 'FETCHED', 'FETCHED']);
    });
    const docs = await statusDocs(names.status);
    for (const u of urls) {
      const doc = docs.get(`${h.origin}${u}`);
      expect(doc?.status).toBe('FETCHED');
      expect(doc?.metadata).not.toHaveProperty(MD.fetchErrorCount);
      expect(doc?.metadata).not.toHaveProperty(MD.deferCause);
    }
    expect(summary.errors).toBe('');
    expect(summary.deferred).toContain(DEFER_CAUSE.retryAfter);
    const lines: string[] = [];
    for (const u of urls) {
      const asked = h.log.filter((l) => l.path === u);
      expect(asked.map((l) => l.status)).toEqual([429, 200]);
      const [throttled, fetched] = asked as [(typeof asked)[0], (typeof asked)[0]];
      // The pause ends 2 s after the 429 went out.
      const late = fetched.start - (throttled.end + 2000);
      lines.push(`${u}: ${late} ms after its pause`);
      expect(late).toBeGreaterThanOrEqual(-20);
      // Soon after: a refresh and a query (spout.ttl.purgatory is 30 s); generous for a busy machine.
      expect(late).toBeLessThan(8000);
    }
    console.info(`three 429s with Retry-After 2 crawled in ${secs.toFixed(1)} s; ${lines.join(', ')}`);
  }, 120_000);
});
