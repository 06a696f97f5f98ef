import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect as tcpConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpProtocol } from '../../../src/protocol/http/client.js';
import { FETCH_EXCEPTION, FetchException } from '../../../src/protocol/http/errors.js';
import { protocolSettings } from '../../../src/protocol/settings.js';
import { startServer, type TestServer, testProtocol } from './servers.js';

interface TinyProxy {
  readonly name: string;
  readonly server: TestServer;
  /** Request targets as the proxy received them: absolute-form URLs, or host:port for CONNECT. */
  readonly targets: string[];
  readonly auth: (string | undefined)[];
}

/** Every request through any proxy, in order, as the proxy's name. */
const order: string[] = [];

/** A forward proxy: absolute-form requests for http targets, CONNECT tunnels for https. */
async function tinyProxy(name: string, host: string): Promise<TinyProxy> {
  const targets: string[] = [];
  const auth: (string | undefined)[] = [];
  const server = await startServer((req, res) => {
    order.push(name);
    targets.push(req.url ?? '');
    auth.push(req.headers['proxy-authorization']);
    const target = new URL(req.url ?? '');
    const { 'proxy-authorization': _a, 'proxy-connection': _c, ...headers } = req.headers;
    const upstream = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname + target.search,
        method: req.method,
        headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  }, host);
  server.server.on('connect', (req, client, head) => {
    order.push(name);
    targets.push(req.url ?? '');
    auth.push(req.headers['proxy-authorization']);
    const [h, p] = (req.url ?? '').split(':');
    const upstream = tcpConnect(Number(p), h!, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  return { name, server, targets, auth };
}

describe('proxies', () => {
  let target: TestServer;
  let a: TinyProxy;
  let b: TinyProxy;
  let dir: string;

  beforeAll(async () => {
    target = await startServer((req, res) => res.end(`page ${req.url}`), '127.0.0.8');
    a = await tinyProxy('A', '127.0.0.9');
    b = await tinyProxy('B', '127.0.0.10');
    dir = mkdtempSync(join(tmpdir(), 'proxies-'));
  });

  afterAll(async () => {
    await Promise.all([target.close(), a.server.close(), b.server.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  function proxyFile(lines: string[]): string {
    const path = join(dir, `proxies-${Math.random().toString(36).slice(2)}.txt`);
    writeFileSync(path, lines.join('\n'));
    return path;
  }

  it('ROUND_ROBIN alternates between the proxies of http.proxy.file, in absolute form for http', async () => {
    const file = proxyFile([
      '# two local proxies',
      a.server.origin,
      '',
      `// ${b.server.origin}`,
      b.server.origin,
    ]);
    const p = testProtocol({ 'http.proxy.file': file, 'http.proxy.rotation': 'ROUND_ROBIN' });
    order.length = 0;
    try {
      for (let i = 0; i < 4; i++) {
        const res = await p.fetch(`${target.origin}/p${i}`);
        expect(res.content.toString()).toBe(`page /p${i}`);
        expect(res.ip).toBeUndefined();
      }
      expect(order).toEqual(['A', 'B', 'A', 'B']);
      expect(p.proxyUsage()).toEqual([2, 2]);
      expect(a.targets.slice(-2)).toEqual([`${target.origin}/p0`, `${target.origin}/p2`]);
      expect(b.targets.slice(-2)).toEqual([`${target.origin}/p1`, `${target.origin}/p3`]);
      expect(target.hits.get('/p3')).toBe(1);
    } finally {
      await p.close();
    }
  });

  it('LEAST_USED spreads requests evenly', async () => {
    const p = testProtocol({
      'http.proxy.file': proxyFile([a.server.origin, b.server.origin]),
      'http.proxy.rotation': 'least_used',
    });
    try {
      for (let i = 0; i < 6; i++) await p.fetch(`${target.origin}/l${i}`);
      expect(p.proxyUsage()).toEqual([3, 3]);
    } finally {
      await p.close();
    }
  });

  it('sends the credentials of http.proxy.user and http.proxy.pass to the single proxy', async () => {
    const p = testProtocol({
      'http.proxy.host': a.server.host,
      'http.proxy.port': a.server.port,
      'http.proxy.user': 'crawler',
      'http.proxy.pass': 's3cret',
    });
    try {
      await p.fetch(`${target.origin}/auth`);
      expect(a.auth.at(-1)).toBe(`Basic ${Buffer.from('crawler:s3cret').toString('base64')}`);
    } finally {
      await p.close();
    }
  });

  it('tunnels https targets with CONNECT', async () => {
    const p = testProtocol({ 'http.proxy.host': b.server.host, 'http.proxy.port': b.server.port });
    try {
      // The target speaks plain HTTP, so the TLS handshake inside the tunnel fails: the tunnel is what we check.
      const e = await p.fetch(`https://${target.host}:${target.port}/secure`).catch((err: unknown) => err);
      expect(e).toBeInstanceOf(FetchException);
      expect(b.targets.at(-1)).toBe(`${target.host}:${target.port}`);
    } finally {
      await p.close();
    }
  });

  it('a proxy that is down gives "Proxy error" naming the proxy, not the target\'s "Connection refused"', async () => {
    // A port nothing listens on: bound, then closed.
    const closed = await startServer(() => undefined, '127.0.0.11');
    await closed.close();
    const p = testProtocol({ 'http.proxy.host': closed.host, 'http.proxy.port': closed.port });
    try {
      const e = (await p.fetch(`${target.origin}/dead-proxy`).catch((err: unknown) => err)) as FetchException;
      expect(e).toBeInstanceOf(FetchException);
      expect(e.fetchException).toBe(FETCH_EXCEPTION.proxy);
      expect(e.message).toContain(`through the proxy http://${closed.host}:${closed.port}/`);
      expect(p.proxyList).toEqual([`http://${closed.host}:${closed.port}/`]);
    } finally {
      await p.close();
    }
  });

  it('still refuses excluded target addresses when a proxy is used, without contacting the proxy', async () => {
    const p = new HttpProtocol(
      protocolSettings({ 'http.agent.name': 'testbot', 'http.proxy.file': proxyFile([a.server.origin]) }),
    );
    const before = a.targets.length;
    try {
      const e = await p.fetch(`${target.origin}/inside`).catch((err: unknown) => err);
      expect((e as FetchException).fetchException).toBe(FETCH_EXCEPTION.blockedAddress);
      expect(a.targets.length).toBe(before);
    } finally {
      await p.close();
    }
  });
});
