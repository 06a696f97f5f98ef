import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  crawler,
  fastCrawlSettings,
  type StatusDocView,
  statusDocs,
  writeConf,
} from '../../support/crawl.js';
import { deleteIndices, uniqueIndexNames } from '../../support/opensearch.js';
import { page, Site } from '../../support/site.js';

const names = uniqueIndexNames('feedfirst');
const site = new Site();
const A = '127.0.0.2';
const ENTRIES = ['/news/1', '/news/2'];
let o: string;
let docs: Map<string, StatusDocView>;
let ended: number;

/**
 * The seed topology's example rule without a status, `fetchInterval.isFeed=true: 10`, matches a
 * feed found through <link rel="alternate"> while still DISCOVERED (the link marks it isFeed=true):
 * its first fetch must not wait for it.
 */
beforeAll(async () => {
  await site.start([A]);
  o = site.origin(A);
  site.route(A, '/', page('Home', [], '<link rel="alternate" type="application/rss+xml" href="/news.rss">'));
  site.route(A, '/news.rss', (_n, _q, res) => {
    res
      .writeHead(200, { 'content-type': 'application/rss+xml' })
      .end(
        `<?xml version="1.0"?><rss version="2.0"><channel><title>News</title><link>${o}/</link>` +
          ENTRIES.map((p) => `<item><title>Story ${p}</title><link>${o}${p}</link></item>`).join('') +
          '</channel></rss>',
      );
  });
  for (const p of ENTRIES) site.route(A, p, page(`Story ${p}`));
  const conf = writeConf({ ...fastCrawlSettings(names), 'fetchInterval.isFeed=true': 10 });
  const r = await crawler('run', '--once', '--conf', conf, '--seed', `${o}/`);
  ended = Date.now();
  expect(r.err).toEqual([]);
  expect(r.code).toBe(0);
  docs = await statusDocs(names.status);
}, 120_000);

afterAll(async () => {
  await site.close();
  await deleteIndices(names.status, names.content);
});

describe('a feed found through <link rel="alternate"> under fetchInterval.isFeed=true: 10', () => {
  it('is fetched in the same --once crawl, then due again under the rule', () => {
    expect(site.hosts.get(A)!.count('/news.rss')).toBe(1);
    const feed = docs.get(`${o}/news.rss`);
    expect(feed?.status).toBe('FETCHED');
    expect(feed?.metadata.isFeed).toEqual(['true']);
    const dueIn = (Date.parse(feed?.nextFetchDate ?? '') - ended) / 60_000;
    expect(dueIn).toBeGreaterThan(9);
    expect(dueIn).toBeLessThanOrEqual(10.05);
  });

  it('has its entries found and fetched', () => {
    for (const p of ENTRIES) {
      expect(docs.get(`${o}${p}`)?.status, p).toBe('FETCHED');
      expect(docs.get(`${o}${p}`)?.metadata['url.path']?.at(-1), p).toBe(`${o}/news.rss`);
    }
  });
});
