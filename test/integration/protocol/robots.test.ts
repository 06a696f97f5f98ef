import type { ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { HttpProtocol } from '../../../src/protocol/http/client.js';
import { RobotsService } from '../../../src/protocol/robots/fetch-robots.js';
import { protocolSettings } from '../../../src/protocol/settings.js';
import { ManualClock } from '../../../src/util/clock.js';
import { startServer, type TestServer, testProtocol } from './servers.js';

const HOUR = 3_600_000;
const ROBOTS = 'User-agent: *\nDisallow: /private\nCrawl-delay: 2\nSitemap: /sitemap.xml\n';

describe('robots.txt fetching and caching', () => {
  let protocol: HttpProtocol;
  const servers: TestServer[] = [];
  let clock: ManualClock;

  beforeAll(() => {
    protocol = testProtocol();
  });
  afterEach(async () => {
    for (const s of servers.splice(0)) await s.close();
  });
  afterAll(async () => protocol.close());

  const service = (entries: Record<string, unknown> = {}) => {
    clock = new ManualClock();
    return new RobotsService(protocolSettings({ 'http.agent.name': 'testbot', ...entries }), {
      protocol,
      clock,
    });
  };

  /** A site whose /robots.txt answers with `answer`; other paths get 200. */
  async function site(answer: (res: ServerResponse, path: string) => void, host = '127.0.0.11') {
    const s = await startServer((req, res) => {
      if (req.url === '/robots.txt' || req.url?.startsWith('/hop')) answer(res, req.url);
      else res.end('page');
    }, host);
    servers.push(s);
    return s;
  }
  const robotsHits = (s: TestServer) => s.hits.get('/robots.txt') ?? 0;

  it('parses a 200 robots.txt: rules, crawl delay in ms, absolute sitemaps; fresh only the first time', async () => {
    const s = await site((res) => res.end(ROBOTS));
    const robots = service();
    const first = await robots.rulesFor(`${s.origin}/index.html`);
    expect(first.fresh).toBe(true);
    expect(first.rules.kind).toBe('parsed');
    expect(first.rules.isAllowed(`${s.origin}/public`)).toBe(true);
    expect(first.rules.isAllowed(`${s.origin}/private/x`)).toBe(false);
    expect(first.rules.crawlDelayMs).toBe(2000);
    expect(first.rules.sitemaps).toEqual([`${s.origin}/sitemap.xml`]);
    const second = await robots.rulesFor(`${s.origin}/other`);
    expect(second.fresh).toBe(false);
    expect(second.rules).toBe(first.rules);
    expect(robotsHits(s)).toBe(1);
  });

  it('makes one robots.txt request for 20 concurrent URLs of a new host', async () => {
    const s = await site((res) => setTimeout(() => res.end(ROBOTS), 50));
    const robots = service();
    const lookups = await Promise.all(
      Array.from({ length: 20 }, (_, i) => robots.rulesFor(`${s.origin}/p${i}`)),
    );
    expect(robotsHits(s)).toBe(1);
    expect(lookups.filter((l) => l.fresh)).toHaveLength(1);
    expect(new Set(lookups.map((l) => l.rules)).size).toBe(1);
  });

  it.each([
    [403, {}, true],
    [403, { 'http.robots.403.allow': false }, false],
    [404, {}, true],
    [410, {}, true],
    [401, {}, true],
  ])('answers %i with %j: allowed=%s, cached 6 h', async (status, entries, allowed) => {
    const s = await site((res) => res.writeHead(status).end('no'));
    const robots = service(entries);
    expect((await robots.rulesFor(`${s.origin}/`)).rules.isAllowed(`${s.origin}/x`)).toBe(allowed);
    clock.advance(6 * HOUR - 1);
    await robots.rulesFor(`${s.origin}/`);
    expect(robotsHits(s)).toBe(1);
    clock.advance(1);
    await robots.rulesFor(`${s.origin}/`);
    expect(robotsHits(s)).toBe(2);
  });

  it.each([
    [429, {}, false],
    [429, { 'http.robots.5xx.allow': true }, false],
    [500, {}, false],
    [503, {}, false],
    [500, { 'http.robots.5xx.allow': true }, true],
    [503, { 'http.robots.5xx.allow': true }, true],
  ])('answers %i with %j: allowed=%s, cached 1 h in the error cache', async (status, entries, allowed) => {
    const s = await site((res) => res.writeHead(status).end());
    const robots = service(entries);
    expect((await robots.rulesFor(`${s.origin}/`)).rules.isAllowed(`${s.origin}/x`)).toBe(allowed);
    clock.advance(HOUR - 1);
    await robots.rulesFor(`${s.origin}/`);
    expect(robotsHits(s)).toBe(1);
    expect(robots.stats().errorCached).toBe(1);
    clock.advance(1);
    await robots.rulesFor(`${s.origin}/`);
    expect(robotsHits(s)).toBe(2);
  });

  it('a refused connection is unavailable (disallow for now), not cached: the next lookup asks again', async () => {
    const s = await site((res) => res.end(ROBOTS));
    const origin = s.origin;
    await servers.pop()!.close();
    const robots = service();
    const lookup = await robots.rulesFor(`${origin}/x`);
    expect(lookup.rules.isAllowed(`${origin}/x`)).toBe(false);
    expect(lookup.unavailable).toEqual({ reason: 'Connection refused', unreachable: true });
    expect(robots.stats()).toMatchObject({ fetches: 1, errorCached: 0, cached: 0 });
    const again = await robots.rulesFor(`${origin}/y`);
    expect(again).toMatchObject({ fresh: true, unavailable: { unreachable: true } });
    expect(robots.stats().fetches).toBe(2);
  });

  it('a robots.txt that times out is unavailable and not cached', async () => {
    const s = await site(() => {}); // never answers
    const quick = testProtocol({ 'http.timeout': 200 });
    try {
      const robots = new RobotsService(protocolSettings({ 'http.agent.name': 'testbot' }), {
        protocol: quick,
        clock: new ManualClock(),
      });
      const lookup = await robots.rulesFor(`${s.origin}/x`);
      expect(lookup.rules.isAllowed(`${s.origin}/x`)).toBe(false);
      expect(lookup.unavailable).toEqual({ reason: 'Socket timeout fetching', unreachable: true });
      expect(robots.stats().errorCached).toBe(0);
    } finally {
      await quick.close();
    }
  });

  it.each([429, 500, 503])(
    'a %i is unavailable until its error cache entry expires, which the lookup tells',
    async (status) => {
      const s = await site((res) => res.writeHead(status).end());
      const robots = service();
      const first = await robots.rulesFor(`${s.origin}/`);
      expect(first.unavailable).toEqual({
        reason: `HTTP ${status}`,
        unreachable: false,
        retryAt: clock.now() + HOUR,
      });
      clock.advance(1000);
      const cached = await robots.rulesFor(`${s.origin}/a`);
      expect(cached).toMatchObject({ fresh: false, unavailable: { retryAt: first.unavailable!.retryAt } });
      expect(robotsHits(s)).toBe(1);
    },
  );

  it('a 5xx with http.robots.5xx.allow is not unavailable: everything is allowed', async () => {
    const s = await site((res) => res.writeHead(503).end());
    const lookup = await service({ 'http.robots.5xx.allow': true }).rulesFor(`${s.origin}/`);
    expect(lookup.unavailable).toBeUndefined();
    expect(lookup.rules.isAllowed(`${s.origin}/x`)).toBe(true);
  });

  it('fetches robots.txt through the address filter: a refused address allows, nothing is sent', async () => {
    const s = await site((res) => res.end('User-agent: *\nDisallow: /'), '127.0.0.1');
    const guarded = testProtocol({ 'http.filter.ipaddress.exclude': ['localhost'] });
    try {
      const robots = new RobotsService(protocolSettings({ 'http.agent.name': 'testbot' }), {
        protocol: guarded,
      });
      expect((await robots.rulesFor(`${s.origin}/`)).rules.isAllowed(`${s.origin}/x`)).toBe(true);
      expect(robotsHits(s)).toBe(0);
      expect(robots.stats().errorCached).toBe(1);
    } finally {
      await guarded.close();
    }
  });

  it('follows a relative redirect', async () => {
    const s = await site((res, path) =>
      path === '/robots.txt' ? res.writeHead(301, { Location: 'hop/real.txt' }).end() : res.end(ROBOTS),
    );
    const rules = (await service().rulesFor(`${s.origin}/`)).rules;
    expect(rules.kind).toBe('parsed');
    expect(rules.isAllowed(`${s.origin}/private`)).toBe(false);
    expect(s.hits.get('/hop/real.txt')).toBe(1);
  });

  it('follows 5 redirects, and allows everything when the 6th answer is still a redirect', async () => {
    const chain = (hops: number) =>
      site((res, path) => {
        const n = path === '/robots.txt' ? 0 : Number(path.slice(4));
        if (n < hops) res.writeHead(302, { Location: `/hop${n + 1}` }).end();
        else res.end('User-agent: *\nDisallow: /');
      });
    const five = await chain(5);
    expect((await service().rulesFor(`${five.origin}/`)).rules.kind).toBe('parsed');
    const six = await chain(6);
    const robots = service();
    const rules = (await robots.rulesFor(`${six.origin}/`)).rules;
    expect(rules.kind).toBe('allow-all');
    expect(robots.stats().fetches).toBe(6);
    expect(six.hits.get('/hop6')).toBeUndefined();
  });

  it("shares the cache entry of another origin's /robots.txt it redirects to", async () => {
    const b = await site((res) => res.end(ROBOTS), '127.0.0.12');
    const a = await site(
      (res) => res.writeHead(301, { Location: `${b.origin}/robots.txt` }).end(),
      '127.0.0.13',
    );
    const robots = service();
    const viaA = await robots.rulesFor(`${a.origin}/`);
    expect(viaA.rules.isAllowed(`${a.origin}/private`)).toBe(false);
    const ofB = await robots.rulesFor(`${b.origin}/`);
    expect(ofB.fresh).toBe(false);
    expect(ofB.rules).toBe(viaA.rules);
    expect(robotsHits(b)).toBe(1);
  });

  it("reuses another origin's cached rules when redirected to its /robots.txt", async () => {
    const b = await site((res) => res.end(ROBOTS), '127.0.0.14');
    const a = await site(
      (res) => res.writeHead(308, { Location: `${b.origin}/robots.txt` }).end(),
      '127.0.0.15',
    );
    const robots = service();
    const ofB = await robots.rulesFor(`${b.origin}/`);
    const viaA = await robots.rulesFor(`${a.origin}/`);
    expect(viaA.rules).toBe(ofB.rules);
    expect(robotsHits(b)).toBe(1);
    expect(robotsHits(a)).toBe(1);
  });

  it('reads at most http.robots.content.limit bytes and ignores a rule cut in half', async () => {
    const body = `User-agent: *\nDisallow: /early\n${'#'.repeat(100)}\nDisallow: /about-us-and-more\n`;
    const cut = body.indexOf('/about-us') + 3;
    const s = await site((res) => res.end(body));
    const rules = (await service({ 'http.robots.content.limit': cut }).rulesFor(`${s.origin}/`)).rules;
    expect(rules.isAllowed(`${s.origin}/early`)).toBe(false);
    expect(rules.isAllowed(`${s.origin}/about`)).toBe(true);
  });

  it('neither fetches nor forbids anything with http.robots.file.skip', async () => {
    const s = await site((res) => res.end('User-agent: *\nDisallow: /'));
    const lookup = await service({ 'http.robots.file.skip': true }).rulesFor(`${s.origin}/`);
    expect(lookup.rules.isAllowed(`${s.origin}/x`)).toBe(true);
    expect(lookup.fresh).toBe(false);
    expect(robotsHits(s)).toBe(0);
  });

  it('matches groups of http.robots.agents as well as of the agent name', async () => {
    const s = await site((res) => res.end('User-agent: CCBot\nDisallow: /ai\n\nUser-agent: *\nAllow: /'));
    const plain = (await service().rulesFor(`${s.origin}/`)).rules;
    expect(plain.isAllowed(`${s.origin}/ai`)).toBe(true);
    const s2 = await site(
      (res) => res.end('User-agent: CCBot\nDisallow: /ai\n\nUser-agent: *\nAllow: /'),
      '127.0.0.16',
    );
    const withList = (await service({ 'http.robots.agents': 'ccbot' }).rulesFor(`${s2.origin}/`)).rules;
    expect(withList.isAllowed(`${s2.origin}/ai`)).toBe(false);
  });

  it('answers allow-all without fetching for URLs that cannot be fetched anyway', async () => {
    const robots = service();
    expect((await robots.rulesFor('not a url')).rules.kind).toBe('allow-all');
    expect((await robots.rulesFor('ftp://example.com/file')).rules.kind).toBe('allow-all');
    expect(robots.stats().fetches).toBe(0);
  });
});
