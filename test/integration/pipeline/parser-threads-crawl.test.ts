import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentId } from '../../../src/opensearch/status-doc.js';
import { buildCli, spawnCrawler } from '../../support/child.js';
import { contentDocs, fastCrawlSettings, statusDocs, writeConf } from '../../support/crawl.js';
import { deleteIndices, uniqueIndexNames } from '../../support/opensearch.js';
import { page, robots, Site } from '../../support/site.js';

const names = uniqueIndexNames('threads');
const site = new Site();
const A = '127.0.0.40';
let a: string;
let conf: string;

beforeAll(async () => {
  buildCli(); // parser threads run the compiled worker
  await site.start([A]);
  a = site.origin(A);
  site.route(A, '/robots.txt', robots('User-agent: *\nDisallow:\n'));
  site.route(A, '/', page('Home', ['/one', '/two', '/refresh']));
  site.route(A, '/one', page('One', ['/two', '/three']));
  site.route(A, '/two', page('Two'));
  site.route(A, '/three', page('Three'));
  site.route(A, '/refresh', page('Moved', [], '<meta http-equiv="refresh" content="0; url=/three">'));
  conf = writeConf({ ...fastCrawlSettings(names), 'parser.threads': 2 });
}, 120_000);

afterAll(async () => {
  await site.close();
  await deleteIndices(names.status, names.content);
});

describe('a crawl with parser.threads 2', () => {
  it('fetches, parses on the threads, indexes and follows links as on the event loop', async () => {
    const c = spawnCrawler(['run', '--once', '--conf', conf, '--seed', `${a}/`]);
    expect(await c.exited).toBe(0);
    const logs = c.stderr.map((l) => JSON.parse(l) as { level: number; msg: string; threads?: number });
    expect(logs.find((l) => l.msg.startsWith('parsing on'))).toMatchObject({ threads: 2 });
    expect(logs.filter((l) => l.level >= 50)).toEqual([]);
    const docs = await statusDocs(names.status);
    for (const p of ['/', '/one', '/two', '/three']) expect(docs.get(`${a}${p}`)?.status).toBe('FETCHED');
    expect(docs.get(`${a}/refresh`)).toMatchObject({
      status: 'REDIRECTION',
      metadata: { _redirTo: [`${a}/three`] },
    });
    expect(docs.get(`${a}/three`)?.metadata.depth).toEqual(['2']);
    const content = await contentDocs(names.content);
    expect(content.get(documentId(`${a}/one`))?.title).toBe('One');
  });
});
