import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentId } from '../../../src/opensearch/status-doc.js';
import { contentDocs, crawler, fastCrawlSettings, writeConf } from '../../support/crawl.js';
import { deleteIndices, uniqueIndexNames } from '../../support/opensearch.js';
import { robots, Site } from '../../support/site.js';

const names = uniqueIndexNames('maincontent');
const site = new Site();
const A = '127.0.0.41';
let a: string;
let conf: string;

const ARTICLE =
  '<!doctype html><html><head><title>Tulips</title></head><body>' +
  '<header><nav><a href="/">Home</a> <a href="/news/">News</a> <a href="/about/">About us</a></nav></header>' +
  '<article><h1>Twelve thousand tulips</h1>' +
  '<p>City gardeners planted <strong>twelve thousand</strong> tulips along the boulevard, see the <a href="map.html">map</a>.</p>' +
  '<p>They bloom from April to May, twice as many as last spring.</p></article>' +
  '<aside class="sidebar"><h2>Archives</h2><a href="/2023/">2023</a></aside>' +
  '<footer>© 2024 City News. Imprint.</footer></body></html>';

beforeAll(async () => {
  await site.start([A]);
  a = site.origin(A);
  site.route(A, '/robots.txt', robots('User-agent: *\nDisallow:\n'));
  site.route(A, '/news/tulips', (_n: number, _q: IncomingMessage, res: ServerResponse) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ARTICLE);
  });
  conf = writeConf({ ...fastCrawlSettings(names), 'parser.emitOutlinks': false });
}, 60_000);

afterAll(async () => {
  await site.close();
  await deleteIndices(names.status, names.content);
});

describe('a crawl of an HTML page stores its main content as text and Markdown', () => {
  it('content holds the main text, markdown its Markdown; crawler url --markdown prints it', async () => {
    const run = await crawler('run', '--once', '--conf', conf, '--seed', `${a}/news/tulips`);
    expect(run.err).toEqual([]);
    expect(run.code).toBe(0);
    const doc = (await contentDocs(names.content)).get(documentId(`${a}/news/tulips`));
    expect(doc?.content).toBe(
      'Twelve thousand tulips City gardeners planted twelve thousand tulips along the boulevard, see the map. ' +
        'They bloom from April to May, twice as many as last spring.',
    );
    const markdown =
      '# Twelve thousand tulips\n\n' +
      `City gardeners planted **twelve thousand** tulips along the boulevard, see the [map](${a}/news/map.html).\n\n` +
      'They bloom from April to May, twice as many as last spring.';
    expect(doc?.markdown).toBe(markdown);
    const shown = await crawler('url', `${a}/news/tulips`, '--markdown', '--conf', conf);
    expect(shown.code).toBe(0);
    expect(shown.out.join('\n')).toBe(markdown);
    const text = await crawler('url', `${a}/news/tulips`, '--text', '--conf', conf);
    expect(text.out.join('\n')).toBe(doc?.content);
  });
});
