import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { crawlerOptions } from '../../../src/app/options.js';
import { buildConfig } from '../../../src/config/load.js';
import type { FetchItem, FetchProtocol, RobotsSource } from '../../../src/fetch/ports.js';
import { Metadata } from '../../../src/model/metadata.js';
import { MetadataTransfer } from '../../../src/model/metadata-transfer.js';
import type { StatusEvent, StatusUpdate } from '../../../src/model/status-updater.js';
import type { TransitionRecord } from '../../../src/model/transition.js';
import type { OutlinkFilter, PageParser, ParseResult } from '../../../src/parse/types.js';
import type { Stores } from '../../../src/pipeline/crawl-parts.js';
import { Crawler } from '../../../src/pipeline/crawler.js';
import type {
  AdoptItem,
  ContentWrite,
  FetchDemand,
  PageChecks,
  PollResult,
  SourceItem,
  StatusStore,
  UrlSource,
  WriteResult,
} from '../../../src/pipeline/ports.js';
import { StatusWrites } from '../../../src/pipeline/status-writes.js';
import { FetchException } from '../../../src/protocol/http/errors.js';
import { systemClock } from '../../../src/util/clock.js';
import { type Logger, silentLogger } from '../../../src/util/log.js';

// The crawl loop against in-memory ports: what it must guarantee whatever a stage does is that
// every URL it takes from the source is settled back exactly once.

class MemorySource implements UrlSource {
  readonly settles = new Map<string, number>();
  readonly emitted: string[] = [];
  protected readonly due: SourceItem[];
  protected inFlight = 0;

  /** URLs due as DISCOVERED with no metadata, or items as the status index holds them. */
  constructor(urls: readonly (string | SourceItem)[]) {
    this.due = urls.map((u) =>
      typeof u === 'string' ? { url: u, metadata: new Metadata(), status: 'DISCOVERED' } : u,
    );
  }

  async poll(): Promise<PollResult> {
    const item = this.due.shift();
    if (!item) return 'empty';
    this.emitted.push(item.url);
    this.inFlight++;
    return item;
  }

  settle(url: string): void {
    this.settles.set(url, (this.settles.get(url) ?? 0) + 1);
    this.inFlight--;
  }

  async isExhausted(): Promise<boolean> {
    return this.due.length === 0 && this.inFlight === 0;
  }

  stats() {
    return { queries: 1, queryMsP50: 1, queryMsP95: 1, inFlight: this.inFlight };
  }

  /** URLs settled a number of times other than once. */
  notSettledOnce(): Record<string, number> {
    const bad: Record<string, number> = {};
    for (const url of this.emitted) {
      const n = this.settles.get(url) ?? 0;
      if (n !== 1) bad[url] = n;
    }
    return bad;
  }
}

/**
 * The status rules as the loop sees them, in memory: every event written as it is (no scheduling,
 * no counting), DISCOVERED URLs in `known` skipped by URL.
 */
function memoryRules(known: ReadonlySet<string>) {
  return {
    apply(event: StatusEvent): StatusUpdate {
      return {
        url: event.url,
        status: event.status,
        metadata: event.metadata,
        nextFetchDate: Date.now(),
        delete: false,
        fullMetadata: event.metadata,
        transition: {} as TransitionRecord,
        storedAsIs: event.deferral !== undefined,
      };
    },
    knowsDiscovered: (url: string) => known.has(url),
    acknowledged: () => {},
  };
}

/** Acknowledges writes on a later turn of the event loop, as a bulk request would. */
class MemoryStatusStore implements StatusStore {
  readonly events: StatusUpdate[] = [];
  pending = 0;
  /** The loop's side of the status writes (set by `stores`). */
  writes!: StatusWrites;
  private idle: (() => void)[] = [];

  private readonly held: (() => void)[] = [];

  constructor(
    private readonly failing: ReadonlySet<string> = new Set(),
    /** Writes of these URLs are acknowledged only by `acknowledgeHeld` (a cluster that went away). */
    private readonly holding: ReadonlySet<string> = new Set(),
  ) {}

  acknowledgeHeld(): void {
    for (const ack of this.held.splice(0)) ack();
  }

  async ready(): Promise<void> {}

  write(update: StatusUpdate): Promise<WriteResult> {
    this.events.push(update);
    this.pending++;
    return new Promise<WriteResult>((resolve) => {
      const acknowledge = () => {
        const ok = !this.failing.has(update.url);
        this.pending--;
        resolve(
          ok
            ? {
                ok: true,
                version: 1,
                key: new URL(update.url).host,
                created: this.creates(update),
                existed: false,
              }
            : { ok: false, status: 500, error: 'refused', closed: false },
        );
        if (this.pending === 0) for (const done of this.idle.splice(0)) done();
      };
      if (this.holding.has(update.url)) this.held.push(acknowledge);
      else setImmediate(acknowledge);
    });
  }

  /** URLs the rules say were written recently. */
  readonly known = new Set<string>();

  get stats() {
    return this.writes.stats;
  }

  /** Whether OpenSearch would answer 201 (a new document) to this write. */
  protected creates(_update: StatusUpdate): boolean {
    return false;
  }

  async drained(): Promise<void> {
    if (this.pending > 0) await new Promise<void>((resolve) => this.idle.push(resolve));
  }

  own(url: string): StatusUpdate[] {
    return this.events.filter((e) => e.url === url && e.status !== 'DISCOVERED');
  }
}

function stores(
  status: MemoryStatusStore,
  content: (url: string) => ContentWrite,
  sendNow?: () => void,
): Stores {
  // Content writes not yet settled: each queues a status write when it is, as the content index does.
  let contentPending = 0;
  status.writes = new StatusWrites({ rules: memoryRules(status.known), store: status, log: silentLogger });
  return {
    ...(sendNow ? { sendNow } : {}),
    status: status.writes,
    content: {
      async index(page, settled) {
        contentPending++;
        setImmediate(() => {
          contentPending--;
          settled(content(page.url));
        });
      },
    },
    async flush() {
      // A settled content write queues a status write: wait until both are quiet.
      do {
        while (contentPending > 0) await new Promise((r) => setImmediate(r));
        await status.drained();
      } while (status.pending > 0 || contentPending > 0);
    },
  };
}

const html = Buffer.from('<html><head><title>t</title></head><body><a href="/next">n</a></body></html>');

/** Answers 200 with a small page, or whatever `special` says for a URL (a path: 301 to it). */
function protocol(
  special: Record<string, (() => Promise<never>) | 'hang' | { readonly moved: string }> = {},
): FetchProtocol & {
  release(): void;
} {
  const hanging: (() => void)[] = [];
  return {
    async fetch(url) {
      const s = special[new URL(url).pathname];
      if (s === 'hang') await new Promise<void>((resolve) => hanging.push(resolve));
      else if (typeof s === 'object') {
        const headers = { location: [s.moved], 'content-type': ['text/html'] };
        return { statusCode: 301, headers, content: Buffer.alloc(0), byteLength: 0, loadingTimeMs: 1 };
      } else if (s) await s();
      return {
        statusCode: 200,
        headers: { 'content-type': ['text/html'] },
        content: html,
        byteLength: html.length,
        loadingTimeMs: 1,
      };
    },
    release() {
      for (const resolve of hanging.splice(0)) resolve();
    },
  };
}

const robots: RobotsSource = {
  async rulesFor() {
    return { isAllowed: () => true, sitemaps: [], fromCache: true };
  },
};

/** Parses every page into text and one outlink, or throws for the URLs in `throwing`. */
function parser(throwing: ReadonlySet<string> = new Set()): PageParser {
  return {
    parse(page): ParseResult {
      if (throwing.has(new URL(page.url).pathname)) throw new Error('parser bug');
      return {
        kind: 'parsed',
        url: page.url,
        metadata: page.metadata.copy(),
        text: 'text',
        noIndex: false,
        outlinks: [{ url: `${page.url}/out`, metadata: new Metadata() }],
      };
    },
  };
}

const config = buildConfig([
  {
    source: 'test',
    // Few URLs in the fetcher at once, so that the loop takes URLs only as fast as it fetches them.
    entries: { 'fetcher.server.delay': 0, 'fetcher.threads.number': 4, 'fetcher.max.urls.in.queues': 8 },
  },
]).config;

interface Setup {
  readonly urls: readonly string[];
  readonly protocol?: ReturnType<typeof protocol>;
  readonly parser?: PageParser;
  readonly content?: (url: string) => ContentWrite;
  readonly status?: MemoryStatusStore;
  readonly log?: Logger;
  readonly source?: MemorySource;
  readonly sendNow?: () => void;
  /** Parse through the queue of parser threads instead of on the fetch thread. */
  readonly queued?: boolean;
  readonly robots?: RobotsSource;
  readonly filter?: OutlinkFilter;
  readonly checks?: PageChecks;
  /** fetcher.sitemap.discovery */
  readonly sitemapDiscovery?: boolean;
}

const loopOptions = crawlerOptions(config);

function crawler(s: Setup) {
  const source = s.source ?? new MemorySource(s.urls);
  const status = s.status ?? new MemoryStatusStore();
  const p = s.protocol ?? protocol();
  const c = new Crawler(
    {
      source,
      stores: stores(status, s.content ?? (() => ({ kind: 'indexed' })), s.sendNow),
      parser: s.parser ?? parser(),
      protocol: p,
      robots: s.robots ?? robots,
      filter: s.filter ?? { filter: (_s, _m, url) => url },
      ...(s.checks ? { checks: s.checks } : {}),
      transfer: new MetadataTransfer({ transfer: [], persist: [], trackPath: false, trackDepth: false }),
      clock: systemClock,
      log: s.log ?? silentLogger,
    },
    {
      ...loopOptions,
      fetcher: { ...loopOptions.fetcher, sitemapDiscovery: s.sitemapDiscovery === true },
      inlineParse: s.queued !== true,
    },
  );
  // After the loop's own subscription: what a test does once the loop heard of a created URL.
  if (status instanceof CreatingStatusStore)
    status.writes.subscribe(({ update, created }) => {
      if (created) status.afterCreated(update.url);
    });
  return { crawler: c, source, status, protocol: p };
}

/**
 * Crawls `--once` to the end and asserts the loop's invariant: every URL it took from the source was
 * settled back exactly once. Returns the parts for the test's own checks.
 */
async function crawlOnce(s: Setup) {
  const parts = crawler(s);
  await parts.crawler.run({ once: true });
  expect(parts.source.notSettledOnce()).toEqual({});
  return parts;
}

const urls = (...paths: string[]) => paths.map((p) => `http://a.test${p}`);

/**
 * `url` has no status of its own while the store holds back the acknowledgements of what it found
 * (after the loop turned a while: a status not held back would have been written by then), and
 * exactly `expected` once they are given and the run ends.
 */
async function expectHeldUntilAcknowledged(
  status: MemoryStatusStore,
  running: Promise<unknown>,
  url: string,
  expected: string,
): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
  expect(status.own(url)).toEqual([]);
  status.acknowledgeHeld();
  await running;
  expect(status.own(url).map((e) => e.status)).toEqual([expected]);
}

describe('the crawl loop settles every URL it took exactly once', () => {
  it('a good page ends FETCHED after its content is stored, its outlink DISCOVERED', async () => {
    const { status } = await crawlOnce({ urls: urls('/ok') });
    expect(status.own('http://a.test/ok').map((e) => e.status)).toEqual(['FETCHED']);
    expect(status.events.find((e) => e.status === 'DISCOVERED')?.url).toBe('http://a.test/ok/out');
  });

  it("a page's FETCHED waits until its outlinks' DISCOVERED writes are acknowledged", async () => {
    // A crash between the two must not leave a FETCHED page whose links were never stored: nothing
    // would find them again before the page is due.
    const status = new MemoryStatusStore(new Set(), new Set(['http://a.test/a/out']));
    const contentDone = new Set<string>();
    const content = (url: string): ContentWrite => {
      contentDone.add(url);
      return { kind: 'indexed' };
    };
    const { crawler: c } = crawler({ urls: urls('/a', '/b'), status, content });
    const running = c.run({ once: true });
    await vi.waitFor(
      () => {
        expect(contentDone).toContain('http://a.test/a');
        expect(status.own('http://a.test/b')).toHaveLength(1);
      },
      { timeout: 10_000 },
    );
    await expectHeldUntilAcknowledged(status, running, 'http://a.test/a', 'FETCHED');
  });

  it('a page whose outlink failed to be stored is given up unchanged (fetched again when due), not FETCHED', async () => {
    // FETCHED would hide the link until the page is due again (days): nothing else may link to it.
    const status = new MemoryStatusStore(new Set(['http://a.test/a/out']));
    const { source } = await crawlOnce({ urls: urls('/a', '/b'), status });
    expect(status.own('http://a.test/a')).toEqual([]);
    expect(source.settles.get('http://a.test/a')).toBe(1);
    expect(status.own('http://a.test/b').map((e) => e.status)).toEqual(['FETCHED']);
  });

  it("a redirect's REDIRECTION waits until its target's DISCOVERED write is acknowledged", async () => {
    const status = new MemoryStatusStore(new Set(), new Set(['http://a.test/target']));
    const p = protocol({ '/moved': { moved: '/target' } });
    const { crawler: c } = crawler({ urls: urls('/moved', '/b'), status, protocol: p });
    const running = c.run({ once: true });
    await vi.waitFor(() => expect(status.own('http://a.test/b')).toHaveLength(1), { timeout: 10_000 });
    await expectHeldUntilAcknowledged(status, running, 'http://a.test/moved', 'REDIRECTION');
  });

  it('a redirect whose target failed to be stored is given up unchanged, not REDIRECTION', async () => {
    const status = new MemoryStatusStore(new Set(['http://a.test/target']));
    const p = protocol({ '/moved': { moved: '/target' } });
    const { source } = await crawlOnce({ urls: urls('/moved', '/b'), status, protocol: p });
    expect(status.events.some((e) => e.url === 'http://a.test/target')).toBe(true);
    expect(status.own('http://a.test/moved')).toEqual([]);
    expect(source.settles.get('http://a.test/moved')).toBe(1);
  });

  it('an outlink the store knows is skipped before its metadata is built', async () => {
    const status = new MemoryStatusStore();
    status.known.add('http://a.test/ok/out');
    const lazy: PageParser = {
      parse(page) {
        const outlink = {
          url: `${page.url}/out`,
          get metadata(): Metadata {
            throw new Error('the metadata of a known outlink was built');
          },
        };
        return {
          kind: 'parsed',
          url: page.url,
          metadata: page.metadata.copy(),
          text: '',
          noIndex: false,
          outlinks: [outlink],
        };
      },
    };
    const { crawler: c } = await crawlOnce({ urls: urls('/ok'), status, parser: lazy });
    expect(status.events.map((e) => e.status)).toEqual(['FETCHED']);
    expect(status.stats.skippedCached).toBe(1);
    expect(c.metrics.discovered).toBe(1);
  });

  it('a URL deferred in an earlier run counts under its new status, not as deferred again', async () => {
    // The status index keeps defer.* of the last deferral until the next update that is not one.
    const source = new MemorySource([
      {
        url: 'http://a.test/ok',
        metadata: Metadata.of({ 'defer.cause': 'host.down', 'defer.date': '2026-01-01T00:00:00.000Z' }),
        status: 'DISCOVERED',
      },
    ]);
    const { crawler: c, status } = crawler({ urls: [], source });
    await c.run({ once: true });
    expect(status.own('http://a.test/ok').map((e) => e.status)).toEqual(['FETCHED']);
    expect(c.metrics.byStatus.get('FETCHED')).toBe(1);
    expect(c.metrics.deferred.size).toBe(0);
  });

  it('a fetch error ends FETCH_ERROR with its fetch.exception', async () => {
    const refused = async () => {
      throw FetchException.of('connectionRefused', 'refused');
    };
    const { status } = await crawlOnce({
      urls: urls('/ok', '/refused'),
      protocol: protocol({ '/refused': refused }),
    });
    const [event] = status.own('http://a.test/refused');
    expect(event?.status).toBe('FETCH_ERROR');
    expect(event?.metadata.getFirstValue('fetch.exception')).toBe('Connection refused');
  });

  it('through the parse queue too, a page ends FETCHED and a parser that throws ends ERROR', async () => {
    const { status } = await crawlOnce({
      urls: urls('/ok', '/bug'),
      parser: parser(new Set(['/bug'])),
      queued: true,
    });
    expect(status.own('http://a.test/ok').map((e) => e.status)).toEqual(['FETCHED']);
    expect(status.own('http://a.test/bug').map((e) => e.status)).toEqual(['ERROR']);
  });

  it('a parser that throws ends the page ERROR with error.source "content parsing"', async () => {
    const { status } = await crawlOnce({
      urls: urls('/ok', '/bug'),
      parser: parser(new Set(['/bug'])),
    });
    const events = status.own('http://a.test/bug');
    expect(events.map((e) => e.status)).toEqual(['ERROR']);
    expect(events[0]?.metadata.getFirstValue('error.source')).toBe('content parsing');
  });

  it('content the store rejects (4xx) ends ERROR with error.source "OpenSearch indexing"', async () => {
    const { status } = await crawlOnce({
      urls: urls('/ok', '/invalid'),
      content: (url) =>
        url.endsWith('/invalid')
          ? { kind: 'rejected', error: 'mapper_parsing_exception' }
          : { kind: 'indexed' },
    });
    const events = status.own('http://a.test/invalid');
    expect(events.map((e) => e.status)).toEqual(['ERROR']);
    expect(events[0]?.metadata.getFirstValue('error.source')).toBe('OpenSearch indexing');
  });

  it('a content write that fails after its retries (5xx) is given up: no status, settled once', async () => {
    const { status } = await crawlOnce({
      urls: urls('/ok', '/unavailable'),
      content: (url) =>
        url.endsWith('/unavailable')
          ? { kind: 'failed', status: 503, error: 'unavailable' }
          : { kind: 'indexed' },
    });
    expect(status.own('http://a.test/unavailable')).toEqual([]);
    expect(status.own('http://a.test/ok').map((e) => e.status)).toEqual(['FETCHED']);
  });

  it('a status write that fails for good releases the URL unchanged', async () => {
    const status = new MemoryStatusStore(new Set(['http://a.test/lost']));
    await crawlOnce({ urls: urls('/ok', '/lost'), status });
    expect(status.stats.failed).toBe(1);
  });

  it('at the drain deadline a fetch still running is given up once, and its late answer writes nothing', async () => {
    const p = protocol({ '/stuck': 'hang' });
    const { crawler: c, source, status } = crawler({ urls: urls('/ok', '/stuck'), protocol: p });
    const running = c.run({ drainDeadlineMs: 200 });
    await vi.waitFor(() => expect(source.settles.get('http://a.test/ok')).toBe(1), { timeout: 10_000 });
    c.requestStop();
    await running;
    expect(source.notSettledOnce()).toEqual({});
    expect(c.metrics.abandoned).toBe(1);
    expect(c.summary()).toMatchObject({ notWritten: 1 });
    const writes = status.events.length;
    p.release();
    // The late page goes through fetcher and parser (nothing stops a socket that answered); once the
    // fetcher is idle again, nothing of it may have reached the store.
    await vi.waitFor(() => expect(c.metrics.fetched).toBe(1), { timeout: 10_000 });
    await new Promise((r) => setImmediate(r));
    expect(status.events.length).toBe(writes);
    expect(source.notSettledOnce()).toEqual({});
  });

  it('at the drain deadline a write not yet acknowledged is given up once, even if acknowledged later', async () => {
    const status = new MemoryStatusStore(new Set(), new Set(['http://a.test/slow-ack']));
    const { crawler: c, source } = crawler({ urls: urls('/ok', '/slow-ack'), status });
    const running = c.run({ drainDeadlineMs: 200 });
    await vi.waitFor(() => expect(status.own('http://a.test/slow-ack')).toHaveLength(1), { timeout: 10_000 });
    c.requestStop();
    await running;
    expect(c.metrics.abandoned).toBe(1);
    expect(source.notSettledOnce()).toEqual({});
    status.acknowledgeHeld();
    expect(source.notSettledOnce()).toEqual({});
  });

  it('at the drain deadline the found links not yet written are counted, apart from the URLs given up', async () => {
    const status = new MemoryStatusStore(
      new Set(),
      new Set(['http://a.test/ok/out', 'http://a.test/slow-ack']),
    );
    const { crawler: c, source } = crawler({ urls: urls('/ok', '/slow-ack'), status });
    const running = c.run({ drainDeadlineMs: 200 });
    await vi.waitFor(() => expect(status.own('http://a.test/slow-ack')).toHaveLength(1), { timeout: 10_000 });
    c.requestStop();
    await running;
    // /ok waits for its link's write, so it is given up too (fetched again when due, its link found again).
    expect(c.metrics.abandoned).toBe(2);
    // Two links were found (/ok/out, /slow-ack/out); only /ok/out's write was held.
    expect(c.metrics.discoveredNotWritten).toBe(1);
    expect(source.notSettledOnce()).toEqual({});
    status.acknowledgeHeld();
  });

  it('a stop request mid-crawl takes no more URLs, fetches none of those queued, and settles every one it took', async () => {
    const all = urls(...Array.from({ length: 200 }, (_, i) => `/p${i}`));
    let fetches = 0;
    let crawlerRef: Crawler | undefined;
    const p = protocol();
    const counting: typeof p = {
      ...p,
      fetch(url, md) {
        if (++fetches === 10) crawlerRef?.requestStop();
        return p.fetch(url, md);
      },
    };
    const { crawler: c, source, status } = crawler({ urls: all, protocol: counting });
    crawlerRef = c;
    await c.run();
    expect(source.emitted.length).toBeGreaterThanOrEqual(10);
    expect(source.emitted.length).toBeLessThan(all.length);
    expect(source.notSettledOnce()).toEqual({});
    expect(c.metrics.abandoned).toBe(0);
    // A fetch started before the stop is written; a URL still queued is given back unchanged (no
    // status event: it keeps its previous state and comes back when due).
    const events = source.emitted.map((url) => status.own(url).map((e) => e.status));
    for (const e of events) expect([[], ['FETCHED']]).toContainEqual(e);
    expect(events.filter((e) => e.length === 1).length).toBe(fetches);
  });
});

describe('progress lines', () => {
  it('the first progress line counts pages per second from the start of the run, not 0', async () => {
    const lines: Record<string, unknown>[] = [];
    const log = pino({ level: 'info' }, { write: (l: string) => void lines.push(JSON.parse(l)) });
    const { crawler: c } = crawler({ urls: urls('/a', '/b', '/c'), log });
    await c.run({ once: true });
    const progress = lines.filter((l) => l.msg === 'progress');
    expect(progress.length).toBeGreaterThan(0);
    expect(progress[0]).toMatchObject({ fetched: 3 });
    expect(progress[0]!.fetchedPerSec).toBeGreaterThan(0);
  });
});

/** A source that takes in flight what the loop offers (`adopt`), unless it handed the URL out already. */
class AdoptingSource extends MemorySource {
  readonly offered: string[] = [];
  readonly adopted: string[] = [];

  adopt(item: AdoptItem): boolean {
    this.offered.push(item.url);
    if (this.emitted.includes(item.url)) return false;
    this.emitted.push(item.url);
    this.adopted.push(item.url);
    this.inFlight++;
    return true;
  }

  /** A URL becomes due, as one written by another worker would. */
  makeDue(url: string): void {
    this.due.push({ url, metadata: new Metadata(), status: 'DISCOVERED' });
  }
}

/** A source items of which carry their key, told what the fetch side holds (`serve`). */
class ServedSource extends AdoptingSource {
  demand: FetchDemand | undefined;
  readonly shortened: string[] = [];
  readonly drainedKeys: string[] = [];

  serve(demand: FetchDemand): void {
    this.demand = demand;
  }

  short(key: string): void {
    this.shortened.push(key);
  }

  drained(key: string): void {
    this.drainedKeys.push(key);
  }

  override adopt(item: AdoptItem): boolean {
    this.offered.push(item.url);
    return false;
  }
}

const keyed = (url: string): SourceItem => ({
  url,
  metadata: new Metadata(),
  status: 'DISCOVERED',
  key: new URL(url).host,
});

/** Answers 201 to the first DISCOVERED write of each URL, as OpenSearch would. */
class CreatingStatusStore extends MemoryStatusStore {
  private readonly created = new Set<string>();
  /** Called right after the loop heard of a created URL. */
  afterCreated: (url: string) => void = () => {};

  /** A new DISCOVERED document of `url`, written and acknowledged as new. */
  create(url: string, metadata = new Metadata()): void {
    void this.writes.inject({ url, status: 'DISCOVERED', metadata });
  }

  protected override creates(update: StatusUpdate): boolean {
    if (update.status !== 'DISCOVERED' || this.created.has(update.url)) return false;
    this.created.add(update.url);
    return true;
  }
}

/** Page /p<i> links to /p<i+1> and /p<i+2>, up to /p<pages-1>: each page is found from the previous ones. */
function chainParser(pages: number): PageParser {
  return {
    parse(page): ParseResult {
      const i = Number(/\/p(\d+)$/.exec(page.url)?.[1]);
      const outlinks = [i + 1, i + 2]
        .filter((k) => k < pages)
        .map((k) => ({ url: `http://a.test/p${k}`, metadata: new Metadata() }));
      return {
        kind: 'parsed',
        url: page.url,
        metadata: page.metadata.copy(),
        text: 't',
        noIndex: false,
        outlinks,
      };
    },
  };
}

/** The protocol, counting the fetches of each URL. */
function counted(p: ReturnType<typeof protocol> = protocol()) {
  const fetched: string[] = [];
  const fetching: typeof p = {
    ...p,
    fetch(url, md) {
      fetched.push(url);
      return p.fetch(url, md);
    },
  };
  return { fetched, protocol: fetching };
}

describe('no idle waits: the loop hands new URLs to the fetcher and writes at once when it is hungry', () => {
  it('a chain of pages is crawled through adopted URLs alone: each fetched once, each settled once', async () => {
    const source = new AdoptingSource(urls('/p0'));
    const status = new CreatingStatusStore();
    const { fetched, protocol: p } = counted();
    const { crawler: c } = await crawlOnce({
      urls: [],
      source,
      status,
      protocol: p,
      parser: chainParser(10),
    });
    const all = urls(...Array.from({ length: 10 }, (_, i) => `/p${i}`));
    expect([...fetched].sort()).toEqual([...all].sort());
    expect(source.adopted).toHaveLength(9);
    expect(c.metrics.adopted).toBe(9);
    expect(c.summary().adopted).toBe(9);
    for (const url of all) expect(status.own(url).map((e) => e.status)).toEqual(['FETCHED']);
  });

  it('a created URL the source refuses (handed out already) is not fetched a second time', async () => {
    // /p1 and /p2 are due at the source too: the outlinks of /p0 find them emitted.
    const source = new AdoptingSource(urls('/p0', '/p1', '/p2'));
    const status = new CreatingStatusStore();
    const { fetched, protocol: p } = counted();
    await crawlOnce({ urls: [], source, status, protocol: p, parser: chainParser(3) });
    expect([...fetched].sort()).toEqual(urls('/p0', '/p1', '/p2'));
    expect(source.offered.length).toBeGreaterThan(0);
    expect(source.adopted).toEqual([]);
  });

  it('the source learns what each host holds (URLs waiting, room left) and when its queue runs dry; created URLs are offered whatever the fetcher holds', async () => {
    const hanging = protocol({ '/p0': 'hang' });
    const paths = Array.from({ length: 8 }, (_, i) => `/p${i}`);
    const source = new ServedSource(urls(...paths).map((url) => keyed(url)));
    const status = new CreatingStatusStore();
    const { crawler: c } = crawler({ urls: [], source, status, protocol: hanging, parser: chainParser(8) });
    const running = c.run({ once: true });
    // /p0 hangs in its fetch; the other seven wait in the host's queue (one connection per host).
    await vi.waitFor(() => expect(source.emitted).toHaveLength(8), { timeout: 10_000 });
    await vi.waitFor(() => expect(source.demand!.waiting('a.test')).toBe(7), { timeout: 10_000 });
    // fetcher.max.urls.in.queues is 8: no room left.
    expect(source.demand!.room()).toBe(0);
    expect(source.demand!.pace('a.test', 2000)).toBe(Number.POSITIVE_INFINITY);
    status.create('http://a.test/new');
    await vi.waitFor(() => expect(source.offered).toEqual(['http://a.test/new']), { timeout: 10_000 });
    hanging.release();
    await running;
    expect(source.demand!.waiting('a.test')).toBe(0);
    expect(source.shortened.filter((k) => k === 'a.test').length).toBeGreaterThanOrEqual(8);
    expect(source.drainedKeys).toContain('a.test');
    expect(source.notSettledOnce()).toEqual({});
  });

  it('a URL adopted when a stop is requested is given back unchanged and never fetched', async () => {
    const source = new AdoptingSource(urls('/p0'));
    const status = new CreatingStatusStore();
    const { fetched, protocol: p } = counted();
    const { crawler: c } = crawler({ urls: [], source, status, protocol: p, parser: chainParser(3) });
    status.afterCreated = () => c.requestStop();
    await c.run();
    expect(fetched).toEqual(urls('/p0'));
    expect(source.adopted).toEqual(urls('/p1'));
    expect(source.notSettledOnce()).toEqual({});
    expect(status.own('http://a.test/p1')).toEqual([]);
    expect(c.metrics.abandoned).toBe(0);
  });

  it('writes waiting for their flush interval are sent as soon as the loop has nothing to fetch', async () => {
    const paths = ['/a', '/b'];
    // Every write is acknowledged only once it is sent: as a bulk writer with a long flush interval.
    const held = new Set(urls(...paths, ...paths.map((q) => `${q}/out`)));
    const status = new MemoryStatusStore(new Set(), held);
    let sends = 0;
    const sendNow = () => {
      sends++;
      status.acknowledgeHeld();
    };
    await crawlOnce({ urls: urls(...paths), status, sendNow });
    expect(sends).toBeGreaterThan(0);
    for (const url of urls(...paths)) expect(status.own(url).map((e) => e.status)).toEqual(['FETCHED']);
  }, 20_000);
});

describe('--once', () => {
  /** A source whose next query the pacing does not allow yet: it says 'wait', never 'empty'. */
  class PacedSource extends MemorySource {
    override async poll(): Promise<PollResult> {
      const r = await super.poll();
      return r === 'empty' ? 'wait' : r;
    }
  }

  it('ends as soon as the crawl runs out of work, not after the next query the pacing allows', async () => {
    const source = new PacedSource(urls('/a', '/b'));
    await crawlOnce({ urls: [], source });
    expect(source.emitted).toEqual(urls('/a', '/b'));
  }, 20_000);
});

describe('--once among workers', () => {
  it('reports idle instead of ending, takes URLs that become due later, and ends at requestStop', async () => {
    const source = new AdoptingSource(urls('/a'));
    const reports: boolean[] = [];
    const { crawler: c } = crawler({ urls: [], source });
    const running = c.run({ once: true, idle: (idle) => reports.push(idle) });
    await vi.waitFor(() => expect(reports).toEqual([true]), { timeout: 10_000 });
    expect(await c.stillFinished()).toBe(true);
    source.makeDue('http://a.test/b');
    await vi.waitFor(() => expect(reports).toEqual([true, false, true]), { timeout: 10_000 });
    expect(await c.stillFinished()).toBe(true);
    c.requestStop();
    await running;
    expect(source.emitted).toEqual(urls('/a', '/b'));
    expect(source.notSettledOnce()).toEqual({});
  });

  it('is not finished while it has not reported idle', async () => {
    const { crawler: c } = crawler({ urls: urls('/a') });
    expect(await c.stillFinished()).toBe(false);
  });
});

describe('what the loop decides travels as typed fields, metadata only in the documents written', () => {
  it('a deferral (robots.txt unavailable) is settled once with its typed deferral, counted as deferred, no rule applied', async () => {
    const unavailable: RobotsSource = {
      async rulesFor() {
        return {
          isAllowed: () => false,
          sitemaps: [],
          fromCache: false,
          unavailable: { reason: 'HTTP 503', unreachable: false, retryAt: Date.now() + 60_000 },
        };
      },
    };
    const { status, crawler: c } = await crawlOnce({ urls: urls('/later'), robots: unavailable });
    const [event, ...more] = status.events.filter((e) => e.url === 'http://a.test/later');
    expect(more).toEqual([]);
    expect(event).toMatchObject({ status: 'DISCOVERED', storedAsIs: true });
    expect(c.metrics.deferred.get('robots.unavailable') ?? [...c.metrics.deferred.values()][0]).toBe(1);
    // The typed field, not a metadata key, told the store it is a deferral.
    expect(event!.metadata.has('status.store.as.is.with.nextfetchdate')).toBe(false);
  });

  it('a sitemap robots.txt names is discovered as one: the filter is told, its DISCOVERED document says isSitemap', async () => {
    const told: (boolean | undefined)[] = [];
    const withSitemap: RobotsSource = {
      async rulesFor() {
        return { isAllowed: () => true, sitemaps: ['http://a.test/sitemap.xml'], fromCache: false };
      },
    };
    const { status } = await crawlOnce({
      urls: urls('/ok'),
      robots: withSitemap,
      sitemapDiscovery: true,
      filter: {
        filter: (_s, _m, url, how) => {
          told.push(how?.sitemap);
          return url;
        },
      },
    });
    const sitemap = status.events.find((e) => e.url === 'http://a.test/sitemap.xml');
    expect(sitemap?.status).toBe('DISCOVERED');
    expect(sitemap?.metadata.getFirstValue('isSitemap')).toBe('true');
    expect(told).toContain(true);
    // The page's own outlink is not a sitemap.
    const outlink = status.events.find((e) => e.url === 'http://a.test/ok/out');
    expect(outlink?.metadata.has('isSitemap')).toBe(false);
  });

  it('a probe goes through the fetcher and its answer back to the checks, marked probe, never to the status store', async () => {
    const answers: { url: string; probe: boolean | undefined }[] = [];
    let submit: ((item: FetchItem) => Promise<void>) | undefined;
    const checks: PageChecks = {
      judge: () => ({ linksNow: true, verdict: 'index' }),
      room: async () => {},
      wrapSink: (sink) => ({
        status: (o) => (o.probe ? void answers.push({ url: o.url, probe: o.probe }) : sink.status(o)),
        fetched: (o) => (o.probe ? void answers.push({ url: o.url, probe: o.probe }) : sink.fetched(o)),
        discovered: (source, target, found) =>
          source.probe ? undefined : sink.discovered(source, target, found),
      }),
      attach: (s) => {
        submit = s;
      },
      busy: false,
      stop: () => {},
    };
    const { crawler: c, status, source } = crawler({ urls: urls('/ok'), checks });
    const running = c.run({ once: true });
    await submit!({ url: 'http://a.test/no-such-page-x1', metadata: new Metadata(), probe: true });
    await vi.waitFor(() => expect(answers).toHaveLength(1), { timeout: 10_000 });
    await running;
    expect(answers).toEqual([{ url: 'http://a.test/no-such-page-x1', probe: true }]);
    expect(status.events.filter((e) => e.url.includes('no-such-page'))).toEqual([]);
    expect(source.notSettledOnce()).toEqual({});
  });

  it('a lost lease stops the loop: no URL is taken after it, each one taken is settled once, fenced writes log nothing', async () => {
    const lines: Record<string, unknown>[] = [];
    const log = pino({ level: 'info' }, { write: (l: string) => void lines.push(JSON.parse(l)) });
    /** After the loss every write settles as not written (fenced), as the bulk writer's fence does. */
    class FencedStore extends MemoryStatusStore {
      lost = false;
      override write(update: StatusUpdate): Promise<WriteResult> {
        if (this.lost) return Promise.resolve({ ok: false, status: 0, error: 'fenced', closed: true });
        return super.write(update);
      }
    }
    const status = new FencedStore();
    const all = urls(...Array.from({ length: 50 }, (_, i) => `/p${i}`));
    // Every fetch hangs: the loop holds what its fetch queues can take, and waits.
    const hanging = protocol(Object.fromEntries(all.map((u) => [new URL(u).pathname, 'hang' as const])));
    const { crawler: c, source } = crawler({ urls: all, status, log, protocol: hanging });
    const running = c.run({ drainDeadlineMs: 300 });
    await vi.waitFor(() => expect(source.emitted.length).toBeGreaterThan(3), { timeout: 10_000 });
    // What app/lease.ts's stopWhenLost does when the lease is taken by another crawl.
    status.lost = true;
    c.requestStop();
    const taken = source.emitted.length;
    // The fetches in flight end now: their writes meet the fence.
    hanging.release();
    await running;
    expect(source.emitted.length).toBeLessThanOrEqual(taken + 1);
    expect(source.emitted.length).toBeLessThan(all.length);
    expect(source.notSettledOnce()).toEqual({});
    expect(status.stats.failed).toBeGreaterThan(0);
    expect(status.stats.written).toBe(0);
    expect(lines.filter((l) => String(l.msg).startsWith('status update'))).toEqual([]);
  });
});
