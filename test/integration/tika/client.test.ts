import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TikaClient } from '../../../src/tika/client.js';
import { TikaService } from '../../../src/tika/service.js';
import { ManualClock } from '../../../src/util/clock.js';

// How the crawler's Tika client turns a server that misbehaves (hangs, fails, dies, floods) into
// statuses with a tika.* cause, against real HTTP servers on loopback.

type Behaviour = 'hang' | 'reset' | 'flood' | number;
let behaviour: Behaviour = 'hang';
let server: Server;
let url: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (behaviour === 'hang') return;
      if (behaviour === 'reset') return void req.socket.destroy();
      if (behaviour === 'flood') return void res.end(`[{"X-TIKA:content":"${'x'.repeat(5000)}"}]`);
      res.writeHead(behaviour).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const call = { url: 'https://x.test/report.pdf', content: Buffer.from('%PDF-1.7 not really') };
// A short timeout only where the server never answers: elsewhere a busy machine must not turn an
// answer into a timeout.
const client = (server = url, timeoutMs = 30_000) =>
  new TikaClient({ server, connections: 2, timeoutMs, maxAnswerBytes: 1000, writeLimit: -1 });

describe('the Tika client against a server that misbehaves', () => {
  it.each([
    ['hang', 'FETCH_ERROR', 'tika.timeout'],
    ['reset', 'FETCH_ERROR', 'tika.crashed'],
    ['flood', 'ERROR', 'tika.output.limit'],
    [500, 'FETCH_ERROR', 'tika.server.error'],
    [404, 'FETCH_ERROR', 'tika.server.error'],
    [503, 'FETCH_ERROR', 'tika.unavailable'],
    [422, 'ERROR', 'tika.parse.error'],
    [415, 'ERROR', 'tika.parse.error'],
  ] as const)('%s: %s %s', async (b, status, cause) => {
    behaviour = b;
    const c = client(url, b === 'hang' ? 300 : 30_000);
    try {
      expect(await c.parse(call)).toMatchObject({ kind: 'failed', failure: { status, cause } });
    } finally {
      await c.close();
    }
  });

  it('a server that is not there refuses: the document never reached Tika', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const gone = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const c = client(gone);
    try {
      expect(await c.parse(call)).toMatchObject({ kind: 'refused' });
      expect(await c.version()).toBeUndefined();
    } finally {
      await c.close();
    }
  });
});

describe('the Tika service when the embedded server cannot start', () => {
  it('fails the documents with tika.unavailable and the reason, and does not retry the start at once', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    let starts = 0;
    const lines: { msg: string }[] = [];
    const service = new TikaService(
      {
        embedded: { port, heap: '256m', taskTimeoutMs: 1000 },
        client: { connections: 1, timeoutMs: 500, maxAnswerBytes: -1, writeLimit: -1 },
      },
      pino({ level: 'info' }, { write: (s: string) => void lines.push(JSON.parse(s)) }),
      new ManualClock(Date.UTC(2025, 0, 1)),
      async () => {
        starts++;
        throw new Error('scripts/tika start failed: java not found');
      },
    );
    try {
      for (let i = 0; i < 3; i++) {
        expect(await service.parse(call)).toMatchObject({
          kind: 'failed',
          failure: {
            status: 'FETCH_ERROR',
            cause: 'tika.unavailable',
            message: expect.stringContaining('java not found'),
          },
        });
      }
      expect(starts).toBe(1);
      expect(lines.map((l) => l.msg)).toEqual([
        expect.stringMatching(/^no tika\.server\.url: starting the embedded Tika/),
        expect.stringMatching(/^the embedded Tika could not be started: .*java not found/),
      ]);
    } finally {
      await service.close();
    }
  });
});
