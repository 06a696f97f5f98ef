import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli } from '../../support/child.js';
import { crawler, fastCrawlSettings, statusDocs, writeConf } from '../../support/crawl.js';
import { deleteIndices, uniqueIndexNames } from '../../support/opensearch.js';
import { page, robots, Site, status } from '../../support/site.js';

// `crawler url` and `crawler stats` say why a URL failed: the HTTP status of its last fetch, the
// content type that was refused, a cause for every error; the content as fields; where transitions are.

const names = uniqueIndexNames('explain');
const site = new Site();
const H = '127.0.3.9';
let conf: string;
let origin: string;

beforeAll(async () => {
  buildCli();
  await site.start([H]);
  origin = site.origin(H);
  site.route(H, '/robots.txt', robots('User-agent: *\nAllow: /\n'));
  site.route(H, '/', page('Home', ['/gone', '/picture', '/notes.py', '/long.md']));
  // Text of types other than text/plain is text too, within the same limits (textextractor.skip.after).
  site.route(H, '/notes.py', (_n, _q, res) =>
    res.writeHead(200, { 'content-type': 'text/x-python' }).end('def crawl():\n    return "polite"\n'),
  );
  site.route(H, '/long.md', (_n, _q, res) =>
    res
      .writeHead(200, { 'content-type': 'text/markdown; charset=utf-8' })
      .end(`# Notes\n\n${'word '.repeat(400)}`),
  );
  site.route(H, '/gone', status(404));
  // Declared an image, which no parser takes (not a document Tika is sent).
  site.route(H, '/picture', (_n, _q, res) =>
    res.writeHead(200, { 'content-type': 'image/png' }).end('not a png'),
  );
  conf = writeConf({ ...fastCrawlSettings(names), 'textextractor.skip.after': 1000 });
  expect((await crawler('run', '--once', '--seed', `${origin}/`, '--conf', conf)).code).toBe(0);
}, 120_000);

afterAll(async () => {
  await site.close();
  await deleteIndices(names.status, names.content);
});

describe('crawler url explains a failure', () => {
  it('a URL that answered 404 says 404, keeps it in its status document and has an error.cause', async () => {
    const doc = (await statusDocs(names.status)).get(`${origin}/gone`);
    expect(doc).toMatchObject({
      status: 'FETCH_ERROR',
      metadata: { 'fetch.statusCode': ['404'], 'error.cause': ['http.404'] },
    });
    const r = await crawler('url', `${origin}/gone`, '--conf', conf);
    expect(r.code).toBe(0);
    expect(r.out).toContain(
      '  why FETCH_ERROR: error.cause http.404; last fetch answered HTTP 404; ended by fetching; fetch error 1 in a row; ERROR at 3 (max.fetch.errors)',
    );
  });

  it('a URL refused by content type names the type and the key that refused it', async () => {
    const doc = (await statusDocs(names.status)).get(`${origin}/picture`);
    expect(doc).toMatchObject({
      status: 'ERROR',
      metadata: { 'error.cause': ['jsoup.treat.non.html.as.error'], 'parse.Content-Type': ['image/png'] },
    });
    const r = await crawler('url', `${origin}/picture`, '--conf', conf);
    expect(r.out).toContain(
      '  why ERROR: content type image/png refused: neither HTML, text nor a document Tika reads, and ' +
        'jsoup.treat.non.html.as.error is true; last fetch answered HTTP 200; ended by content-type checking',
    );
  });

  it('says transitions are not recorded and which key records them; shows content as fields', async () => {
    const r = await crawler('url', `${origin}/`, '--conf', conf);
    expect(r.out).toContainEqual(
      expect.stringMatching(
        /^ {2}transitions: not recorded: status\.transitions\.index\.name is empty \(set it/,
      ),
    );
    expect(r.out).toContain(`  content (index "${names.content}"):`);
    expect(r.out).toContain('    title: Home');
    expect(r.out.some((l) => l.includes('{'))).toBe(false);
  });
});

describe('text that is not HTML', () => {
  it('text/x-python and text/markdown are fetched and indexed as text, cut at the same limit as text/plain', async () => {
    const docs = await statusDocs(names.status);
    expect(docs.get(`${origin}/notes.py`)?.status).toBe('FETCHED');
    expect(docs.get(`${origin}/long.md`)?.status).toBe('FETCHED');
    const py = await crawler('url', `${origin}/notes.py`, '--text', '--conf', conf);
    expect(py.out).toEqual(['def crawl():\n    return "polite"']);
    const md = await crawler('url', `${origin}/long.md`, '--text', '--conf', conf);
    expect(md.out.join('\n').length).toBe(1000);
  });
});

describe('crawler stats explains failures', () => {
  it('counts every error by a cause and by the HTTP status of its last fetch', async () => {
    const r = await crawler('stats', '--json', '--conf', conf);
    const s = JSON.parse(r.out.join('\n'));
    expect(s.errorsByCause).toEqual({
      ERROR: { 'jsoup.treat.non.html.as.error': 1 },
      FETCH_ERROR: { 'http.404': 1 },
    });
    expect(s.errorsByStatusCode).toEqual({ ERROR: { '200': 1 }, FETCH_ERROR: { '404': 1 } });
    // Every error names the stage that ended it: a 404 the fetch.
    expect(s.errorsBySource).toEqual({
      ERROR: { 'content-type checking': 1 },
      FETCH_ERROR: { fetching: 1 },
    });
    const text = await crawler('stats', '--conf', conf);
    expect(text.out).toContain('  FETCH_ERROR by the HTTP status of its last fetch (fetch.statusCode):');
    expect(text.out).toContain('            1  404');
  });
});

describe('crawler inject of a URL a setting refused', () => {
  it('judges it again: made due now, with one line saying so', async () => {
    const url = `${origin}/picture`;
    const seeds = conf.replace('crawl.yaml', 'seeds.txt');
    writeFileSync(seeds, `${url}\n`);
    const r = await crawler('inject', seeds, '--conf', conf);
    expect(r.code).toBe(0);
    expect(r.out.at(-1)).toMatch(/; 1 refused by a setting before, judged again$/);
    const doc = (await statusDocs(names.status)).get(url);
    expect(doc?.status).toBe('DISCOVERED');
    expect(doc?.metadata).not.toHaveProperty('error.cause');
    expect(Date.parse(doc!.nextFetchDate!)).toBeLessThanOrEqual(Date.now());
  });
});
