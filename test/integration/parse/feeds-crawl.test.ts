import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentId } from '../../../src/opensearch/status-doc.js';
import {
  contentDocs,
  crawler,
  fastCrawlSettings,
  persistAlso,
  type StatusDocView,
  statusDocs,
  testClient,
  writeConf,
} from '../../support/crawl.js';
import { deleteIndices, uniqueIndexNames } from '../../support/opensearch.js';
import { page, type Route, Site } from '../../support/site.js';

const names = uniqueIndexNames('feeds');
const site = new Site();
const A = '127.0.0.2';
let o: string;
let docs: Map<string, StatusDocView>;
let content: Map<string, Record<string, unknown>>;
let started: number;
let ended: number;

/** A fixture as the server sends it: the generated feed's site replaced by this test's origin. */
const served =
  (file: string, type: string): Route =>
  (_n, _q, res) => {
    const text = readFileSync(new URL(`../../fixtures/parse/feed/${file}`, import.meta.url), 'utf8');
    res.writeHead(200, { 'content-type': type }).end(text.replaceAll('https://news.example.org', o));
  };

/** Entries dated before 2020 are older than this, whenever the test runs. */
const HOURS_SINCE_2020 = Math.ceil((Date.now() - Date.parse('2020-01-01T00:00:00Z')) / 3_600_000);

const ENTRIES = [
  '/2025/06/harbour-bridge',
  '/2025/05/cafe-rivage',
  '/2025/05/library',
  '/2025/06/tides',
  '/2025/05/lighthouse',
];
const TOO_OLD = ['/2015/03/ferry-timetable', '/2016/01/dredging'];

beforeAll(async () => {
  await site.start([A]);
  o = site.origin(A);
  // The home page names its Atom feed only in <link rel="alternate">, and the server calls that feed
  // text/html: nothing but the link's isFeed=true can make it a feed.
  site.route(
    A,
    '/',
    page('Harbour home', ['/about'], '<link rel="alternate" type="application/atom+xml" href="/atom.xml">'),
  );
  site.route(A, '/about', page('About'));
  site.route(A, '/atom.xml', served('atom.xml', 'text/html; charset=utf-8'));
  site.route(A, '/rss.xml', served('rss2.xml', 'application/rss+xml; charset=utf-8'));
  site.route(A, '/feed.json', served('feed.json', 'application/feed+json'));
  site.route(A, '/notices.rdf', served('rss1.rdf', 'application/rdf+xml'));
  site.route(A, '/broken.xml', served('rss2-truncated.xml', 'text/xml'));
  for (const p of [...ENTRIES, ...TOO_OLD]) site.route(A, p, page(`Story ${p}`));
  const conf = writeConf({
    ...fastCrawlSettings(names),
    'metadata.persist': persistAlso('error.message'),
    'feed.filter.hours.since.published': HOURS_SINCE_2020,
    // Feeds refetched every 10 minutes (feed-first-fetch.test.ts has the rule without a status).
    'fetchInterval.FETCHED.isFeed=true': 10,
    'fetchInterval.ERROR.isFeed=true': 60,
  });
  started = Date.now();
  const seeds = ['/', '/rss.xml', '/feed.json', '/notices.rdf', '/broken.xml'].flatMap((p) => [
    '--seed',
    `${o}${p}`,
  ]);
  const r = await crawler('run', '--once', '--conf', conf, ...seeds);
  ended = Date.now();
  expect(r.err).toEqual([]);
  expect(r.code).toBe(0);
  docs = await statusDocs(names.status);
  content = await contentDocs(names.content);
}, 120_000);

afterAll(async () => {
  await site.close();
  await deleteIndices(names.status, names.content);
});

/** Minutes from the crawl's start (and end) to the URL's nextFetchDate. */
const dueIn = (url: string) => {
  const at = Date.parse(docs.get(url)?.nextFetchDate ?? '');
  return [(at - ended) / 60_000, (at - started) / 60_000];
};

describe('a crawl of a news site with feeds', () => {
  it.each([
    ['RSS 2.0 (by media type)', '/rss.xml'],
    ['JSON Feed (by media type)', '/feed.json'],
    ['RSS 1.0 (by its root element)', '/notices.rdf'],
    ['Atom found only through <link rel="alternate">, served as text/html', '/atom.xml'],
  ])('%s ends FETCHED with isFeed=true, due again under the isFeed rule, never indexed', (_n, path) => {
    const doc = docs.get(`${o}${path}`);
    expect(doc?.status).toBe('FETCHED');
    expect(doc?.metadata.isFeed).toEqual(['true']);
    const [fromEnd, fromStart] = dueIn(`${o}${path}`);
    // fetchInterval.FETCHED.isFeed=true: 10 minutes, not the day of fetchInterval.default.
    expect(fromEnd).toBeLessThanOrEqual(10.05);
    expect(fromStart).toBeGreaterThanOrEqual(9.95);
    expect(content.has(documentId(`${o}${path}`))).toBe(false);
  });

  it("the feeds' entries were discovered with feed.* metadata, fetched, and kept it on their status documents", () => {
    for (const p of ENTRIES) {
      const doc = docs.get(`${o}${p}`);
      expect(doc?.status, p).toBe('FETCHED');
      expect(Object.keys(doc?.metadata ?? {}), p).toEqual(
        expect.arrayContaining(['feed.title', 'feed.publishedDate', 'feed.description']),
      );
      expect(doc?.metadata['url.path']?.at(-1), p).toMatch(/\/(rss\.xml|feed\.json|atom\.xml|notices\.rdf)$/);
      expect(doc?.metadata).not.toHaveProperty('isFeed');
    }
    expect(docs.get(`${o}/2025/06/harbour-bridge`)?.metadata).toMatchObject({
      'feed.title': ['Harbour bridge reopens after repairs'],
      'feed.publishedDate': ['2025-06-01T08:30:00.000Z'],
      'feed.description': ['The harbour bridge is open again, two weeks early & under budget.'],
    });
    expect(docs.get(`${o}/2025/06/tides`)?.metadata).toMatchObject({
      'feed.title': ['Tide tables for June'],
      'feed.publishedDate': ['2025-06-02T05:00:00.000Z'],
    });
    // Pages found on pages carry no feed metadata.
    expect(Object.keys(docs.get(`${o}/about`)?.metadata ?? {}).filter((k) => k.startsWith('feed.'))).toEqual(
      [],
    );
  });

  it('entries older than feed.filter.hours.since.published were dropped: never discovered, never fetched', () => {
    for (const p of TOO_OLD) {
      expect(docs.has(`${o}${p}`), p).toBe(false);
      expect(site.hosts.get(A)!.count(p), p).toBe(0);
    }
  });

  it("the entries' content documents carry feed.title, feed.publishedDate (a date) and feed.description", async () => {
    const bridge = content.get(documentId(`${o}/2025/06/harbour-bridge`));
    expect(bridge).toMatchObject({
      url: `${o}/2025/06/harbour-bridge`,
      title: 'Story /2025/06/harbour-bridge',
      'feed.title': 'Harbour bridge reopens after repairs',
      'feed.publishedDate': '2025-06-01T08:30:00.000Z',
      'feed.description': 'The harbour bridge is open again, two weeks early & under budget.',
    });
    for (const p of ENTRIES)
      expect(content.get(documentId(`${o}${p}`))?.['feed.title'], p).toBeTypeOf('string');
    // The date is a date field: a news search can ask for the stories of a day.
    const client = testClient();
    try {
      const res = await client.search({
        index: names.content,
        body: { query: { range: { 'feed.publishedDate': { gte: '2025-06-01', lt: '2025-06-02' } } } },
      });
      const hits = (res.body.hits.hits as { _source: { url: string } }[]).map((h) => h._source.url);
      expect(hits).toEqual([`${o}/2025/06/harbour-bridge`]);
    } finally {
      await client.close();
    }
  });

  it('a feed cut short ends ERROR with the feed parser as error.source and the reason, due under the ERROR isFeed rule', () => {
    const doc = docs.get(`${o}/broken.xml`);
    expect(doc?.status).toBe('ERROR');
    expect(doc?.metadata).toMatchObject({
      isFeed: ['true'],
      'error.source': ['feed parsing'],
      'error.message': [
        `Exception while parsing ${o}/broken.xml: truncated rss feed: the document ends before its root element closes`,
      ],
    });
    const [fromEnd, fromStart] = dueIn(`${o}/broken.xml`);
    expect(fromEnd).toBeLessThanOrEqual(60.05);
    expect(fromStart).toBeGreaterThanOrEqual(59.95);
    expect(content.has(documentId(`${o}/broken.xml`))).toBe(false);
  });

  it('the home page is indexed as a page, its feed link an outlink', () => {
    expect(docs.get(`${o}/`)?.status).toBe('FETCHED');
    expect(docs.get(`${o}/atom.xml`)?.metadata['url.path']).toEqual([`${o}/`]);
    expect(content.has(documentId(`${o}/`))).toBe(true);
  });
});
