import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentId } from '../../../src/opensearch/status-doc.js';
import { buildCli, spawnCrawler } from '../../support/child.js';
import {
  contentDocs,
  crawler,
  fastCrawlSettings,
  makeEverythingDue,
  persistAlso,
  statusDocs,
  writeConf,
} from '../../support/crawl.js';
import { deleteIndices, uniqueIndexNames } from '../../support/opensearch.js';
import { HostileServer, HOSTILE_PATHS as P, VALIDATORS } from '../hostile-server.js';
import { startServer } from '../protocol/servers.js';

const MiB = 1024 * 1024;
const server = new HostileServer();
const created: string[] = [];

beforeAll(async () => {
  buildCli();
  await server.start();
}, 120_000);

afterAll(async () => {
  await server.close();
  await deleteIndices(...created);
});

function setup(label: string, extra: Record<string, unknown> = {}) {
  const names = uniqueIndexNames(label);
  created.push(names.status, names.content);
  const conf = writeConf({
    ...fastCrawlSettings(names),
    'fetcher.server.delay': 0,
    'http.timeout': 20_000,
    // Below the 10 MiB content limit: a compressed body decoded past 5 MiB is a bomb.
    'http.decoded.limit': 5 * MiB,
    ...extra,
  });
  return { names, conf };
}

async function inject(conf: string, lines: readonly string[]): Promise<void> {
  const seeds = conf.replace('crawl.yaml', 'seeds.txt');
  writeFileSync(seeds, `${lines.join('\n')}\n`);
  expect((await crawler('inject', seeds, '--conf', conf)).code).toBe(0);
}

describe('a crawl of the hostile web', () => {
  // The default metadata.persist, plus the per-URL content limit of one seed.
  const { names, conf } = setup('hostile', {
    'metadata.persist': persistAlso('http.content.limit'),
  });

  beforeAll(async () => {
    await inject(conf, [
      server.url(P.home),
      // Its own content limit under http.decoded.limit: this bomb is cut by length, then judged by ratio.
      `${server.url(P.bombByRatio)}\thttp.content.limit=${2 * MiB}`,
      `${server.url(P.brokenSitemap)}\tisSitemap=true`,
    ]);
    expect((await crawler('run', '--once', '--conf', conf)).code).toBe(0);
  }, 180_000);

  it('decompression bombs and binary bytes claiming to be HTML end ERROR with a named cause, not indexed', async () => {
    const docs = await statusDocs(names.status);
    const content = await contentDocs(names.content);
    const expected: [string, string, string][] = [
      [P.bomb, 'decoded size limit', 'decoded-size'],
      [P.bombByRatio, 'inflation ratio limit', 'inflation-ratio'],
      [P.binary, 'binary content', ''],
    ];
    for (const [path, cause, trimmed] of expected) {
      const d = docs.get(server.url(path));
      expect(d?.status, path).toBe('ERROR');
      expect(d?.metadata['error.cause'], path).toEqual([cause]);
      expect(d?.metadata['error.source'], path).toEqual(['content-type checking']);
      if (trimmed) expect(d?.metadata['http.trimmed.reason'], path).toEqual([trimmed]);
      expect(content.has(documentId(server.url(path))), path).toBe(false);
    }
  });

  it('a 50 MB page is cut at http.content.limit and marked so in its status and content documents', async () => {
    const d = (await statusDocs(names.status)).get(server.url(P.big));
    expect(d?.status).toBe('FETCHED');
    expect(d?.metadata['http.trimmed']).toEqual(['true']);
    expect(d?.metadata['http.trimmed.reason']).toEqual(['length']);
    const c = (await contentDocs(names.content)).get(documentId(server.url(P.big)));
    expect(c?.trimmed).toBe('length');
    expect(String(c?.content).length).toBeLessThanOrEqual(10 * MiB);
    expect(server.bigWritten).toBeLessThan(50 * 1000 * 1000);
    // A whole page is not marked.
    const good = (await contentDocs(names.content)).get(documentId(server.url(P.good)));
    expect(good).toBeDefined();
    expect(good).not.toHaveProperty('trimmed');
  });

  it('crawler stats breaks errors down by error.source, so a broken sitemap shows', async () => {
    const r = await crawler('stats', '--json', '--conf', conf);
    const s = JSON.parse(r.out.join('\n'));
    expect(s.errorsBySource).toEqual({
      ERROR: { 'content-type checking': 3 },
      FETCH_ERROR: { 'sitemap parsing': 1 },
    });
    // Every failure has a cause: a stage that sets none gives its name.
    expect(s.errorsByCause.FETCH_ERROR).toEqual({ 'sitemap parsing': 1 });
    const text = await crawler('stats', '--conf', conf);
    expect(text.out).toContain('  FETCH_ERROR by error.source:');
    expect(text.out).toContain(`            1  sitemap parsing`);
  });

  it("conditional GET by default: the next fetch sends the server's validators back, a 304 keeps the page", async () => {
    const url = server.url(P.validated);
    const first = (await statusDocs(names.status)).get(url);
    expect(first?.status).toBe('FETCHED');
    expect(first?.metadata['protocol.etag']).toEqual([VALIDATORS.etag]);
    expect(first?.metadata['protocol.last-modified']).toEqual([VALIDATORS.lastModified]);
    const before = (await contentDocs(names.content)).get(documentId(url));
    expect(before).toBeDefined();

    await makeEverythingDue(names.status);
    expect((await crawler('run', '--once', '--conf', conf)).code).toBe(0);
    const again = server.of(P.validated).at(-1)!;
    expect(server.of(P.validated)).toHaveLength(2);
    expect(again.headers['if-none-match']).toBe(VALIDATORS.etag);
    expect(again.headers['if-modified-since']).toBe(VALIDATORS.lastModified);
    const after = (await statusDocs(names.status)).get(url);
    expect(after?.status).toBe('FETCHED');
    expect(after?.metadata['protocol.etag']).toEqual([VALIDATORS.etag]);
    // The content document is the one of the first fetch, untouched.
    expect((await contentDocs(names.content)).get(documentId(url))).toEqual(before);
  }, 120_000);
});

describe('conditional GET with AdaptiveScheduler', () => {
  it("If-Modified-Since carries the server's Last-Modified, not the crawler's fetch time", async () => {
    const { names, conf } = setup('hostile-adaptive', {
      'scheduler.class': 'AdaptiveScheduler',
      'scheduler.adaptive.setLastModified': true,
    });
    await inject(conf, [server.url(P.validated)]);
    const seen = server.of(P.validated).length;
    expect((await crawler('run', '--once', '--conf', conf)).code).toBe(0);
    const doc = (await statusDocs(names.status)).get(server.url(P.validated));
    expect(doc?.metadata['last-modified']).toBeDefined();
    await makeEverythingDue(names.status);
    expect((await crawler('run', '--once', '--conf', conf)).code).toBe(0);
    const requests = server.of(P.validated).slice(seen);
    expect(requests).toHaveLength(2);
    expect(requests[1]!.headers['if-modified-since']).toBe(VALIDATORS.lastModified);
    expect((await statusDocs(names.status)).get(server.url(P.validated))?.status).toBe('FETCHED');
  }, 120_000);
});

describe('a dead proxy', () => {
  it('is named at start-up, and the fetches it fails are "Proxy error"', async () => {
    const closed = await startServer(() => undefined, '127.0.7.2');
    await closed.close();
    const { names, conf } = setup('hostile-proxy', {
      'http.proxy.host': closed.host,
      'http.proxy.port': closed.port,
      'max.fetch.errors': 5,
      'http.robots.file.skip': true,
      'metadata.persist': ['fetch.exception', 'error.cause', 'error.source'],
    });
    await inject(conf, [server.url(P.good)]);
    const child = spawnCrawler(['run', '--once', '--conf', conf]);
    expect(await child.exited).toBe(0);
    expect(
      child.stderr.some((l) =>
        l.includes(`every request goes through the proxy http://${closed.host}:${closed.port}/`),
      ),
    ).toBe(true);
    const d = (await statusDocs(names.status)).get(server.url(P.good));
    expect(d?.status).toBe('FETCH_ERROR');
    expect(d?.metadata['fetch.exception']).toEqual(['Proxy error']);
  }, 120_000);
});
