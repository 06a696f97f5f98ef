import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentId } from '../../../src/opensearch/status-doc.js';
import { article } from '../../support/articles.js';
import {
  contentDocs,
  crawler,
  fastCrawlSettings,
  statusDocs,
  testClient,
  writeConf,
} from '../../support/crawl.js';
import { gaps, ReopenableHost } from '../../support/host.js';
import { deleteIndices, hostsIndexOf, uniqueIndexNames } from '../../support/opensearch.js';
import { articlePage } from './pages.js';

// Four hosts crawled from their roots in one run:
// - SOFT answers 200 with its "not found" page (which names the path asked for) to any unknown URL;
// - REAL answers a real 404;
// - MOVED redirects every unknown URL to its home page;
// - POLITE has a Crawl-delay of 1 s and a robots.txt that forbids one of the two probes;
// - TWIN answers like SOFT, on REAL's address (another port): each origin is judged by its own probes.
const names = uniqueIndexNames('soft404');
const PAGES = ['/a/page-1.html', '/a/page-2.html', '/a/page-3.html', '/b/page-4.html'];
const BROKEN = ['/a/gone-1.html', '/a/gone-2.html', '/c/gone-3.html'];

const send = (res: ServerResponse, code: number, body: string, headers: Record<string, string> = {}) =>
  res.writeHead(code, { 'content-type': 'text/html; charset=utf-8', ...headers }).end(body);

/** Root, real pages (each a different article) and links to broken URLs; `null` = unknown path. */
function pageOf(path: string, seed: number): string | null {
  if (path === '/') return articlePage('Home', `<p>${article(seed, 120)}</p>`, [...PAGES, ...BROKEN]);
  const i = PAGES.indexOf(path);
  return i < 0 ? null : articlePage(`Page ${i}`, `<p>${article(seed + 1 + i, 400)}</p>`, PAGES);
}

const notFoundPage = (path: string) =>
  articlePage(
    'Oops',
    `<p>Sorry, we looked everywhere but ${path} is not here. It may have moved, or never existed. ` +
      'Try the search box above, browse the sections in the menu, or go back to the home page.</p>',
  );

function host(address: string, seed: number, unknown: (req: IncomingMessage, res: ServerResponse) => void) {
  return new ReopenableHost(address, (req, res) => {
    const path = req.url ?? '/';
    if (path === '/robots.txt')
      return send(res, 200, 'User-agent: *\nAllow: /\n', { 'content-type': 'text/plain' });
    const body = pageOf(path, seed);
    if (body === null) return unknown(req, res);
    send(res, 200, body);
  });
}

const soft = host('127.0.26.11', 10, (req, res) => send(res, 200, notFoundPage(req.url ?? '')));
const real = host('127.0.26.12', 20, (_q, res) => send(res, 404, '<h1>Not found</h1>'));
const moved = host('127.0.26.13', 30, (_q, res) => send(res, 301, '', { location: '/' }));
const polite = new ReopenableHost('127.0.26.14', (req, res) => {
  const path = req.url ?? '/';
  if (path === '/robots.txt')
    return send(res, 200, 'User-agent: *\nCrawl-delay: 1\nAllow: /a/page-\nDisallow: /a/\n', {
      'content-type': 'text/plain',
    });
  const body = pageOf(path, 40);
  if (body === null) return send(res, 404, 'not found');
  send(res, 200, body);
});
const twin = host('127.0.26.12', 50, (req, res) => send(res, 200, notFoundPage(req.url ?? '')));
const HOSTS = [soft, real, moved, polite, twin];
let conf: string;

beforeAll(async () => {
  for (const h of HOSTS) await h.open();
  // Probed once all five pages of a host answered (root and four), so that the probes stand for both
  // folders of the polite host whatever the order of its fetches.
  conf = writeConf({
    ...fastCrawlSettings(names),
    'soft404.enabled': true,
    'soft404.probe.after': 5,
    // A busy machine must not turn slow answers into fetch errors here.
    'http.timeout': 15_000,
  });
  const r = await crawler('run', '--once', '--conf', conf, ...HOSTS.map((h) => `--seed=${h.origin}/`));
  if (r.code !== 0) throw new Error(`crawl failed (${r.code}): ${r.err.join('\n')}`);
}, 240_000);

afterAll(async () => {
  for (const h of HOSTS) await h.close();
  await deleteIndices(names.status, names.content);
});

/** Requests a host saw for paths that are neither its pages, its broken links nor robots.txt. */
const probesSeen = (h: ReopenableHost) =>
  h.log.filter(
    (l) =>
      l.path !== '/robots.txt' && l.path !== '/' && pageOf(l.path, 0) === null && !BROKEN.includes(l.path),
  );

describe('soft 404s in a crawl', () => {
  it('a host that answers 200 "not found" to anything: its broken links end FETCH_ERROR soft404, not indexed', async () => {
    const docs = await statusDocs(names.status);
    const content = await contentDocs(names.content);
    for (const p of BROKEN) {
      const d = docs.get(`${soft.origin}${p}`);
      expect(d).toMatchObject({ status: 'FETCH_ERROR', metadata: { 'error.cause': ['soft404'] } });
      expect(d?.metadata['soft404.evidence']?.[0]).toMatch(/^answers 200 like the host's answer to http/);
      expect(content.has(documentId(`${soft.origin}${p}`))).toBe(false);
    }
    for (const p of ['/', ...PAGES]) {
      expect(docs.get(`${soft.origin}${p}`)?.status).toBe('FETCHED');
      expect(content.has(documentId(`${soft.origin}${p}`))).toBe(true);
    }
    // Two probes, each once, under the parent paths of real pages, with the pages' extension.
    const probes = probesSeen(soft).map((l) => l.path);
    expect(probes).toHaveLength(2);
    for (const p of probes) expect(p).toMatch(/^\/[abc]\/[a-z0-9]{12}\.html$/);
    // Probes are no URLs of the crawl.
    for (const p of probes) expect(docs.has(`${soft.origin}${p}`)).toBe(false);
  });

  it('a host with real 404s is probed and nothing of it is marked', async () => {
    const docs = await statusDocs(names.status);
    expect(probesSeen(real)).toHaveLength(2);
    for (const p of BROKEN) {
      const d = docs.get(`${real.origin}${p}`);
      expect(d?.status).toBe('FETCH_ERROR');
      expect(d?.metadata).not.toHaveProperty('soft404.evidence');
      // A real 404, not a soft one.
      expect(d?.metadata['error.cause']).toEqual(['http.404']);
    }
    for (const p of ['/', ...PAGES]) expect(docs.get(`${real.origin}${p}`)?.status).toBe('FETCHED');
    const client = testClient();
    try {
      // The profile's document is the origin's (scheme, host and port), not the host name's.
      const hosts = await client.get({ index: hostsIndexOf(names), id: real.origin });
      const profile = (hosts.body._source as { soft404: { verdict: string; answers: unknown[] } }).soft404;
      expect(profile.verdict).toBe('notFound');
      expect(profile.answers).toHaveLength(2);
    } finally {
      await client.close();
    }
  });

  it('a soft-404 origin beside a normal one on the same address: each judged by its own probes', async () => {
    const docs = await statusDocs(names.status);
    const content = await contentDocs(names.content);
    expect(probesSeen(twin)).toHaveLength(2);
    for (const p of BROKEN) {
      expect(docs.get(`${twin.origin}${p}`)).toMatchObject({
        status: 'FETCH_ERROR',
        metadata: { 'error.cause': ['soft404'] },
      });
      expect(content.has(documentId(`${twin.origin}${p}`))).toBe(false);
      expect(docs.get(`${real.origin}${p}`)?.metadata['error.cause']).toEqual(['http.404']);
    }
    for (const p of ['/', ...PAGES]) {
      expect(docs.get(`${twin.origin}${p}`)?.status).toBe('FETCHED');
      expect(content.has(documentId(`${twin.origin}${p}`))).toBe(true);
    }
  });

  it('a host that redirects everything unknown home: those redirects end FETCH_ERROR soft404, not followed', async () => {
    const docs = await statusDocs(names.status);
    for (const p of BROKEN) {
      expect(docs.get(`${moved.origin}${p}`)).toMatchObject({
        status: 'FETCH_ERROR',
        metadata: { 'error.cause': ['soft404'] },
      });
      expect(docs.get(`${moved.origin}${p}`)?.metadata['soft404.evidence']?.[0]).toMatch(
        new RegExp(`^redirects to ${moved.origin}/, as the host does with`),
      );
    }
    expect(docs.get(`${moved.origin}/`)?.status).toBe('FETCHED');
  });

  it("the probes wait for the host's delay and obey its robots.txt", async () => {
    // Crawl-delay 1 s: every request of the host, probes included, starts a second after the last ended.
    const pages = polite.pages();
    // The root, its pages, the one broken link robots.txt allows (/c/), and one probe.
    const probe = pages.find((l) => /^\/b\/[a-z0-9]{12}\.html$/.test(l.path))?.path;
    expect(new Set(pages.map((l) => l.path))).toEqual(new Set(['/', ...PAGES, '/c/gone-3.html', probe]));
    for (const g of gaps(pages)) expect(g).toBeGreaterThanOrEqual(950);
    // One probe went under /a/, which robots.txt forbids but for the pages: only the other was fetched.
    const probes = probesSeen(polite).map((l) => l.path);
    expect(probes).toHaveLength(1);
    expect(probes[0]).toMatch(/^\/b\/[a-z0-9]{12}\.html$/);
    expect(polite.log.filter((l) => l.path.startsWith('/a/') && !PAGES.includes(l.path))).toEqual([]);
  });

  it('crawler stats counts the soft 404s and crawler url shows the evidence', async () => {
    const stats = await crawler('stats', '--conf', conf);
    expect(stats.code).toBe(0);
    expect(stats.out).toContain(`  soft 404s (soft404.evidence): ${BROKEN.length * 3}`);
    const url = await crawler('url', `${soft.origin}${BROKEN[0]}`, '--conf', conf);
    expect(url.code).toBe(0);
    const text = url.out.join('\n');
    expect(text).toMatch(
      /soft 404: answers 200 like the host's answer to http:\/\/127\.0\.26\.11:\d+\/[ab]\/[a-z0-9]{12}\.html/,
    );
    expect(text).toMatch(/soft-404 probes of the host \(.*\): page/);
    expect(text).toMatch(/: 200, \d+ tokens, fingerprint [0-9a-f]{16}/);
  });
});
