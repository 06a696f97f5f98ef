import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentId } from '../../../src/opensearch/status-doc.js';
import {
  contentDocs,
  crawler,
  fastCrawlSettings,
  makeEverythingDue,
  statusDocs,
  testClient,
  writeConf,
} from '../../support/crawl.js';
import { deleteIndices, uniqueIndexNames } from '../../support/opensearch.js';
import { page, robots, Site, status } from '../../support/site.js';

const names = uniqueIndexNames('e2e');
const site = new Site();
const A = '127.0.0.2';
const B = '127.0.0.3';
let conf: string;
let a: string;
let b: string;
let page1Broken = false;
let noindexNow = false;

beforeAll(async () => {
  await site.start([A, B]);
  a = site.origin(A);
  b = site.origin(B);
  site.route(A, '/robots.txt', robots('User-agent: *\nDisallow: /private\n'));
  site.route(
    A,
    '/',
    page('Home', [
      '/page1',
      '/private/secret',
      '/missing',
      '/flaky',
      '/moved',
      '/slow',
      '/later-noindex',
      '/canon',
    ]),
  );
  site.route(A, '/later-noindex', (n, q, res) =>
    page('Later noindex', [], noindexNow ? '<meta name="robots" content="noindex">' : '')(n, q, res),
  );
  site.route(A, '/canon', (n, q, res) =>
    page1Broken
      ? status(500)(n, q, res)
      : page('Canon', [], '<link rel="canonical" href="/canonical-target">')(n, q, res),
  );
  site.route(A, '/page1', (n, q, res) =>
    page1Broken ? status(500)(n, q, res) : page('Page one')(n, q, res),
  );
  site.route(A, '/page2', page('Page two'));
  site.route(A, '/private/secret', page('Secret'));
  site.route(A, '/flaky', (n, q, res) => (n === 0 ? status(503)(n, q, res) : page('Flaky')(n, q, res)));
  site.route(A, '/moved', status(301, { location: '/page2' }));
  site.route(A, '/slow', (n, q, res) => setTimeout(() => page('Slow')(n, q, res), 2500));
  site.route(B, '/', page('B home', ['/about']));
  site.route(B, '/about', page('About B'));
  conf = writeConf({
    ...fastCrawlSettings(names),
    'status.transitions.index.name': `${names.status}-transitions`,
  });
});

afterAll(async () => {
  await site.close();
  await deleteIndices(names.status, names.content, `${names.status}-transitions`);
});

async function round(): Promise<void> {
  const r = await crawler('run', '--once', '--conf', conf);
  expect(r.err).toEqual([]);
  expect(r.code).toBe(0);
}

describe('an end-to-end crawl of two hosts through inject and run --once rounds', () => {
  it('round 1: inject the seeds and crawl what is due', async () => {
    const seeds = writeConf({}).replace('crawl.yaml', 'seeds.txt');
    writeFileSync(seeds, `# two hosts\n${a}/\n\n${b}/\tcampaign=test\nnot a url\n`);
    const inj = await crawler('inject', seeds, '--conf', conf);
    expect(inj.code).toBe(0);
    expect(inj.out.at(-1)).toMatch(
      /: 5 lines, 2 URLs: 2 new, 0 known already, 0 not written; 1 bad line, 2 blank or comments$/,
    );

    await round();
    const docs = await statusDocs(names.status);
    const st = (p: string, host = a) => docs.get(`${host}${p}`);
    expect(st('/')?.status).toBe('FETCHED');
    expect(st('/page1')?.status).toBe('FETCHED');
    expect(st('/page2')?.status).toBe('FETCHED');
    expect(st('/', b)?.status).toBe('FETCHED');
    expect(st('/about', b)?.status).toBe('FETCHED');
    expect(st('/private/secret')).toMatchObject({
      status: 'ERROR',
      metadata: { 'error.cause': ['robots.txt'] },
    });
    expect(st('/private/secret')?.nextFetchDate).toBeUndefined();
    expect(st('/missing')).toMatchObject({ status: 'FETCH_ERROR', metadata: { 'fetch.error.count': ['1'] } });
    expect(st('/flaky')).toMatchObject({ status: 'FETCH_ERROR', metadata: { 'fetch.error.count': ['1'] } });
    expect(st('/slow')).toMatchObject({ status: 'FETCH_ERROR', metadata: { 'fetch.error.count': ['1'] } });
    expect(st('/moved')).toMatchObject({ status: 'REDIRECTION', metadata: { _redirTo: [`${a}/page2`] } });
    // Persisted metadata: depth and url.path are transferred; the seed's campaign is not (not listed).
    expect(st('/page1')?.metadata).toMatchObject({ depth: ['1'], 'url.path': [`${a}/`] });
    expect(st('/about', b)?.metadata).not.toHaveProperty('campaign');
    // Document ids and keys are StormCrawler's.
    expect(st('/page1')?.id).toBe(documentId(`${a}/page1`));
    expect(st('/page1')?.key).toBe(A);
    expect(site.hosts.get(A)!.count('/private/secret')).toBe(0);

    const content = await contentDocs(names.content);
    for (const u of [`${a}/`, `${a}/page1`, `${a}/page2`, `${b}/`, `${b}/about`]) {
      expect(content.get(documentId(u))?.url).toBe(u);
    }
    expect(content.get(documentId(`${a}/page1`))?.title).toBe('Page one');
    // A page with a same-site canonical is indexed under the canonical's id, with its own url.
    expect(content.get(documentId(`${a}/canonical-target`))).toMatchObject({
      url: `${a}/canon`,
      canonical: `${a}/canonical-target`,
    });
    expect(content.has(documentId(`${a}/later-noindex`))).toBe(true);
    expect(content.size).toBe(7);
  });

  it('round 2 (after 121 minutes): the transient 503 recovers, the 404 and the timeout count up', async () => {
    noindexNow = true;
    await makeEverythingDue(names.status);
    await round();
    const docs = await statusDocs(names.status);
    expect(docs.get(`${a}/flaky`)?.status).toBe('FETCHED');
    expect(docs.get(`${a}/flaky`)?.metadata).not.toHaveProperty('fetch.error.count');
    expect(docs.get(`${a}/missing`)?.metadata['fetch.error.count']).toEqual(['2']);
    expect(docs.get(`${a}/slow`)?.metadata['fetch.error.count']).toEqual(['2']);
    const content = await contentDocs(names.content);
    expect(content.has(documentId(`${a}/flaky`))).toBe(true);
    // A page that turned noindex stays FETCHED and loses its earlier content document.
    expect(docs.get(`${a}/later-noindex`)?.status).toBe('FETCHED');
    expect(content.has(documentId(`${a}/later-noindex`))).toBe(false);
  });

  it('round 3: the 404 and the timeout end ERROR maxFetchErrors, never rescheduled', async () => {
    page1Broken = true;
    await makeEverythingDue(names.status);
    await round();
    const docs = await statusDocs(names.status);
    for (const p of ['/missing', '/slow']) {
      expect(docs.get(`${a}${p}`)).toMatchObject({
        status: 'ERROR',
        metadata: { 'error.cause': ['maxFetchErrors'] },
      });
      expect(docs.get(`${a}${p}`)?.nextFetchDate).toBeUndefined();
      expect(docs.get(`${a}${p}`)?.metadata).not.toHaveProperty('fetch.error.count');
    }
    expect(docs.get(`${a}/page1`)?.metadata['fetch.error.count']).toEqual(['1']);
  });

  it('a page indexed and later failing max.fetch.errors times is gone from the content index', async () => {
    expect((await contentDocs(names.content)).has(documentId(`${a}/page1`))).toBe(true);
    for (let i = 0; i < 2; i++) {
      await makeEverythingDue(names.status);
      await round();
    }
    const docs = await statusDocs(names.status);
    expect(docs.get(`${a}/page1`)).toMatchObject({
      status: 'ERROR',
      metadata: { 'error.cause': ['maxFetchErrors'] },
    });
    const content = await contentDocs(names.content);
    expect(content.has(documentId(`${a}/page1`))).toBe(false);
    expect(content.has(documentId(`${a}/page2`))).toBe(true);
    // Deletion also finds a document indexed under its canonical URL's id.
    expect(docs.get(`${a}/canon`)?.status).toBe('ERROR');
    expect(content.has(documentId(`${a}/canonical-target`))).toBe(false);
    // The ERROR URLs were not fetched again.
    expect(site.hosts.get(A)!.count('/missing')).toBe(3);
  });

  it("the transitions index holds each URL's history", async () => {
    const client = testClient();
    try {
      const index = `${names.status}-transitions`;
      await client.indices.refresh({ index });
      const res = await client.search({
        index,
        body: { size: 100, query: { term: { url: `${a}/missing` } }, sort: [{ appliedAt: 'asc' }] },
      });
      const rows = (
        res.body.hits.hits as { _source: { previousStatus: string | null; status: string; reason: string } }[]
      ).map((h) => `${h._source.previousStatus} -> ${h._source.status} (${h._source.reason})`);
      expect(rows).toEqual([
        'null -> DISCOVERED (discovered)',
        'DISCOVERED -> FETCH_ERROR (HTTP 404)',
        'FETCH_ERROR -> FETCH_ERROR (HTTP 404)',
        'FETCH_ERROR -> ERROR (maxFetchErrors: HTTP 404)',
      ]);
    } finally {
      await client.close();
    }
  });

  it('every status, content and transitions document names its crawl: the status index', async () => {
    const client = testClient();
    try {
      for (const index of [names.status, names.content, `${names.status}-transitions`]) {
        await client.indices.refresh({ index });
        const all = await client.count({ index });
        const named = await client.count({ index, body: { query: { term: { crawl: names.status } } } });
        expect(all.body.count, index).toBeGreaterThan(0);
        expect(named.body.count, index).toBe(all.body.count);
      }
    } finally {
      await client.close();
    }
  });
});
