import { afterEach, describe, expect, it, vi } from 'vitest';
import { Fetcher } from '../../../src/fetch/fetcher.js';
import type { FetcherOptions } from '../../../src/fetch/fetcher-ports.js';
import type { HealthPolicy } from '../../../src/fetch/host-health.js';
import { type FetchProtocol, robotsSource } from '../../../src/fetch/ports.js';
import { DEFER_CAUSE, MD } from '../../../src/model/keys.js';
import { Metadata } from '../../../src/model/metadata.js';
import type { HttpProtocol } from '../../../src/protocol/http/client.js';
import { RobotsService } from '../../../src/protocol/robots/fetch-robots.js';
import { protocolSettings } from '../../../src/protocol/settings.js';
import { systemClock } from '../../../src/util/clock.js';
import { gaps, html, ReopenableHost } from '../../support/host.js';
import { testProtocol } from '../protocol/servers.js';

const ALLOW = 'User-agent: *\nAllow: /\n';

const policy: HealthPolicy = {
  factor: 2,
  maxDelayMs: 1600,
  maxRetryAfterMs: 30_000,
  downAfter: 3,
  downBackoffMs: 1500,
  downMaxBackoffMs: 3000,
};

function options(delayMs: number, o: Partial<FetcherOptions> = {}): FetcherOptions {
  return {
    queue: { delayMs, minDelayMs: 0, threadsPerQueue: 1, maxThreadsRules: [] },
    mode: 'byHost',
    threads: 4,
    maxUrlsInQueues: 100,
    queueTimeoutMs: -1,
    crawlDelay: { serverDelayMs: delayMs, maxCrawlDelayMs: 30_000, forceMax: false, forceServerDelay: false },
    prefix: 'protocol.',
    redirectionsAllowed: true,
    sitemapDiscovery: false,
    hosts: policy,
    ...o,
  };
}

interface Event {
  readonly url: string;
  readonly kind: 'status' | 'fetched';
  readonly status?: string;
  readonly md: Metadata;
  /** A deferral's typed field: due again at `until`, and why. */
  readonly deferral?: { readonly until: number; readonly cause: string; readonly message: string };
  readonly at: number;
}

const hosts: ReopenableHost[] = [];
const protocols: HttpProtocol[] = [];
const fetchers: Fetcher[] = [];
afterEach(async () => {
  for (const f of fetchers.splice(0)) f.close();
  for (const h of hosts.splice(0)) await h.close();
  for (const p of protocols.splice(0)) await p.close();
});

async function host(address: string, handler: ConstructorParameters<typeof ReopenableHost>[1]) {
  const h = new ReopenableHost(address, handler);
  await h.open();
  hosts.push(h);
  return h;
}

/** A host that allows everything and answers pages with `page` (default: 200). */
const site = (address: string, page?: ConstructorParameters<typeof ReopenableHost>[1]) =>
  host(address, (req, res, n) => {
    if (req.url === '/robots.txt') res.end(ALLOW);
    else if (page) page(req, res, n);
    else html(res, req.url);
  });

/**
 * A fetcher on the real HTTP protocol and robots.txt service. `requests` lists every request the
 * protocol was asked to send (robots.txt included), with its time: a closed listener cannot count
 * the connections it refuses.
 */
function setup(o: FetcherOptions, protocolEntries: Record<string, unknown> = {}) {
  const protocol = testProtocol(protocolEntries, { clock: systemClock });
  protocols.push(protocol);
  const requests: { url: string; at: number }[] = [];
  const counting: FetchProtocol & Pick<HttpProtocol, 'fetch'> = {
    fetch: (url, md) => {
      requests.push({ url, at: Date.now() });
      return protocol.fetch(url, md);
    },
  };
  const robots = new RobotsService(
    protocolSettings({ 'http.agent.name': 'testbot', 'http.filter.ipaddress.exclude': [] }),
    { protocol: counting },
  );
  const events: Event[] = [];
  const lines: { obj: Record<string, unknown>; msg: string }[] = [];
  const fetcher = new Fetcher(o, {
    protocol: counting,
    robots: robotsSource(robots),
    clock: systemClock,
    log: {
      info: (obj, msg) => lines.push({ obj: obj as Record<string, unknown>, msg }),
      warn: (obj, msg) => lines.push({ obj: obj as Record<string, unknown>, msg }),
    },
    sink: {
      status: (s) =>
        events.push({
          url: s.url,
          kind: 'status',
          status: s.status,
          md: s.metadata,
          ...(s.deferral ? { deferral: s.deferral } : {}),
          at: Date.now(),
        }),
      fetched: (f) => {
        events.push({ url: f.url, kind: 'fetched', md: f.metadata, at: Date.now() });
      },
      discovered: () => {},
    },
  });
  fetchers.push(fetcher);
  const eventOf = (url: string) => events.filter((e) => e.url === url).at(-1);
  const submit = async (...urls: string[]) => {
    for (const url of urls) await fetcher.submit({ url, metadata: new Metadata() });
  };
  return { fetcher, events, lines, requests, eventOf, submit };
}

const deferredUntil = (e: Event | undefined) => e?.deferral?.until ?? Number.NaN;
const cause = (e: Event | undefined) => e?.deferral?.cause;
const urls = (origin: string, n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => `${origin}/p${from + i}`);

describe('host politeness in the fetcher, against real servers', () => {
  it('a 429 with Retry-After: 3 pauses the host for 3 s: its URLs are deferred to then, others go on', async () => {
    const a = await site('127.0.0.21', (req, res, n) =>
      n === 0 && req.url === '/p0' ? res.writeHead(429, { 'retry-after': '3' }).end() : html(res),
    );
    const b = await site('127.0.0.22');
    const { fetcher, events, eventOf, submit, lines } = setup(options(50));
    await submit(`${a.origin}/p0`, `${a.origin}/p1`);
    await vi.waitFor(() => expect(eventOf(`${a.origin}/p1`)).toBeDefined(), { timeout: 10_000 });
    const answered = a.pages()[0]!;
    expect(answered).toMatchObject({ path: '/p0', status: 429 });
    const p0 = eventOf(`${a.origin}/p0`)!;
    // The URL and the one queued behind it are put back, status unchanged, due when the host said.
    for (const e of [p0, eventOf(`${a.origin}/p1`)!]) {
      expect(e).toMatchObject({ kind: 'status', status: 'DISCOVERED' });
      expect(cause(e)).toBe(DEFER_CAUSE.retryAfter);
      expect(deferredUntil(e)).toBeGreaterThanOrEqual(answered.end + 3000 - 20);
      expect(e.md.has(MD.fetchErrorCount)).toBe(false);
    }
    // During the pause: a new URL of the host is deferred at once, another host is fetched.
    await submit(`${a.origin}/p2`, ...urls(b.origin, 3));
    await vi.waitFor(() => expect(b.pages()).toHaveLength(3), { timeout: 10_000 });
    expect(cause(eventOf(`${a.origin}/p2`))).toBe(DEFER_CAUSE.retryAfter);
    expect(a.pages()).toHaveLength(1);
    expect(lines.map((l) => l.msg)).toContainEqual(
      expect.stringMatching(/^host 127\.0\.0\.21 paused: HTTP 429 with Retry-After 3 s/),
    );

    // As the spout would: the URL comes back when due, and is fetched.
    await vi.waitFor(() => expect(Date.now()).toBeGreaterThanOrEqual(deferredUntil(p0)), { timeout: 10_000 });
    await submit(`${a.origin}/p0`);
    await fetcher.idle();
    expect(eventOf(`${a.origin}/p0`)).toMatchObject({ kind: 'fetched' });
    const next = a.pages()[1]!;
    expect(next.start - answered.end).toBeGreaterThanOrEqual(3000 - 20);
    expect(events.filter((e) => e.status === 'FETCH_ERROR')).toEqual([]);
  });

  it('a Retry-After beyond fetcher.max.retry.after is a FETCH_ERROR, and the host is paused for the cap', async () => {
    const a = await site('127.0.0.23', (_req, res) => res.writeHead(503, { 'retry-after': '86400' }).end());
    const { fetcher, eventOf, submit } = setup(options(0, { hosts: { ...policy, maxRetryAfterMs: 2000 } }));
    await submit(`${a.origin}/x`);
    await fetcher.idle();
    expect(eventOf(`${a.origin}/x`)).toMatchObject({ status: 'FETCH_ERROR' });
    await submit(`${a.origin}/y`);
    const y = eventOf(`${a.origin}/y`);
    expect(cause(y)).toBe(DEFER_CAUSE.retryAfter);
    expect(deferredUntil(y) - a.pages()[0]!.end).toBeLessThanOrEqual(2000 + 5000);
    expect(a.pages()).toHaveLength(1);
  });

  it('a 429 without Retry-After is deferred, not a fetch error of the page, and the delay grows', async () => {
    const a = await site('127.0.0.24', (req, res, n) =>
      req.url === '/p0' && n === 0 ? res.writeHead(429).end() : html(res),
    );
    const { fetcher, eventOf, submit } = setup(options(100));
    await submit(...urls(a.origin, 2));
    await fetcher.idle();
    const p0 = eventOf(`${a.origin}/p0`)!;
    expect(p0).toMatchObject({ kind: 'status', status: 'DISCOVERED' });
    expect(cause(p0)).toBe(DEFER_CAUSE.tooManyRequests);
    expect(eventOf(`${a.origin}/p1`)).toMatchObject({ kind: 'fetched' });
    expect(gaps(a.pages())[0]).toBeGreaterThanOrEqual(200 - 20);
  });

  it('a host answering 503 sees its request interval double, then come back to the configured delay', async () => {
    const FAILURES = 4;
    const a = await site('127.0.0.25', (_req, res) => {
      if (a.pages().length <= FAILURES) res.writeHead(503).end();
      else html(res);
    });
    const { fetcher, events, submit, lines } = setup(options(100));
    await submit(...urls(a.origin, 10));
    await fetcher.idle();
    const g = gaps(a.pages());
    // After each failure the delay doubles (100 ms x 2, 4, 8, 16 = the 1.6 s cap); each success halves it.
    const expected = [200, 400, 800, 1600, 800, 400, 200, 100, 100];
    expect(g).toHaveLength(expected.length);
    for (const [i, gap] of g.entries()) expect(gap).toBeGreaterThanOrEqual(expected[i]! - 20);
    // Back at the configured delay: the last gaps are far below the peak (a generous ceiling).
    expect(g.at(-1)).toBeLessThan(1600);
    expect(events.filter((e) => e.status === 'FETCH_ERROR')).toHaveLength(FAILURES);
    expect(events.filter((e) => e.kind === 'fetched')).toHaveLength(10 - FAILURES);
    const msgs = lines.map((l) => l.msg);
    expect(msgs).toContainEqual(
      expect.stringMatching(/^host 127\.0\.0\.25 backing off after HTTP 503: 0\.2 s/),
    );
    expect(msgs).toContainEqual('host 127.0.0.25 back to its own delay of 0.1 s');
  });

  it('a host that refuses connections is down after 3 tries: its URLs are deferred, one probe per pause, all fetched once it is back', async () => {
    const a = await site('127.0.0.26');
    const b = await site('127.0.0.27');
    const { fetcher, events, eventOf, submit, requests, lines } = setup(options(50));
    await submit(`${a.origin}/p0`);
    await fetcher.idle();
    expect(eventOf(`${a.origin}/p0`)).toMatchObject({ kind: 'fetched' });

    await a.close();
    const outage = Date.now();
    const aUrls = urls(a.origin, 20, 1);
    await submit(...aUrls, ...urls(b.origin, 10));
    await vi.waitFor(() => expect(aUrls.every((u) => eventOf(u))).toBe(true), { timeout: 10_000 });
    // Two failures are the URLs' own, as before; the third makes the host down and defers the rest.
    const byUrl = aUrls.map((u) => eventOf(u)!);
    expect(byUrl.slice(0, 2).map((e) => e.status)).toEqual(['FETCH_ERROR', 'FETCH_ERROR']);
    expect(byUrl.slice(0, 2).map((e) => e.md.getFirstValue(MD.fetchException))).toEqual([
      'Connection refused',
      'Connection refused',
    ]);
    for (const e of byUrl.slice(2)) {
      expect(e).toMatchObject({ kind: 'status', status: 'DISCOVERED' });
      expect(cause(e)).toBe(DEFER_CAUSE.hostDown);
      expect(e.deferral?.message).toMatch(/Connection refused 3 times in a row/);
    }
    const until = deferredUntil(byUrl[2]);
    // What the progress line shows.
    expect(fetcher.stats).toMatchObject({ hostsDown: 1, hostsBackingOff: 0 });
    // The other host is fetched meanwhile, all of it before the down host's pause ends.
    await vi.waitFor(() => expect(b.pages()).toHaveLength(10), { timeout: 10_000 });
    expect(Math.max(...b.pages().map((p) => p.end))).toBeLessThan(until);

    // A probe when the pause ends, still refused: the pause doubles.
    await vi.waitFor(() => expect(Date.now()).toBeGreaterThanOrEqual(until), { timeout: 10_000 });
    await submit(...aUrls.slice(2));
    await vi.waitFor(() => expect(deferredUntil(eventOf(aUrls[2]!))).toBeGreaterThan(until), {
      timeout: 10_000,
    });
    await fetcher.idle();
    const toA = requests.filter((r) => r.url.startsWith(a.origin) && r.at >= outage);
    expect(toA).toHaveLength(4);
    expect(toA.length).toBeLessThan(aUrls.length);
    const again = deferredUntil(eventOf(aUrls[2]!));
    expect(lines.map((l) => l.msg)).toContainEqual(
      expect.stringMatching(/^host 127\.0\.0\.26 still down: .* 3 s/),
    );

    await a.open();
    await vi.waitFor(() => expect(Date.now()).toBeGreaterThanOrEqual(again), { timeout: 10_000 });
    await submit(...aUrls);
    await fetcher.idle();
    expect(aUrls.map((u) => eventOf(u)!.kind)).toEqual(aUrls.map(() => 'fetched'));
    expect(fetcher.stats.hostsDown).toBe(0);
    expect(lines.map((l) => l.msg)).toContainEqual(
      expect.stringMatching(/^host 127\.0\.0\.26 is back \(HTTP 200\)/),
    );
    expect(events.filter((e) => e.status === 'ERROR')).toEqual([]);
  });

  it('no head-of-line blocking: a host whose requests time out holds one thread, and once down no room in the queues', async () => {
    const a = await site('127.0.0.28', () => {}); // pages never answer
    const b = await site('127.0.0.29');
    const { fetcher, eventOf, submit } = setup(options(0, { threads: 4, maxUrlsInQueues: 5 }), {
      'http.timeout': 300,
    });
    const aUrls = urls(a.origin, 30);
    // The submissions wait for room: B's URLs come after all of A's.
    await submit(...aUrls, ...urls(b.origin, 10));
    await vi.waitFor(() => expect(b.pages()).toHaveLength(10), { timeout: 20_000 });
    expect(a.pages()).toHaveLength(3);
    const down = aUrls.filter((u) => cause(eventOf(u)) === DEFER_CAUSE.hostDown);
    expect(down).toHaveLength(28);
    expect(Math.max(...b.pages().map((p) => p.end))).toBeLessThan(deferredUntil(eventOf(aUrls[2]!)));
    await fetcher.idle();
  });

  it('robots.txt answering 500 defers the URLs until robots.txt is asked again, without fetching them', async () => {
    const a = await host('127.0.0.30', (req, res) =>
      req.url === '/robots.txt' ? res.writeHead(500).end() : html(res),
    );
    const { fetcher, eventOf, submit } = setup(options(0));
    await submit(`${a.origin}/x`, `${a.origin}/y`);
    await fetcher.idle();
    for (const u of ['/x', '/y']) {
      const e = eventOf(`${a.origin}${u}`)!;
      expect(e).toMatchObject({ kind: 'status', status: 'DISCOVERED' });
      expect(e.md.has(MD.errorCause)).toBe(false);
      expect(cause(e)).toBe(DEFER_CAUSE.robotsUnavailable);
      expect(e.deferral?.message).toMatch(/HTTP 500/);
      // Due when the error cache entry (1 h by default) expires.
      expect(deferredUntil(e) - e.at).toBeGreaterThan(3_500_000);
    }
    expect(a.count('/robots.txt')).toBe(1);
    expect(a.pages()).toEqual([]);
  });

  it('robots.txt that cannot be reached defers the URL; three such failures make the host down', async () => {
    const a = await site('127.0.0.31');
    const origin = a.origin;
    await a.close();
    const { fetcher, events, submit } = setup(options(50));
    await submit(...urls(origin, 5));
    await fetcher.idle();
    expect(events.map((e) => cause(e))).toEqual([
      DEFER_CAUSE.robotsUnavailable,
      DEFER_CAUSE.robotsUnavailable,
      DEFER_CAUSE.hostDown,
      DEFER_CAUSE.hostDown,
      DEFER_CAUSE.hostDown,
    ]);
    expect(events.every((e) => e.status === 'DISCOVERED')).toBe(true);
    expect(events[0]!.deferral?.message).toMatch(/Connection refused/);
  });

  it('fetcher.timeout.queue defers a URL that waited too long, through the same mechanism', async () => {
    const a = await site('127.0.0.32');
    const { fetcher, eventOf, submit } = setup(options(1000, { queueTimeoutMs: 200 }));
    await submit(...urls(a.origin, 2));
    await fetcher.idle();
    expect(eventOf(`${a.origin}/p0`)).toMatchObject({ kind: 'fetched' });
    const p1 = eventOf(`${a.origin}/p1`)!;
    expect(p1).toMatchObject({ kind: 'status', status: 'DISCOVERED' });
    expect(cause(p1)).toBe(DEFER_CAUSE.queueTimeout);
    expect(deferredUntil(p1) - p1.at).toBeGreaterThan(100);
    expect(a.pages()).toHaveLength(1);
  });
});
