import { request } from 'node:http';
import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { buildConfig } from '../../../src/config/load.js';
import {
  type ConsoleSettings,
  type ConsoleView,
  consoleSettings,
  type RunningConsole,
  startConsole,
} from '../../../src/console/server.js';
import { ConfigError } from '../../../src/util/errors.js';
import { silentLogger } from '../../../src/util/log.js';

// The console's gate, with a view that answers fixed values: the token on every path (as a Bearer
// header or as the cookie ?token= sets), the Host header, read-only methods, no CORS, a strict CSP.

const TOKEN = 'unit-test-token-abcdefghijkl';
const view: ConsoleView = {
  state: async () => ({ ok: true }) as never,
  chart: async () => ({ source: 'since start', bucketSec: 5, points: [] }),
  explain: async (url) => ({ known: false, lines: [url, '  not in the status index'] }),
  prometheus: async () => '# HELP crawler_x x\n# TYPE crawler_x gauge\ncrawler_x 1\n',
};

let running: RunningConsole | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

const settings = (over: Partial<ConsoleSettings> = {}): ConsoleSettings => ({
  host: '127.0.0.1',
  port: 0,
  token: TOKEN,
  explicit: true,
  ...over,
});

function get(port: number, path: string, headers: Record<string, string> = {}, method = 'GET') {
  return new Promise<{
    status: number;
    headers: Record<string, string | string[] | undefined>;
    body: string;
  }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      let body = '';
      res.on('data', (c) => {
        body += c;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the console server', () => {
  it('answers 401 on every path without the token, and serves with a Bearer token', async () => {
    running = await startConsole(view, settings(), silentLogger);
    const port = running!.port;
    for (const path of [
      '/',
      '/console.js',
      '/console.css',
      '/api/state',
      '/api/chart',
      '/api/url?url=http://a/',
      '/metrics',
      '/x',
    ])
      expect((await get(port, path)).status, path).toBe(401);
    expect((await get(port, '/metrics', { authorization: 'Bearer wrong' })).status).toBe(401);
    const ok = await get(port, '/metrics', { authorization: `Bearer ${TOKEN}` });
    expect(ok.status).toBe(200);
    expect(ok.body).toContain('crawler_x 1');
    expect(ok.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect((await get(port, '/x', { authorization: `Bearer ${TOKEN}` })).status).toBe(404);
  });

  it('turns ?token= into an HttpOnly, SameSite=Strict cookie and redirects to the address without it', async () => {
    running = await startConsole(view, settings(), silentLogger);
    const port = running!.port;
    const r = await get(port, `/?token=${TOKEN}&hours=3`);
    expect(r.status).toBe(303);
    expect(r.headers.location).toBe('/?hours=3');
    const cookie = String(r.headers['set-cookie']);
    expect(cookie).toContain(`crawler_console_${port}=${TOKEN}`);
    expect(cookie).toMatch(/HttpOnly; SameSite=Strict/);
    const page = await get(port, '/', { cookie: `other=1; crawler_console_${port}=${TOKEN}` });
    expect(page.status).toBe(200);
    expect(page.body).toContain('<script src="/console.js" defer></script>');
    expect(page.headers['content-security-policy']).toMatch(/default-src 'none'; script-src 'self'/);
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['access-control-allow-origin']).toBeUndefined();
    expect((await get(port, '/', { cookie: `crawler_console_${port}=nope` })).status).toBe(401);
  });

  it('refuses another Host (DNS rebinding) and anything but GET and HEAD', async () => {
    running = await startConsole(view, settings(), silentLogger);
    const port = running!.port;
    const auth = { authorization: `Bearer ${TOKEN}` };
    expect((await get(port, '/api/state', { ...auth, host: `rebind.attacker.example:${port}` })).status).toBe(
      421,
    );
    expect((await get(port, '/api/state', { ...auth, host: `localhost:${port}` })).status).toBe(200);
    expect((await get(port, '/api/state', { ...auth, host: `[::1]:${port}` })).status).toBe(200);
    expect((await get(port, '/api/state', auth, 'POST')).status).toBe(405);
    expect((await get(port, '/api/state', auth, 'OPTIONS')).status).toBe(405);
    expect((await get(port, '/api/url?url=javascript:alert(1)', auth)).status).toBe(400);
  });

  it('serves its icon at /favicon.ico and /favicon.svg without the token (browsers ask before the cookie), by its Host only', async () => {
    running = await startConsole(view, settings(), silentLogger);
    const port = running!.port;
    for (const path of ['/favicon.ico', '/favicon.svg']) {
      const r = await get(port, path);
      expect(r.status, path).toBe(200);
      expect(r.headers['content-type'], path).toBe('image/svg+xml');
      expect(r.body, path).toMatch(/^<svg /);
      expect(r.body, path).not.toContain(TOKEN);
      expect((await get(port, path, { host: `rebind.attacker.example:${port}` })).status, path).toBe(421);
    }
    const page = await get(port, '/', { authorization: `Bearer ${TOKEN}` });
    expect(page.body).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml">');
  });

  it('a port in use: one warning, no console', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', () => resolve()));
    const port = (blocker.address() as { port: number }).port;
    const warnings: string[] = [];
    const log = {
      ...silentLogger,
      warn: (_o: unknown, m: string) => {
        warnings.push(m);
      },
    } as unknown as typeof silentLogger;
    expect(await startConsole(view, settings({ port }), log)).toBeUndefined();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/is in use; the crawl goes on without the console/);
    blocker.close();
  });
});

describe('console settings', () => {
  const config = (entries: Record<string, unknown>) => buildConfig([{ source: 'test', entries }]).config;

  it('a random token unless one is given; port 0 is no console', () => {
    const s = consoleSettings(config({}))!;
    expect(s).toMatchObject({ host: '127.0.0.1', port: 8099, explicit: false });
    expect(s.token.length).toBeGreaterThanOrEqual(32);
    expect(consoleSettings(config({ 'console.port': 0 }))).toBeUndefined();
  });

  it('refuses an address other than loopback without an explicit token of 16 characters', () => {
    expect(() => consoleSettings(config({ 'console.host': '0.0.0.0' }))).toThrow(ConfigError);
    expect(() =>
      consoleSettings(config({ 'console.host': '192.168.1.5', 'console.token': 'short' })),
    ).toThrow(/console.token must be set explicitly/);
    expect(
      consoleSettings(config({ 'console.host': '0.0.0.0', 'console.token': 'x'.repeat(16) }))?.explicit,
    ).toBe(true);
    expect(consoleSettings(config({ 'console.host': '127.0.0.2' }))?.explicit).toBe(false);
    expect(() => consoleSettings(config({ 'console.port': 70000 }))).toThrow(/not a port/);
  });
});
