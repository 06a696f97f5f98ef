import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli, spawnCrawler } from '../../support/child.js';
import { fastCrawlSettings, statusDocs, writeConf } from '../../support/crawl.js';
import { deleteIndices, uniqueIndexNames } from '../../support/opensearch.js';
import { page, robots, Site } from '../../support/site.js';

// What a new operator meets on a first crawl with the default configuration: a site that lists a
// gzip sitemap in robots.txt, links the URL filters drop, and no warning about settings they never made.

const names = uniqueIndexNames('dayone');
const site = new Site();
const H = '127.0.0.7';
let origin: string;

beforeAll(async () => {
  buildCli();
  await site.start([H]);
  origin = site.origin(H);
  site.route(H, '/robots.txt', robots(`User-agent: *\nAllow: /\nSitemap: ${origin}/sitemap.xml.gz\n`));
  const sitemap =
    '<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">' +
    `<url><loc>${origin}/from-sitemap</loc></url></urlset>`;
  site.route(H, '/sitemap.xml.gz', (_n, _q, res) => {
    res.writeHead(200, { 'content-type': 'application/x-gzip' }).end(gzipSync(sitemap));
  });
  site.route(H, '/', page('Home', ['/photo.jpg', 'mailto:someone@example.com']));
  site.route(H, '/from-sitemap', page('Listed in the sitemap'));
}, 120_000);

afterAll(async () => {
  await site.close();
  await deleteIndices(names.status, names.content);
});

describe('a first crawl with the default configuration', () => {
  it('follows a gzip sitemap from robots.txt, counts what each filter dropped, and warns about nothing', async () => {
    const conf = writeConf({ ...fastCrawlSettings(names), 'sitemap.discovery': true });
    const c = spawnCrawler(['run', '--once', '--conf', conf, '--seed', `${origin}/`, '--log-level', 'debug']);
    expect(await c.exited).toBe(0);
    const lines = c.stderr.map((l) => JSON.parse(l) as Record<string, unknown>);

    const docs = await statusDocs(names.status);
    const status = (path: string) => docs.get(`${origin}${path}`)?.status;
    expect(status('/sitemap.xml.gz')).toBe('FETCHED');
    expect(status('/from-sitemap')).toBe('FETCHED');

    const summary = lines.find((l) => l.msg === 'crawl stopped')!;
    expect(summary.urlFilterDrops).toMatchObject({ RegexURLFilter: 1 });
    const dropped = lines.filter((l) => typeof l.msg === 'string' && l.msg.startsWith('URL dropped by'));
    expect(dropped.map((l) => [l.filter, l.url])).toContainEqual(['RegexURLFilter', `${origin}/photo.jpg`]);

    expect(lines.filter((l) => Number(l.level) >= 40).map((l) => l.msg)).toEqual([]);
  }, 120_000);
});
