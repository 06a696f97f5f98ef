import { createServer as createTcpServer, type Socket, type Server as TcpServer } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Metadata } from '../../../src/model/metadata.js';
import type { HttpProtocol } from '../../../src/protocol/http/client.js';
import { FETCH_EXCEPTION, FetchException } from '../../../src/protocol/http/errors.js';
import { metadataOf } from '../../../src/protocol/types.js';
import { fakeResolver, startServer, type TestServer, testProtocol } from './servers.js';

async function failure(p: Promise<unknown>): Promise<FetchException> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(FetchException);
  return e as FetchException;
}

describe('HTTP protocol against real servers', () => {
  let site: TestServer;
  let protocol: HttpProtocol;
  const seen: { headers?: Record<string, string | string[] | undefined> } = {};

  beforeAll(async () => {
    site = await startServer((req, res) => {
      seen.headers = req.headers;
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname === '/page') {
        res.writeHead(200, { 'Content-Type': 'text/html', 'X-Multi': ['a', 'b'], ETag: '"v1"' });
        res.end(req.method === 'HEAD' ? undefined : '<html>hello</html>');
      } else if (url.pathname === '/missing') {
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end('not here');
      } else if (url.pathname === '/moved') {
        res.writeHead(301, { Location: '/page' });
        res.end('moved');
      } else if (url.pathname === '/etag') {
        const match = req.headers['if-none-match'] === '"v1"';
        res.writeHead(match ? 304 : 200, { ETag: '"v1"' });
        res.end(match ? undefined : 'body');
      } else if (url.pathname === '/since') {
        const since = Date.parse(req.headers['if-modified-since'] ?? '');
        const fresh = since >= Date.UTC(2024, 2, 5);
        res.writeHead(fresh ? 304 : 200, { 'Last-Modified': 'Tue, 05 Mar 2024 00:00:00 GMT' });
        res.end(fresh ? undefined : 'body');
      } else {
        res.writeHead(500);
        res.end();
      }
    });
    protocol = testProtocol();
  });

  afterAll(async () => {
    await protocol.close();
    await site.close();
  });

  it('returns status, lowercased headers with every value, the body and the address', async () => {
    const res = await protocol.fetch(`${site.origin}/page`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toEqual(['text/html']);
    expect(res.headers['x-multi']).toEqual(['a', 'b']);
    expect(res.content.toString()).toBe('<html>hello</html>');
    expect(res.byteLength).toBe(18);
    expect(res.trimmed).toBeUndefined();
    expect(res.ip).toBe('127.0.0.2');
    expect(res.loadingTimeMs).toBeGreaterThan(0);
    expect(seen.headers?.['user-agent']).toBe('testbot/1.0');
    expect(seen.headers?.['accept-encoding']).toBe('gzip, deflate, br');
    expect(seen.headers?.['accept-language']).toBe('en-us,en-gb,en;q=0.7,*;q=0.3');
  });

  it('resolves with error statuses instead of throwing', async () => {
    const res = await protocol.fetch(`${site.origin}/missing`);
    expect(res.statusCode).toBe(404);
    expect(res.content.toString()).toBe('not here');
  });

  it('never follows a redirect and skips its body', async () => {
    const res = await protocol.fetch(`${site.origin}/moved`);
    expect(res.statusCode).toBe(301);
    expect(res.headers.location).toEqual(['/page']);
    expect(res.byteLength).toBe(0);
  });

  it('sends HEAD when the metadata says http.method.head', async () => {
    const res = await protocol.fetch(`${site.origin}/page`, metadataOf({ 'http.method.head': 'true' }));
    expect(res.statusCode).toBe(200);
    expect(res.byteLength).toBe(0);
  });

  it('gets 304 after an ETag round trip through the metadata', async () => {
    const first = await protocol.fetch(`${site.origin}/etag`);
    expect(first.statusCode).toBe(200);
    const md = new Metadata();
    md.setValues('protocol.etag', first.headers.etag);
    const second = await protocol.fetch(`${site.origin}/etag`, md);
    expect(seen.headers?.['if-none-match']).toBe('"v1"');
    expect(second.statusCode).toBe(304);
  });

  it('gets 304 when last-modified (ISO instant) is sent as If-Modified-Since', async () => {
    const res = await protocol.fetch(
      `${site.origin}/since`,
      Metadata.of({ 'last-modified': '2024-03-05T00:00:00Z' }),
    );
    expect(seen.headers?.['if-modified-since']).toBe('Tue, 05 Mar 2024 00:00:00 GMT');
    expect(res.statusCode).toBe(304);
  });

  it('keeps the connection alive between requests to one origin', async () => {
    const before = site.connections;
    await protocol.fetch(`${site.origin}/page`);
    await protocol.fetch(`${site.origin}/page`);
    expect(site.connections - before).toBeLessThanOrEqual(1);
  });

  it('stores the verbatim header block and request time with http.store.headers', async () => {
    const p = testProtocol({ 'http.store.headers': true });
    try {
      const res = await p.fetch(`${site.origin}/page`);
      const block = res.headers['_response.headers_']?.[0] ?? '';
      expect(block).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
      expect(block).toContain('Content-Type: text/html\r\n');
      expect(block).toContain('ETag: "v1"\r\n');
      expect(res.headers['_request.time_']).toEqual([String(Date.UTC(2025, 0, 1))]);
    } finally {
      await p.close();
    }
  });

  it('sends custom headers and cookies when configured', async () => {
    const p = testProtocol({ 'http.custom.headers': ['X-Crawl=on'], 'http.use.cookies': true });
    try {
      await p.fetch(`${site.origin}/page`, metadataOf({ 'protocol.set-cookie': ['sid=42; Path=/'] }));
      expect(seen.headers?.['x-crawl']).toBe('on');
      expect(seen.headers?.cookie).toBe('sid=42');
    } finally {
      await p.close();
    }
  });

  it('refuses schemes other than http and https', async () => {
    const e = await failure(protocol.fetch('ftp://example.com/file'));
    expect(e.fetchException).toBe(FETCH_EXCEPTION.unsupportedScheme);
  });
});

describe('HTTP failures', () => {
  let protocol: HttpProtocol;
  const raw: TcpServer[] = [];

  beforeAll(() => {
    protocol = testProtocol({}, { resolver: fakeResolver({}) });
  });

  afterEach(async () => {
    for (const s of raw.splice(0)) await new Promise((r) => s.close(r));
  });

  afterAll(async () => protocol.close());

  async function tcpServer(onConnect: (socket: Socket) => void): Promise<string> {
    const s = createTcpServer(onConnect);
    raw.push(s);
    await new Promise<void>((r) => s.listen(0, '127.0.0.6', r));
    return `127.0.0.6:${(s.address() as { port: number }).port}`;
  }

  it('reports a closed port as "Connection refused"', async () => {
    const s = await startServer(() => undefined, '127.0.0.6');
    const origin = s.origin;
    await s.close();
    expect((await failure(protocol.fetch(`${origin}/`))).fetchException).toBe(
      FETCH_EXCEPTION.connectionRefused,
    );
  });

  it('reports an unknown name as "Unknown host"', async () => {
    expect((await failure(protocol.fetch('http://nowhere.invalid/'))).fetchException).toBe(
      FETCH_EXCEPTION.unknownHost,
    );
  });

  it('reports a connection closed before the answer as "Connection reset"', async () => {
    const host = await tcpServer((socket) => socket.once('data', () => socket.destroy()));
    expect((await failure(protocol.fetch(`http://${host}/`))).fetchException).toBe(
      FETCH_EXCEPTION.connectionReset,
    );
  });

  it('reports a connection closed in the middle of the body as "Connection reset"', async () => {
    const host = await tcpServer((socket) =>
      socket.once('data', () => {
        socket.write('HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\nshort');
        setTimeout(() => socket.destroy(), 20);
      }),
    );
    expect((await failure(protocol.fetch(`http://${host}/`))).fetchException).toBe(
      FETCH_EXCEPTION.connectionReset,
    );
  });

  it('reports a malformed answer as "Protocol error"', async () => {
    const host = await tcpServer((socket) => socket.once('data', () => socket.end('NONSENSE\r\n\r\n')));
    expect((await failure(protocol.fetch(`http://${host}/`))).fetchException).toBe(FETCH_EXCEPTION.protocol);
  });

  it('reports a gzip body that is not gzip as "Protocol error"', async () => {
    const host = await tcpServer((socket) =>
      socket.once('data', () =>
        socket.end('HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: 9\r\n\r\nnot gzip!'),
      ),
    );
    expect((await failure(protocol.fetch(`http://${host}/`))).fetchException).toBe(FETCH_EXCEPTION.protocol);
  });

  it('reports https to a server that does not speak TLS as "TLS error"', async () => {
    const s = await startServer((_req, res) => res.end('plain'), '127.0.0.6');
    try {
      const e = await failure(protocol.fetch(`https://127.0.0.6:${s.port}/`));
      expect(e.fetchException).toBe(FETCH_EXCEPTION.tls);
    } finally {
      await s.close();
    }
  });
});
