import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  crawler,
  fastCrawlSettings,
  makeEverythingDue,
  persistAlso,
  statusDocs,
  writeConf,
} from '../../support/crawl.js';
import { deleteIndices, uniqueIndexNames } from '../../support/opensearch.js';
import { page, robots, Site } from '../../support/site.js';
import { field, type ReadRecord, readWarc, warcFiles } from '../../support/warc.js';
import { sha1Base32 } from '../../unit/warc/support.js';

const names = uniqueIndexNames('warc');
const site = new Site();
const A = '127.0.0.6';
const warcDir = mkdtempSync(join(tmpdir(), 'warc-crawl-'));
const html =
  '<!doctype html><html><head><title>Zipped</title></head><body><p>compressed text</p></body></html>';
const zipped = gzipSync(Buffer.from(html));
const blob = randomBytes(5000);
let a: string;
let conf: string;

beforeAll(async () => {
  await site.start([A]);
  a = site.origin(A);
  site.route(A, '/robots.txt', robots('User-agent: *\nAllow: /\n'));
  site.route(A, '/', page('Home', ['/missing', '/moved', '/etag', '/compressed', '/blob']));
  site.route(A, '/moved', (_n, _q, res) => {
    res
      .writeHead(301, { Location: '/target', 'Content-Type': 'text/html' })
      .end('<a href="/target">Moved</a>');
  });
  site.route(A, '/target', page('Target'));
  site.route(A, '/etag', (_n, req, res) => {
    if (req.headers['if-none-match'] === '"v1"') res.writeHead(304, { ETag: '"v1"' }).end();
    else page('Tagged', [], '')(0, req, res.setHeader('ETag', '"v1"'));
  });
  site.route(A, '/compressed', (_n, _q, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html', 'Content-Encoding': 'gzip', 'X-Case-Kept': 'Mixed' });
    res.end(zipped);
  });
  site.route(A, '/blob', (_n, _q, res) => {
    res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': String(blob.length) });
    res.end(blob);
  });
  conf = writeConf({
    ...fastCrawlSettings(names),
    'warc.enabled': true,
    'warc.dir': warcDir,
    // The ETag comes back as If-None-Match; warc.date and warc.digest name the capture a 304 revisits.
    'metadata.persist': persistAlso('protocol.etag', 'warc.*'),
  });
});

afterAll(async () => {
  await site.close();
  await deleteIndices(names.status, names.content);
});

async function round(...extra: string[]): Promise<void> {
  const r = await crawler('run', '--once', '--conf', conf, ...extra);
  expect(r.err).toEqual([]);
  expect(r.code).toBe(0);
}

async function allRecords(): Promise<ReadRecord[]> {
  const files = warcFiles(warcDir);
  expect(files.every((f) => f.endsWith('.warc.gz'))).toBe(true);
  return (await Promise.all(files.map(readWarc))).flat();
}

const pathOf = (r: ReadRecord) => new URL(r.uri).pathname;

describe('a crawl with warc.enabled', () => {
  it('archives every answer as a request/response pair whose digests and headers match what was sent', async () => {
    await round('--seed', `${a}/`);
    await makeEverythingDue(names.status);
    await round();

    const files = warcFiles(warcDir);
    expect(files).toHaveLength(2);
    const records = await allRecords();
    // One warcinfo record at the head of each file, and nowhere else.
    for (const f of files) {
      const own = records.filter((r) => r.file === f);
      expect(own[0]!.type).toBe('warcinfo');
      expect(own.slice(1).some((r) => r.type === 'warcinfo')).toBe(false);
      expect(own[0]!.payload.toString()).toMatch(/^software: os-crawler\/0\.1\.0\r\n/m);
      expect(own[0]!.payload.toString()).toMatch(/\r\nhttp-header-user-agent: endtoendbot\r\n/);
      expect(own[0]!.warc['WARC-Filename']).toBe(f.slice(warcDir.length + 1));
    }

    // Exactly one request and one answer record per request the server saw (robots.txt aside).
    const served = site.hosts
      .get(A)!
      .requests.map((q) => q.path)
      .filter((p) => p !== '/robots.txt')
      .sort();
    const requests = records.filter((r) => r.type === 'request');
    const answers = records.filter((r) => r.type === 'response' || r.type === 'revisit');
    expect(requests.map(pathOf).sort()).toEqual(served);
    expect(answers.map(pathOf).sort()).toEqual(served);
    for (const res of answers) {
      const req = requests.find((q) => q.warc['WARC-Record-ID'] === res.warc['WARC-Concurrent-To']);
      expect(req?.uri).toBe(res.uri);
      expect(req?.warc['WARC-Concurrent-To']).toBe(res.warc['WARC-Record-ID']);
      expect(req?.warc['WARC-Date']).toBe(res.warc['WARC-Date']);
      expect(res.warc['WARC-IP-Address']).toBe(A);
    }

    // Digests a reader recomputes; lengths consistent with them.
    for (const r of [...requests, ...answers]) {
      expect(r.warc['WARC-Block-Digest']).toBe(sha1Base32(r.block));
      expect(Number(r.warc['Content-Length'])).toBe(r.block.length);
      if (r.type === 'response') {
        expect(r.warc['WARC-Payload-Digest']).toBe(sha1Base32(r.payload));
        expect(field(r, 'Content-Length')).toBe(String(r.payload.length));
      }
    }

    const first = (path: string, type = 'response') =>
      answers.find((r) => pathOf(r) === path && r.type === type)!;
    expect(first('/missing').statusline).toBe('HTTP/1.1 404 Not Found');
    expect(first('/missing').payload.toString()).toBe('not found');
    expect(first('/moved').statusline).toBe('HTTP/1.1 301 Moved Permanently');
    expect(field(first('/moved'), 'Location')).toBe('/target');
    expect(first('/moved').payload.toString()).toBe('<a href="/target">Moved</a>');
    expect(first('/blob').payload).toEqual(blob);
    expect(field(first('/blob'), 'Content-Type')).toBe('application/octet-stream');
    // The gzip body is archived decoded; the header that said otherwise is kept under X-Crawler-.
    const gz = first('/compressed');
    expect(gz.payload.toString()).toBe(html);
    expect(field(gz, 'Content-Encoding')).toBeUndefined();
    expect(field(gz, 'X-Crawler-Content-Encoding')).toBe('gzip');
    expect(gz.http).toContainEqual(['X-Case-Kept', 'Mixed']);
    // Request records hold the request as sent.
    const req = requests.find((r) => pathOf(r) === '/compressed')!;
    expect(req.statusline).toBe('GET /compressed HTTP/1.1');
    expect(field(req, 'host')).toBe(new URL(a).host);
    expect(field(req, 'user-agent')).toBe('endtoendbot');
    expect(field(req, 'accept-encoding')).toBe('gzip, deflate, br');

    // The second fetch of /etag answered 304: a revisit of the first capture.
    const tagged = first('/etag');
    const revisit = first('/etag', 'revisit');
    expect(revisit.statusline).toBe('HTTP/1.1 304 Not Modified');
    expect(revisit.warc['WARC-Profile']).toBe('http://netpreserve.org/warc/1.0/revisit/server-not-modified');
    expect(revisit.warc['WARC-Refers-To-Target-URI']).toBe(`${a}/etag`);
    expect(revisit.warc['WARC-Refers-To-Date']).toBe(tagged.warc['WARC-Date']);
    expect(revisit.warc['WARC-Payload-Digest']).toBe(tagged.warc['WARC-Payload-Digest']);
    expect(revisit.payload.length).toBe(0);
    const etagRequests = requests.filter((r) => pathOf(r) === '/etag');
    expect(etagRequests.map((r) => field(r, 'if-none-match'))).toEqual([undefined, '"v1"']);
  });

  it('status documents say where each page was archived (warc.* listed in metadata.persist)', async () => {
    const docs = await statusDocs(names.status);
    const records = await allRecords();
    for (const path of ['/', '/missing', '/moved', '/etag']) {
      const md = docs.get(`${a}${path}`)!.metadata;
      const at = records.find(
        (r) => r.file === join(warcDir, md['warc.file']![0]!) && r.offset === Number(md['warc.offset']![0]),
      );
      expect(at?.uri, path).toBe(`${a}${path}`);
      expect(at?.type).toBe(path === '/etag' ? 'revisit' : 'response');
    }
  });

  it('crawler warc ls lists every record: type, status, length and URI', async () => {
    const file = warcFiles(warcDir)[0]!;
    const records = await readWarc(file);
    const r = await crawler('warc', 'ls', file);
    expect(r.code).toBe(0);
    expect(r.out).toHaveLength(records.length + 1);
    expect(r.out.at(-1)).toBe(`${records.length} records in 1 file`);
    expect(r.out[0]).toMatch(/^0\t\d+\twarcinfo\t-\t\d+\t-$/);
    expect(r.out).toContainEqual(
      expect.stringMatching(new RegExp(`\\tresponse\\t404\\t\\d+\\t${a}/missing$`)),
    );
    expect(r.out).toContainEqual(expect.stringMatching(new RegExp(`\\trequest\\t-\\t\\d+\\t${a}/missing$`)));
  });
});
