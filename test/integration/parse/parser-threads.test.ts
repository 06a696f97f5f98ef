import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../../src/config/load.js';
import { Metadata } from '../../../src/model/metadata.js';
import { createPageParser } from '../../../src/parse/stage.js';
import type { ParseResult } from '../../../src/parse/types.js';
import { ParserPool } from '../../../src/parse/worker/pool.js';
import { loadURLFilters } from '../../../src/urlfilters/load.js';
import { systemClock } from '../../../src/util/clock.js';
import { silentLogger } from '../../../src/util/log.js';
import { buildCli } from '../../support/child.js';

// The pool's threads are real; this only records each Worker it starts and whether it has exited,
// so a test can end one thread and count threads without reaching into the pool.
const threads = vi.hoisted(() => ({
  started: [] as import('node:worker_threads').Worker[],
  exited: new Set<import('node:worker_threads').Worker>(),
}));
vi.mock('node:worker_threads', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:worker_threads')>();
  class RecordedWorker extends real.Worker {
    constructor(...args: ConstructorParameters<typeof real.Worker>) {
      super(...args);
      threads.started.push(this);
      this.once('exit', () => threads.exited.add(this));
    }
  }
  return { ...real, Worker: RecordedWorker };
});
const running = () => threads.started.filter((w) => !threads.exited.has(w));

// Parser threads run the compiled worker (dist/), as `crawler run` does.
const { config } = loadConfig({ env: {}, sets: ['parser.threads=2'] });
let pool: ParserPool;

beforeAll(async () => {
  buildCli();
  pool = await ParserPool.start(config, 2, silentLogger);
}, 120_000);

afterAll(async () => {
  await pool?.close();
});

const page = (links: number) =>
  Buffer.from(
    `<html><head><title>Café ${links}</title><meta name="description" content="a page"></head><body>` +
      `<h1>Héllo</h1>${Array.from({ length: links }, (_, i) => `<a href="/p/${i}.html#x">link ${i}</a>`).join(' ')}` +
      '<a href="mailto:someone@example.com">mail</a></body></html>',
  );

function input(url: string, content: Buffer, contentType = 'text/html; charset=utf-8') {
  const metadata = Metadata.of({ depth: '2', 'protocol.content-type': contentType });
  return { url, metadata, content };
}

const plain = (o: ParseResult) => {
  const { noIndex: _, ...rest } = o as ParseResult & { noIndex?: boolean };
  return {
    ...rest,
    metadata: o.metadata.toJSON(),
    outlinks: o.outlinks.map((l) => ({ url: l.url, metadata: l.metadata.toJSON() })),
  };
};

describe('parser threads (parser.threads > 0)', () => {
  const chain = loadURLFilters(config, { logger: silentLogger });
  const local = createPageParser(config, { filter: chain, clock: systemClock });

  it('give the outcome the event-loop parser gives: text, metadata and filtered outlinks', async () => {
    const i = input('http://site.test/a/index.html', page(40));
    const threaded = await pool.parse(i);
    expect(threaded.kind).toBe('parsed');
    expect(threaded.outlinks).toHaveLength(40);
    expect(threaded.outlinks[0]!.metadata.getFirstValue('depth')).toBe('3');
    expect(plain(threaded)).toEqual(plain(local.parse(i) as ParseResult));
  });

  it('turn content that is not HTML into the same ERROR outcome', async () => {
    // Not a document for Tika either (a PDF would be handed to the Tika stage).
    const i = input('http://site.test/photo.png', Buffer.from('\x89PNG\r\n\x1a\n ...'), 'image/png');
    const threaded = await pool.parse(i);
    expect(threaded.kind).toBe('status');
    expect(plain(threaded)).toEqual(plain(local.parse(i) as ParseResult));
  });

  it('give a feed the outcome the event-loop parser gives: FETCHED, its entries with feed.* metadata', async () => {
    const rss = readFileSync(new URL('../../fixtures/parse/feed/rss2.xml', import.meta.url));
    const i = input('https://news.example.org/rss.xml', rss, 'application/rss+xml');
    const threaded = await pool.parse(i);
    expect(threaded.kind === 'status' && threaded.status).toBe('FETCHED');
    expect(threaded.outlinks[0]!.metadata.getFirstValue('feed.publishedDate')).toBe(
      '2025-06-01T08:30:00.000Z',
    );
    expect(plain(threaded)).toEqual(plain(local.parse(i) as ParseResult));
  });

  it('replace a thread that dies, keeping as many threads as configured; later pages parse', async () => {
    const before = threads.started.length;
    // The pool hears the exit before terminate() resolves: a replacement is started by then.
    await running()[0]!.terminate();
    await vi.waitFor(() => expect(running()).toHaveLength(2), { timeout: 10_000 });
    // Both threads answer: the replacement is up, and any restart this death caused has shown itself.
    const both = await Promise.all(
      [1, 2, 3, 4].map((k) => pool.parse(input(`http://site.test/${k}`, page(k)))),
    );
    expect(both.map((o) => o.outlinks.length)).toEqual([1, 2, 3, 4]);
    expect(threads.started.length - before).toBe(1);
    expect(running()).toHaveLength(2);
    const outcome = await pool.parse(input('http://site.test/after', page(3)));
    expect(outcome.outlinks).toHaveLength(3);
  });

  it('parse many pages at once, each answer matched to its page', async () => {
    const urls = Array.from({ length: 50 }, (_, k) => `http://h${k}.test/`);
    const outcomes = await Promise.all(urls.map((u, k) => pool.parse(input(u, page(k % 7)))));
    expect(outcomes.map((o) => o.url)).toEqual(urls);
    expect(outcomes.map((o) => o.outlinks.length)).toEqual(urls.map((_, k) => k % 7));
    expect(pool.busy).toBe(0);
  });
});
