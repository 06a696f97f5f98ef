import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpProtocol } from '../../../src/protocol/http/client.js';
import { FETCH_EXCEPTION, FetchException } from '../../../src/protocol/http/errors.js';
import { protocolSettings } from '../../../src/protocol/settings.js';
import { fakeResolver, startServer, type TestServer } from './servers.js';

async function refusal(p: Promise<unknown>): Promise<FetchException> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(FetchException);
  return e as FetchException;
}

describe('http.filter.ipaddress.exclude at connect time', () => {
  let site: TestServer;
  const hostHeaders: string[] = [];

  beforeAll(async () => {
    site = await startServer((req, res) => {
      hostHeaders.push(req.headers.host ?? '');
      res.end('inside');
    }, '127.0.0.1');
  });

  afterAll(async () => site.close());

  const protocolWith = (entries: Record<string, unknown>, names: Record<string, string> = {}) =>
    new HttpProtocol(protocolSettings({ 'http.agent.name': 'testbot', 'http.timeout': 2000, ...entries }), {
      resolver: Object.keys(names).length > 0 ? fakeResolver(names) : undefined,
    });

  it('refuses an IP literal in 127.0.0.0/8 by default, naming the address and the setting that allows it, sending nothing', async () => {
    const p = protocolWith({});
    try {
      const before = site.connections;
      const e = await refusal(p.fetch(`http://127.0.0.1:${site.port}/`));
      expect(e.fetchException).toBe(FETCH_EXCEPTION.blockedAddress);
      expect(e.code).toBe('FETCH_BLOCKED_ADDRESS');
      expect(e.message).toMatch(/: 127\.0\.0\.1 refused: --set http\.filter\.ipaddress\.allow=127\.0\.0\.1$/);
      expect(site.connections).toBe(before);
    } finally {
      await p.close();
    }
  });

  it('refuses the name localhost, resolved by the system', async () => {
    const p = protocolWith({});
    try {
      const e = await refusal(p.fetch(`http://localhost:${site.port}/`));
      expect(e.fetchException).toBe(FETCH_EXCEPTION.blockedAddress);
    } finally {
      await p.close();
    }
  });

  it('refuses a public-looking name whose DNS answer points inside', async () => {
    const p = protocolWith({}, { 'www.public-site.test': '127.0.0.1' });
    try {
      const e = await refusal(p.fetch(`http://www.public-site.test:${site.port}/`));
      expect(e.fetchException).toBe(FETCH_EXCEPTION.blockedAddress);
      expect(e.message).toContain(
        'www.public-site.test (127.0.0.1) refused: --set http.filter.ipaddress.allow=127.0.0.1',
      );
    } finally {
      await p.close();
    }
  });

  it('connects to the checked address with the name kept in the Host header when allowed', async () => {
    const p = protocolWith({ 'http.filter.ipaddress.exclude': '' }, { 'www.public-site.test': '127.0.0.1' });
    try {
      const res = await p.fetch(`http://www.public-site.test:${site.port}/`);
      expect(res.content.toString()).toBe('inside');
      expect(res.ip).toBe('127.0.0.1');
      expect(hostHeaders.at(-1)).toBe(`www.public-site.test:${site.port}`);
    } finally {
      await p.close();
    }
  });

  it('honours a custom list: only the listed range is refused', async () => {
    const other = await startServer((_req, res) => res.end('ok'), '127.0.0.7');
    const p = protocolWith({ 'http.filter.ipaddress.exclude': ['127.0.0.1/32'] });
    try {
      expect((await p.fetch(`${other.origin}/`)).statusCode).toBe(200);
      const e = await refusal(p.fetch(`http://127.0.0.1:${site.port}/`));
      expect(e.fetchException).toBe(FETCH_EXCEPTION.blockedAddress);
    } finally {
      await p.close();
      await other.close();
    }
  });

  it('connects to an address http.filter.ipaddress.allow lists, the rest of the range still refused', async () => {
    const other = await startServer((_req, res) => res.end('ok'), '127.0.0.7');
    const p = protocolWith({ 'http.filter.ipaddress.allow': ['127.0.0.1'] });
    try {
      expect((await p.fetch(`http://127.0.0.1:${site.port}/`)).content.toString()).toBe('inside');
      const e = await refusal(p.fetch(`${other.origin}/`));
      expect(e.fetchException).toBe(FETCH_EXCEPTION.blockedAddress);
    } finally {
      await p.close();
      await other.close();
    }
  });

  it('tries the next allowed address when the first refuses the connection', async () => {
    const resolver = async () => [
      { address: '127.0.0.30', family: 4 },
      { address: '127.0.0.1', family: 4 },
    ];
    const p = new HttpProtocol(
      protocolSettings({ 'http.agent.name': 'testbot', 'http.filter.ipaddress.exclude': [] }),
      { resolver },
    );
    try {
      const res = await p.fetch(`http://two-addresses.test:${site.port}/`);
      expect(res.content.toString()).toBe('inside');
      expect(res.ip).toBe('127.0.0.1');
    } finally {
      await p.close();
    }
  });
});
