import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawler, fastCrawlSettings, persistAlso, statusDocs, writeConf } from '../../support/crawl.js';
import { deleteIndices, uniqueIndexNames } from '../../support/opensearch.js';
import { page, robots, Site, status } from '../../support/site.js';

const names = uniqueIndexNames('operate');
const site = new Site();
const H = '127.0.3.1';
let conf: string;
let origin: string;
let serverDown = true;

beforeAll(async () => {
  await site.start([H]);
  origin = site.origin(H);
  site.route(H, '/robots.txt', robots('User-agent: *\nDisallow: /private\n'));
  site.route(H, '/', page('Home', ['/a', '/b', '/gone', '/private/x']));
  // An incident: /a and /b answer 503 until the server is repaired.
  for (const p of ['/a', '/b'])
    site.route(H, p, (n, q, res) => (serverDown ? status(503)(n, q, res) : page(p)(n, q, res)));
  site.route(H, '/gone', status(404));
  conf = writeConf({
    ...fastCrawlSettings(names),
    'max.fetch.errors': 1,
    'metadata.persist': persistAlso('fetch.exception', 'lastProcessedDate'),
  });
  const seeds = conf.replace('crawl.yaml', 'seeds.txt');
  writeFileSync(seeds, `${origin}/\n`);
  expect((await crawler('inject', seeds, '--conf', conf)).code).toBe(0);
  expect((await crawler('run', '--once', '--conf', conf)).code).toBe(0);
}, 120_000);

afterAll(async () => {
  await site.close();
  await deleteIndices(names.status, names.content);
});

describe('operating a crawl', () => {
  it('crawler stats --json counts statuses, errors by cause, due URLs and hosts', async () => {
    const r = await crawler('stats', '--json', '--conf', conf);
    expect(r.code).toBe(0);
    const s = JSON.parse(r.out.join('\n'));
    expect(s.total).toBe(5);
    expect(s.byStatus).toEqual({ FETCHED: 1, ERROR: 4 });
    expect(s.errorsByCause.ERROR).toEqual({ maxFetchErrors: 3, 'robots.txt': 1 });
    expect(s.dueNow).toBe(0);
    expect(s.topHosts).toEqual([{ host: H, urls: 5 }]);
    expect(s.topErrorHosts).toEqual([{ host: H, errors: 4 }]);
    const today = new Date().toISOString().slice(0, 10);
    expect(s.errorsPerDay).toEqual([{ day: today, byCause: { maxFetchErrors: 3, 'robots.txt': 1 } }]);
  });

  it('reset-errors --dry-run counts without changing anything', async () => {
    const r = await crawler('reset-errors', '--cause', 'maxFetchErrors', '--dry-run', '--conf', conf);
    expect(r.code).toBe(0);
    expect(r.out[0]).toBe('3 URLs would be reset');
    expect(r.out.slice(1).sort()).toEqual([
      `  ${origin}/a  (maxFetchErrors)`,
      `  ${origin}/b  (maxFetchErrors)`,
      `  ${origin}/gone  (maxFetchErrors)`,
    ]);
    const docs = await statusDocs(names.status);
    expect(docs.get(`${origin}/a`)?.status).toBe('ERROR');
  });

  it('the real reset changes exactly those URLs, and the next run fetches them again', async () => {
    const r = await crawler('reset-errors', '--cause', 'maxFetchErrors', '--conf', conf);
    expect(r.code).toBe(0);
    expect(r.out.at(-1)).toBe('reset 3 URLs to DISCOVERED');
    let docs = await statusDocs(names.status);
    for (const p of ['/a', '/b', '/gone']) {
      const d = docs.get(`${origin}${p}`)!;
      expect(d.status).toBe('DISCOVERED');
      expect(d.metadata).not.toHaveProperty('error.cause');
      expect(Date.parse(d.nextFetchDate!)).toBeLessThanOrEqual(Date.now());
    }
    expect(docs.get(`${origin}/private/x`)).toMatchObject({
      status: 'ERROR',
      metadata: { 'error.cause': ['robots.txt'] },
    });

    serverDown = false;
    const before = site.hosts.get(H)!.count('/a');
    expect((await crawler('run', '--once', '--conf', conf)).code).toBe(0);
    expect(site.hosts.get(H)!.count('/a')).toBe(before + 1);
    docs = await statusDocs(names.status);
    expect(docs.get(`${origin}/a`)?.status).toBe('FETCHED');
    expect(docs.get(`${origin}/b`)?.status).toBe('FETCHED');
    expect(docs.get(`${origin}/gone`)?.status).toBe('ERROR');
  });

  it('crawler url shows a FETCH_ERROR URL with decoded metadata and when it is due', async () => {
    expect((await crawler('reset-errors', '--cause', 'maxFetchErrors', '--conf', conf)).code).toBe(0);
    expect((await crawler('run', '--once', '--conf', conf, '--set', 'max.fetch.errors=5')).code).toBe(0);
    const r = await crawler('url', `${origin}/gone`, '--conf', conf, '--robots');
    expect(r.code).toBe(0);
    expect(r.out[0]).toBe(`${origin}/gone`);
    expect(r.out[1]).toMatch(
      new RegExp(`^  status FETCH_ERROR, key ${H.replaceAll('.', '\\.')}, due in 120 min \\(`),
    );
    expect(r.out).toContain('    fetch.error.count = 1');
    expect(r.out).toContain(`    url.path = ${origin}/`);
    expect(r.out.some((l) => /^ {4}lastProcessedDate = \d{4}-\d{2}-\d{2}T/.test(l))).toBe(true);
    expect(r.out).toContain(`  content: not in the content index "${names.content}"`);
    // (crawler url reads this crawl's conf: max.fetch.errors 1 there, 5 for the run above.)
    expect(r.out).toContain(
      '  why FETCH_ERROR: error.cause http.404; last fetch answered HTTP 404; ended by fetching; fetch error 1 in a row; ERROR at 1 (max.fetch.errors)',
    );
    expect(r.out.at(-1)).toBe('  robots.txt: allowed (parsed)');
    const unknown = await crawler('url', `${origin}/never-seen`, '--conf', conf);
    expect(unknown.code).toBe(1);
    expect(unknown.out[1]).toBe('  not in the status index');
  });

  it("crawler url --text prints the page's text as indexed; a URL not in the content index exits 1", async () => {
    const r = await crawler('url', `${origin}/`, '--text', '--conf', conf);
    expect(r.code).toBe(0);
    const text = r.out.join('\n');
    expect(text).toContain('Text of Home.');
    expect(text).not.toContain('<p>');
    const gone = await crawler('url', `${origin}/gone`, '--text', '--conf', conf);
    expect(gone.code).toBe(1);
    expect(gone.out).toEqual([]);
  });
});
