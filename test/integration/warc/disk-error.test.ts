import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawler, fastCrawlSettings, statusDocs, writeConf } from '../../support/crawl.js';
import { deleteIndices, uniqueIndexNames } from '../../support/opensearch.js';
import { page, type Route, robots, Site } from '../../support/site.js';
import { readWarc } from '../../support/warc.js';

const names = uniqueIndexNames('warcdisk');
const site = new Site();
const A = '127.0.0.8';
const PAGES = Array.from({ length: 8 }, (_, i) => `/p${i}`);
const root = mkdtempSync(join(tmpdir(), 'warc-disk-'));
const warcDir = join(root, 'warc');
let breakAt = 4;
let pagesServed = 0;
let conf: string;

beforeAll(async () => {
  await site.start([A]);
  site.route(A, '/robots.txt', robots('User-agent: *\nAllow: /\n'));
  const serve =
    (title: string, links: string[]): Route =>
    (n, q, res) => {
      // The folder turns into a file while the crawl runs: the next WARC file cannot be begun.
      if (++pagesServed === breakAt) {
        rmSync(warcDir, { recursive: true, force: true });
        writeFileSync(warcDir, 'a file where warc.dir was');
      }
      page(title, links)(n, q, res);
    };
  site.route(A, '/', serve('Home', PAGES));
  for (const p of PAGES) site.route(A, p, serve(p, []));
  conf = writeConf({
    ...fastCrawlSettings(names),
    'warc.enabled': true,
    'warc.dir': warcDir,
    'warc.rotation.size': 1,
    'warc.write.attempts': 2,
    'fetcher.threads.number': 1,
  });
});

afterAll(async () => {
  await site.close();
  await deleteIndices(names.status, names.content);
});

describe('a WARC disk error during a crawl', () => {
  it('stops crawler run with the error; the URLs not archived keep their state and come back', async () => {
    const r = await crawler('run', '--once', '--seed', `${site.origin(A)}/`, '--conf', conf);
    expect(r.code).toBe(3);
    expect(r.err).toHaveLength(1);
    expect(r.err[0]).toMatch(
      new RegExp(
        `^crawler run: cannot write WARC records to warc.dir "${warcDir}" \\(2 tries\\): .+; ` +
          'the crawl stops and the URLs not archived keep their state: fix the disk or warc.dir, then start again$',
      ),
    );
    const docs = await statusDocs(names.status);
    const byStatus = (s: string) => [...docs.entries()].filter(([, d]) => d.status === s).map(([u]) => u);
    expect(byStatus('FETCHED').length).toBe(breakAt - 1);
    expect(byStatus('FETCHED').length + byStatus('DISCOVERED').length).toBe(docs.size);
    const served = site.hosts
      .get(A)!
      .requests.filter((q) => q.path !== '/robots.txt')
      .map((q) => q.path);
    // The page whose answer could not be archived was fetched, yet is DISCOVERED as before, due now,
    // with no error counted.
    const lost = `${site.origin(A)}${served[breakAt - 1]}`;
    expect(docs.get(lost)).toMatchObject({ status: 'DISCOVERED' });
    expect(Date.parse(docs.get(lost)!.nextFetchDate!)).toBeLessThanOrEqual(Date.now());
    for (const d of docs.values()) expect(d.metadata).not.toHaveProperty('fetch.error.count');

    // With the folder back, the next run crawls the rest and archives it.
    rmSync(warcDir);
    breakAt = -1;
    const again = await crawler('run', '--once', '--conf', conf);
    expect(again.err).toEqual([]);
    expect(again.code).toBe(0);
    const after = await statusDocs(names.status);
    expect([...after.values()].every((d) => d.status === 'FETCHED')).toBe(true);
    expect(after.size).toBe(PAGES.length + 1);
    const archived = new Set<string>();
    for (const f of readdirSync(warcDir)) {
      for (const rec of await readWarc(join(warcDir, f))) if (rec.type === 'response') archived.add(rec.uri);
    }
    expect(archived).toContain(lost);
  });
});
