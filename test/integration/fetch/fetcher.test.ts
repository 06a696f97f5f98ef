import type { IncomingMessage, ServerResponse } from 'node:http';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Fetcher } from '../../../src/fetch/fetcher.js';
import type { FetcherOptions, FetcherSink } from '../../../src/fetch/fetcher-ports.js';
import { type RobotsSource, robotsSource } from '../../../src/fetch/ports.js';
import { Metadata } from '../../../src/model/metadata.js';
import type { HttpProtocol } from '../../../src/protocol/http/client.js';
import { RobotsService } from '../../../src/protocol/robots/fetch-robots.js';
import { protocolSettings } from '../../../src/protocol/settings.js';
import { systemClock } from '../../../src/util/clock.js';
import { startServer, type TestServer, testProtocol } from '../protocol/servers.js';
import { fetcherOptions } from './support.js';

interface Recorded {
  events: { url: string; kind: string; status?: string; md: Metadata }[];
  found: { from: string; to: string }[];
}

function recordingSink(): FetcherSink & Recorded {
  const r: Recorded = { events: [], found: [] };
  return {
    ...r,
    status: (o) => {
      r.events.push({ url: o.url, kind: 'status', status: o.status, md: o.metadata });
    },
    fetched: (o) => {
      r.events.push({ url: o.url, kind: 'fetched', md: o.metadata });
    },
    discovered: (source, target) => {
      r.found.push({ from: source.url, to: target });
    },
  };
}

function robotsFor(protocol: HttpProtocol, entries: Record<string, unknown> = {}): RobotsSource {
  const settings = protocolSettings({
    'http.agent.name': 'testbot',
    'http.filter.ipaddress.exclude': [],
    ...entries,
  });
  return robotsSource(new RobotsService(settings, { protocol }));
}

const servers: TestServer[] = [];
const protocols: HttpProtocol[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
  for (const p of protocols.splice(0)) await p.close();
});

interface Log {
  host: string;
  path: string;
  start: number;
  end: number;
}

async function site(
  host: string,
  log: Log[],
  robots = 'User-agent: *\nDisallow: /private\n',
  onPageRequest: () => void = () => {},
) {
  const s = await startServer((req: IncomingMessage, res: ServerResponse) => {
    const path = req.url ?? '/';
    if (path === '/robots.txt') {
      res.end(robots);
      return;
    }
    onPageRequest();
    const entry = { host, path, start: Date.now(), end: 0 };
    res.on('finish', () => {
      entry.end = Date.now();
      log.push(entry);
    });
    const redirect = /^\/redirect(\d{3})$/.exec(path);
    if (redirect) {
      res.writeHead(Number(redirect[1]), { location: '/target' }).end();
      return;
    }
    setTimeout(() => res.end(`<html><body>${path}</body></html>`), 20);
  }, host);
  servers.push(s);
  return s;
}

function setup(
  o: Partial<FetcherOptions>,
  protocolEntries: Record<string, unknown> = {},
  robotsEntries = {},
) {
  const protocol = testProtocol(protocolEntries, { clock: systemClock });
  protocols.push(protocol);
  const sink = recordingSink();
  const fetcher = new Fetcher(fetcherOptions(o), {
    protocol,
    robots: robotsFor(protocol, robotsEntries),
    sink,
    clock: systemClock,
  });
  return { fetcher, sink };
}

const item = (url: string) => ({ url, metadata: new Metadata() });

describe('the fetcher against real servers', () => {
  it('fetches two hosts concurrently, each host 1 s apart from the end of one fetch to the start of the next', async () => {
    const log: Log[] = [];
    const a = await site('127.0.0.2', log);
    const b = await site('127.0.0.3', log);
    const { fetcher, sink } = setup({
      queue: { delayMs: 1000, minDelayMs: 0, threadsPerQueue: 1, maxThreadsRules: [] },
    });
    for (let i = 0; i < 3; i++) {
      await fetcher.submit(item(`${a.origin}/p${i}`));
      await fetcher.submit(item(`${b.origin}/p${i}`));
    }
    await fetcher.idle();
    fetcher.close();
    expect(sink.events.map((e) => e.kind)).toEqual(Array(6).fill('fetched'));
    const hosts = log.map((l) => l.host);
    // Interleaved: the second host is served before the first host's last page.
    expect(hosts.indexOf('127.0.0.3')).toBeLessThan(hosts.lastIndexOf('127.0.0.2'));
    for (const h of ['127.0.0.2', '127.0.0.3']) {
      const mine = log.filter((l) => l.host === h).sort((x, y) => x.start - y.start);
      for (let i = 1; i < mine.length; i++) {
        // The server sees the end a little before the client does: allow 20 ms of that.
        expect(mine[i]!.start - mine[i - 1]!.end).toBeGreaterThanOrEqual(980);
      }
    }
  });

  it('once closed it starts no more fetches: the URLs still queued stay queued', async () => {
    const log: Log[] = [];
    const a = await site('127.0.0.2', log);
    const { fetcher, sink } = setup({ threads: 1 });
    let firstDone!: () => void;
    const first = new Promise<void>((resolve) => {
      firstDone = resolve;
    });
    // Closed while the first page is handed over, as the shutdown deadline would.
    const fetched = sink.fetched;
    sink.fetched = (o) => {
      fetcher.close();
      fetched(o);
      firstDone();
    };
    for (let i = 0; i < 3; i++) await fetcher.submit(item(`${a.origin}/p${i}`));
    await first;
    // The task leaves the pool and the pump runs on the turns after the hand-over.
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    expect(fetcher.stats).toMatchObject({ queued: 2, inFlight: 0 });
    expect(log.map((l) => l.path)).toEqual(['/p0']);
  });

  it('a parse stage that falls behind holds the fetch threads: no more pages fetched than it takes', async () => {
    const log: Log[] = [];
    // How many pages the parse stage had taken when each page request reached a server.
    let taken = 0;
    const takenAtRequest: number[] = [];
    const onPageRequest = () => takenAtRequest.push(taken);
    const a = await site('127.0.0.2', log, undefined, onPageRequest);
    const protocol = testProtocol({}, { clock: systemClock });
    protocols.push(protocol);
    const release: (() => void)[] = [];
    let handed = 0;
    const fetcher = new Fetcher(fetcherOptions({ threads: 3, maxUrlsInQueues: 100 }), {
      protocol,
      robots: robotsFor(protocol),
      sink: {
        status: () => {},
        discovered: () => {},
        fetched: () => {
          handed++;
          return new Promise<void>((resolve) =>
            release.push(() => {
              taken++;
              resolve();
            }),
          );
        },
      },
      clock: systemClock,
    });
    const hosts = ['127.0.0.2', '127.0.0.3', '127.0.0.5', '127.0.0.6'];
    const others = await Promise.all(hosts.slice(1).map((h) => site(h, log, undefined, onPageRequest)));
    for (const s of [a, ...others])
      for (let i = 0; i < 5; i++) await fetcher.submit(item(`${s.origin}/p${i}`));
    // Three pages served and handed over, none taken: the three threads are held, the other 17
    // URLs stay queued (the fetcher took nothing else to fetch).
    await vi.waitFor(() => expect([handed, log.length]).toEqual([3, 3]), { timeout: 10_000 });
    expect(fetcher.stats).toMatchObject({ inFlight: 3, queued: 17 });
    // Three threads, each holding a page the parse stage has not taken: nothing else is fetched.
    expect(handed).toBe(3);
    expect(log.length).toBe(3);
    // The parse stage takes one page at a time, as the pages come.
    while (taken < 20) {
      await vi.waitFor(() => expect(release.length).toBeGreaterThan(0), { timeout: 10_000 });
      release.shift()!();
    }
    await fetcher.idle();
    fetcher.close();
    expect(log.length).toBe(20);
    // With three threads, the n-th page request (from 0) waited until n - 2 pages were taken.
    expect(takenAtRequest.map((t, n) => t >= n - 2)).toEqual(Array(20).fill(true));
  });

  it('a robots.txt denial is ERROR robots.txt without fetching the page', async () => {
    const log: Log[] = [];
    const a = await site('127.0.0.2', log);
    const { fetcher, sink } = setup({});
    await fetcher.submit(item(`${a.origin}/private/x`));
    await fetcher.idle();
    fetcher.close();
    expect(sink.events).toHaveLength(1);
    expect(sink.events[0]).toMatchObject({ kind: 'status', status: 'ERROR' });
    expect(sink.events[0]!.md.getFirstValue('error.cause')).toBe('robots.txt');
    expect(a.hits.get('/private/x')).toBeUndefined();
  });

  it('a Crawl-delay of 60 s is ERROR crawl_delay; with force, requests are spaced by the cap', async () => {
    const log: Log[] = [];
    const a = await site('127.0.0.2', log, 'User-agent: *\nCrawl-delay: 60\n');
    const refused = setup({});
    await refused.fetcher.submit(item(`${a.origin}/x`));
    await refused.fetcher.idle();
    refused.fetcher.close();
    expect(refused.sink.events[0]).toMatchObject({ status: 'ERROR' });
    expect(refused.sink.events[0]!.md.getFirstValue('error.cause')).toBe('crawl_delay');

    const forced = setup({
      crawlDelay: { serverDelayMs: 0, maxCrawlDelayMs: 1000, forceMax: true, forceServerDelay: false },
    });
    for (const p of ['/f1', '/f2', '/f3']) await forced.fetcher.submit(item(`${a.origin}${p}`));
    await forced.fetcher.idle();
    forced.fetcher.close();
    expect(forced.sink.events.map((e) => e.kind)).toEqual(['fetched', 'fetched', 'fetched']);
    const mine = log.filter((l) => l.path.startsWith('/f')).sort((x, y) => x.start - y.start);
    for (let i = 1; i < mine.length; i++)
      expect(mine[i]!.start - mine[i - 1]!.end).toBeGreaterThanOrEqual(980);
  });

  it.each([301, 302, 307, 308])(
    'a %i is REDIRECTION with the target discovered only when redirections.allowed',
    async (code) => {
      const log: Log[] = [];
      const a = await site('127.0.0.2', log);
      for (const allowed of [true, false]) {
        const { fetcher, sink } = setup({ redirectionsAllowed: allowed });
        await fetcher.submit(item(`${a.origin}/redirect${code}`));
        await fetcher.idle();
        fetcher.close();
        expect(sink.events).toHaveLength(1);
        expect(sink.events[0]).toMatchObject({ status: 'REDIRECTION' });
        expect(sink.events[0]!.md.getFirstValue('_redirTo')).toBe(`${a.origin}/target`);
        expect(sink.events[0]!.md.getFirstValue('fetch.statusCode')).toBe(String(code));
        expect(sink.found).toEqual(
          allowed ? [{ from: `${a.origin}/redirect${code}`, to: `${a.origin}/target` }] : [],
        );
        expect(a.hits.get('/target')).toBeUndefined();
      }
    },
  );

  it('a URL resolving to 127.0.0.1 is refused by default with error.cause naming the key that refused it', async () => {
    const log: Log[] = [];
    const a = await site('127.0.0.2', log);
    const protocol = testProtocol(
      { 'http.filter.ipaddress.exclude': 'localhost,sitelocal' },
      { clock: systemClock },
    );
    protocols.push(protocol);
    const sink = recordingSink();
    const fetcher = new Fetcher(fetcherOptions(), {
      protocol,
      robots: robotsFor(protocol),
      sink,
      clock: systemClock,
    });
    await fetcher.submit(item(`${a.origin}/page`));
    await fetcher.idle();
    fetcher.close();
    expect(sink.events).toHaveLength(1);
    expect(sink.events[0]).toMatchObject({ status: 'ERROR' });
    expect(sink.events[0]!.md.getFirstValue('error.cause')).toBe('http.filter.ipaddress.exclude');
    expect(sink.events[0]!.md.getFirstValue('error.message')).toMatch(/127\.0\.0\.2/);
    expect(a.hits.get('/page')).toBeUndefined();
  });

  it('malformed and non-http URLs end ERROR at once', async () => {
    const { fetcher, sink } = setup({});
    await fetcher.submit(item('ahahaha'));
    await fetcher.submit(item('mailto:someone@example.com'));
    await fetcher.idle();
    fetcher.close();
    expect(sink.events.map((e) => [e.status, e.md.getFirstValue('error.cause')])).toEqual([
      ['ERROR', 'malformed URL'],
      ['ERROR', 'unsupported scheme'],
    ]);
  });

  it('property: every URL handed to the fetcher ends in exactly one status or fetched event', async () => {
    // Paths tell the server how to misbehave.
    const behaviours = ['ok', '404', '503', '301', '304', 'reset', 'slow', 'truncated', 'empty'] as const;
    const server = await startServer((req, res) => {
      const kind = (req.url ?? '').split('/')[1];
      switch (kind) {
        case 'robots.txt':
          return void res.end('User-agent: *\nDisallow: /denied\n');
        case 'ok':
          return void res.end('<html>ok</html>');
        case '404':
        case '503':
          return void res.writeHead(Number(kind)).end('no');
        case '301':
          return void res.writeHead(301, { location: '/ok/x' }).end();
        case '304':
          return void res.writeHead(304).end();
        case 'reset':
          return void req.socket.destroy();
        case 'slow':
          return void setTimeout(() => res.end('late'), 2000);
        case 'truncated':
          res.writeHead(200, { 'content-length': '1000' });
          res.write('only a part');
          return void setTimeout(() => req.socket.destroy(), 10);
        default:
          return void res.end();
      }
    }, '127.0.0.4');
    servers.push(server);
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.constantFrom(...behaviours, 'denied' as const), fc.nat(3)), {
          minLength: 1,
          maxLength: 12,
        }),
        async (paths) => {
          // Failures back the host off and put it down: short pauses, so that deferrals happen too.
          const hosts = {
            ...fetcherOptions().hosts,
            maxDelayMs: 20,
            downBackoffMs: 20,
            downMaxBackoffMs: 40,
          };
          const { fetcher, sink } = setup({ threads: 4, maxUrlsInQueues: 5, hosts }, { 'http.timeout': 300 });
          const urls = paths.map(([b, n], i) => `${server.origin}/${b}/${n}/${i}`);
          for (const u of urls) await fetcher.submit(item(u));
          await fetcher.idle();
          fetcher.close();
          const counts = new Map<string, number>();
          for (const e of sink.events) counts.set(e.url, (counts.get(e.url) ?? 0) + 1);
          expect([...counts.keys()].sort()).toEqual([...urls].sort());
          expect([...counts.values()].every((c) => c === 1)).toBe(true);
        },
      ),
      { numRuns: 15 },
    );
  });
});
