import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawler, statusDocs, writeConf } from '../../support/crawl.js';
import {
  deleteIndices,
  isolationSettings,
  opensearchUrl,
  uniqueIndexNames,
} from '../../support/opensearch.js';
import { page, robots, Site } from '../../support/site.js';

// A site whose pages are found only from the previous ones (page i links to the next five): the
// frontier runs dry after every few pages. With the default timers (status flush 5 s, spout queries
// 2 s apart, index refresh 1 s) a crawl that waited on them would take a few seconds per five pages;
// the crawl loop writes at once when it has nothing to fetch and hands the new URLs straight to the
// fetcher once their DISCOVERED write is acknowledged.

const site = new Site();
const CHAIN = '127.0.3.1';
const POLITE = '127.0.3.2';
const created: string[] = [];

function chain(host: string, pages: number): void {
  site.route(host, '/robots.txt', robots('User-agent: *\nAllow: /\n'));
  for (let i = 0; i < pages; i++) {
    const next = [1, 2, 3, 4, 5].map((k) => i + k).filter((k) => k < pages);
    site.route(
      host,
      `/p${i}`,
      page(
        `page ${i}`,
        next.map((k) => `/p${k}`),
      ),
    );
  }
}

beforeAll(async () => {
  await site.start([CHAIN, POLITE]);
  chain(CHAIN, 100);
  chain(POLITE, 6);
});

afterAll(async () => {
  await site.close();
  await deleteIndices(...created);
});

/** Default timers: only what the crawl needs to reach the test node and the loopback site. */
function conf(label: string, delaySecs: number): { conf: string; status: string } {
  const names = uniqueIndexNames(label);
  created.push(names.status, names.content);
  const path = writeConf({
    'opensearch.addresses': opensearchUrl(),
    'opensearch.status.index.name': names.status,
    'opensearch.indexer.index.name': names.content,
    ...isolationSettings(names),
    'opensearch.status.shards': 2,
    'opensearch.indexer.shards': 1,
    'http.agent.name': 'deepbot',
    'http.filter.ipaddress.exclude': [],
    'fetcher.server.delay': delaySecs,
  });
  return { conf: path, status: names.status };
}

describe('a site found page by page, with the default timers', () => {
  it('a 100-page chain (each page links to the next five) is crawled in seconds, each page once', async () => {
    const { conf: path, status } = conf('chain', 0);
    const origin = site.origin(CHAIN);
    const started = Date.now();
    const r = await crawler('run', '--once', '--conf', path, '--seed', `${origin}/p0`);
    const secs = (Date.now() - started) / 1000;
    expect(r.code).toBe(0);
    const docs = await statusDocs(status);
    const all = Array.from({ length: 100 }, (_, i) => `${origin}/p${i}`);
    expect(all.filter((u) => docs.get(u)?.status !== 'FETCHED')).toEqual([]);
    for (let i = 0; i < 100; i++) expect(site.hosts.get(CHAIN)!.count(`/p${i}`)).toBe(1);
    console.info(`100-page chain crawled in ${secs.toFixed(1)} s`);
    // Waiting on the timers takes minutes (about 20 rounds of flush, refresh and query); a
    // generous ceiling, the measured figure is the benchmark's.
    expect(secs).toBeLessThan(60);
  }, 120_000);

  it('politeness is unchanged: with fetcher.server.delay 1 the host gets one request a second at most', async () => {
    const { conf: path, status } = conf('polite', 1);
    const origin = site.origin(POLITE);
    const r = await crawler('run', '--once', '--conf', path, '--seed', `${origin}/p0`);
    expect(r.code).toBe(0);
    const docs = await statusDocs(status);
    expect([...docs.values()].filter((d) => d.status === 'FETCHED')).toHaveLength(6);
    const pages = site.hosts.get(POLITE)!.requests.filter((q) => q.path !== '/robots.txt');
    expect(pages).toHaveLength(6);
    // The delay runs from the end of one fetch to the start of the next: start to start is longer.
    for (let i = 1; i < pages.length; i++) {
      expect(pages[i]!.at - pages[i - 1]!.at).toBeGreaterThanOrEqual(980);
    }
  }, 120_000);
});
