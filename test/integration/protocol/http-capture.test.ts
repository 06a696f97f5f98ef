import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpProtocol } from '../../../src/protocol/http/client.js';
import { metadataOf } from '../../../src/protocol/types.js';
import { startServer, type TestServer, testProtocol } from './servers.js';

let server: TestServer;
/** The request heads as the server received them, by path. */
const received = new Map<string, string[]>();
const protocols: HttpProtocol[] = [];
const protocol = (entries: Record<string, unknown> = {}, capture = true) => {
  const p = testProtocol(entries, { capture });
  protocols.push(p);
  return p;
};

beforeAll(async () => {
  server = await startServer((req, res) => {
    received.set(req.url!, req.rawHeaders);
    if (req.url === '/moved')
      res.writeHead(302, { Location: '/there', 'Content-Type': 'text/plain' }).end('go there');
    else if (req.url === '/zipped')
      res
        .writeHead(200, { 'Content-Encoding': 'gzip', 'X-Mixed-Case': 'Yes' })
        .end(gzipSync('unzipped text'));
    else res.writeHead(200, 'Fine Thanks', { 'Content-Type': 'text/plain' }).end('x'.repeat(100));
  }, '127.0.0.9');
});

afterAll(async () => {
  for (const p of protocols) await p.close();
  await server.close();
});

describe('HTTP capture for WARC output', () => {
  it('is off unless asked for', async () => {
    const r = await protocol({}, false).fetch(`${server.origin}/plain`);
    expect(r.exchange).toBeUndefined();
  });

  it('keeps the request head exactly as the server received it', async () => {
    const md = metadataOf({ 'protocol.set-header': 'X-Extra=1' });
    const r = await protocol().fetch(`${server.origin}/plain?q=1`, md);
    const x = r.exchange!;
    expect(x.method).toBe('GET');
    expect(x.target).toBe('/plain?q=1');
    expect(x.requestHeaders.flat()).toEqual(received.get('/plain?q=1'));
    expect(x.requestHeaders).toContainEqual(['x-extra', '1']);
    expect(x.requestTime).toBeGreaterThan(0);
    expect(x.ip).toBe('127.0.0.9');
  });

  it('keeps the head of a HEAD request as received too (undici closes such connections)', async () => {
    const r = await protocol().fetch(`${server.origin}/head`, metadataOf({ 'http.method.head': 'true' }));
    expect(r.exchange!.method).toBe('HEAD');
    expect(r.exchange!.requestHeaders.flat()).toEqual(received.get('/head'));
    expect(r.exchange!.payload.length).toBe(0);
  });

  it('keeps the response head as received: reason phrase, field names in their case, in order', async () => {
    const r = await protocol().fetch(`${server.origin}/plain`);
    expect(r.exchange!.statusText).toBe('Fine Thanks');
    expect(r.exchange!.rawHeaders.slice(0, 2)).toEqual(['Content-Type', 'text/plain']);
    expect(r.exchange!.payload).toBe(r.content);
    expect(r.exchange!.decoded).toBe(false);
  });

  it('says when the payload was decoded from its Content-Encoding', async () => {
    const r = await protocol().fetch(`${server.origin}/zipped`);
    expect(r.exchange!.payload.toString()).toBe('unzipped text');
    expect(r.exchange!.decoded).toBe(true);
    expect(r.exchange!.rawHeaders).toContain('X-Mixed-Case');
  });

  it("reads a redirect's body for the archive, while the response content stays empty", async () => {
    const r = await protocol().fetch(`${server.origin}/moved`);
    expect(r.statusCode).toBe(302);
    expect(r.content.length).toBe(0);
    expect(r.exchange!.payload.toString()).toBe('go there');
  });

  it('marks a payload cut at http.content.limit', async () => {
    const r = await protocol({ 'http.content.limit': 10 }).fetch(`${server.origin}/plain`);
    expect(r.exchange!.payload.length).toBe(10);
    expect(r.exchange!.trimmed).toBe('length');
  });
});
