import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { HttpProtocol } from '../../../src/protocol/http/client.js';
import { FETCH_EXCEPTION, FetchException } from '../../../src/protocol/http/errors.js';
import { metadataOf } from '../../../src/protocol/types.js';
import { startServer, type TestServer, testProtocol } from './servers.js';

const MiB = 1024 * 1024;

async function failure(p: Promise<unknown>): Promise<FetchException> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(FetchException);
  return e as FetchException;
}

describe('HTTP deadline', () => {
  let stalling: TestServer;
  let protocol: HttpProtocol;
  const TIMEOUT = 1000;
  /** Called when a request for /silent reaches the server. */
  let silentArrived = () => {};

  beforeAll(async () => {
    stalling = await startServer((req, res) => {
      if (req.url === '/stall-body') {
        res.writeHead(200, { 'content-length': '1000000' });
        res.write('x'.repeat(1000));
      } else if (req.url === '/trickle') {
        // Each byte arrives well within undici's per-read timeout; only an overall deadline stops it.
        res.writeHead(200, { 'content-length': '1000000' });
        const timer = setInterval(() => res.write('x'), 100);
        res.on('close', () => clearInterval(timer));
      }
      // /silent: never answers.
      if (req.url === '/silent') silentArrived();
    }, '127.0.0.3');
    protocol = testProtocol({ 'http.timeout': TIMEOUT });
  });

  afterAll(async () => {
    await protocol.close();
    await stalling.close();
  });

  it.each(['/stall-body', '/silent', '/trickle'])(
    'turns %s into "Socket timeout fetching" once http.timeout has passed, not later than 5 s after',
    async (path) => {
      const started = performance.now();
      const e = await failure(protocol.fetch(stalling.origin + path));
      const elapsed = performance.now() - started;
      expect(e.fetchException).toBe(FETCH_EXCEPTION.timeout);
      expect(e.code).toBe('FETCH_TIMEOUT');
      expect(elapsed).toBeGreaterThanOrEqual(TIMEOUT - 5);
      // A generous ceiling for a busy machine: without an overall deadline /trickle would take
      // 100,000 s and /silent would never end.
      expect(elapsed).toBeLessThan(TIMEOUT + 5000);
      console.info(`deadline ${path}: failed after ${elapsed.toFixed(1)} ms (http.timeout ${TIMEOUT})`);
    },
  );

  it('stops at once when the caller aborts, with "Aborted"', async () => {
    const controller = new AbortController();
    let abortedAt = 0;
    // Aborted once the request is at the server, in fetch for sure.
    silentArrived = () => {
      abortedAt = performance.now();
      controller.abort();
    };
    const e = await failure(protocol.fetch(`${stalling.origin}/silent`, undefined, controller.signal));
    silentArrived = () => {};
    // "Aborted", not the deadline's "Socket timeout fetching": the abort ended it, before http.timeout.
    expect(e.fetchException).toBe(FETCH_EXCEPTION.aborted);
    expect(abortedAt).toBeGreaterThan(0);
    expect(performance.now() - abortedAt).toBeLessThan(TIMEOUT);
  });
});

describe('HTTP body limits', () => {
  let server: TestServer;
  const stats = { written: 0, closed: false, zerosProduced: 0 };
  const TOTAL = 50 * MiB;

  beforeAll(async () => {
    server = await startServer((req, res) => {
      if (req.url === '/big') {
        stats.written = 0;
        stats.closed = false;
        const chunk = Buffer.alloc(64 * 1024, 0x61);
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(TOTAL) });
        res.on('close', () => (stats.closed = true));
        const pump = () => {
          while (stats.written < TOTAL && !stats.closed) {
            stats.written += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end();
        };
        pump();
      } else if (req.url === '/bomb') {
        // 1 GiB of zeros gzip-compressed on the fly: nothing of it is held in memory.
        stats.zerosProduced = 0;
        stats.closed = false;
        const zeros = Buffer.alloc(64 * 1024);
        const source = new Readable({
          read() {
            if (stats.zerosProduced >= 1024 * MiB) return void this.push(null);
            stats.zerosProduced += zeros.length;
            this.push(zeros);
          },
        });
        res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' });
        res.on('close', () => (stats.closed = true));
        pipeline(source, createGzip(), res).catch(() => undefined);
      }
    }, '127.0.0.4');
  });

  afterAll(async () => server.close());

  it('cuts a 50 MB body at a 64 KB limit, drops the connection and keeps memory small', async () => {
    const p = testProtocol({ 'http.content.limit': 65_536, 'http.timeout': 10_000 });
    try {
      const rssBefore = process.memoryUsage().rss;
      const res = await p.fetch(`${server.origin}/big`);
      const rssAfter = process.memoryUsage().rss;
      await vi.waitFor(() => expect(stats.closed).toBe(true), { timeout: 10_000 });
      expect(res.statusCode).toBe(200);
      expect(res.byteLength).toBe(65_536);
      expect(res.trimmed).toBe('length');
      expect(stats.closed).toBe(true);
      expect(stats.written).toBeLessThan(10 * MiB);
      expect(rssAfter - rssBefore).toBeLessThan(30 * MiB);
      console.info(
        `50 MB body, 64 KB limit: server wrote ${(stats.written / MiB).toFixed(2)} MiB before the client ` +
          `closed; rss growth ${((rssAfter - rssBefore) / MiB).toFixed(1)} MiB`,
      );
    } finally {
      await p.close();
    }
  });

  it('lets a per-URL http.content.limit override the configured one', async () => {
    const p = testProtocol({ 'http.content.limit': -1, 'http.timeout': 10_000 });
    try {
      const res = await p.fetch(`${server.origin}/big`, metadataOf({ 'http.content.limit': '1000' }));
      expect(res.byteLength).toBe(1000);
      expect(res.trimmed).toBe('length');
    } finally {
      await p.close();
    }
  });

  it('cuts a gzip bomb (1 GiB of zeros) at http.decoded.limit', async () => {
    const p = testProtocol({ 'http.decoded.limit': 4 * MiB, 'http.timeout': 10_000 });
    try {
      const rssBefore = process.memoryUsage().rss;
      const res = await p.fetch(`${server.origin}/bomb`);
      const rssAfter = process.memoryUsage().rss;
      await vi.waitFor(() => expect(stats.closed).toBe(true), { timeout: 10_000 });
      expect(res.byteLength).toBe(4 * MiB);
      expect(res.trimmed).toBe('decoded-size');
      expect(res.content.every((b) => b === 0)).toBe(true);
      expect(stats.closed).toBe(true);
      expect(stats.zerosProduced).toBeLessThan(512 * MiB);
      console.info(
        `gzip bomb: client kept 4 MiB; server compressed ${(stats.zerosProduced / MiB).toFixed(0)} MiB of ` +
          `zeros before the client closed; rss growth ${((rssAfter - rssBefore) / MiB).toFixed(1)} MiB`,
      );
    } finally {
      await p.close();
    }
  });

  it('cuts a gzip bomb at http.content.limit when that is smaller', async () => {
    const p = testProtocol({ 'http.content.limit': 65_536, 'http.timeout': 10_000 });
    try {
      const res = await p.fetch(`${server.origin}/bomb`);
      expect(res.byteLength).toBe(65_536);
      expect(res.trimmed).toBe('length');
    } finally {
      await p.close();
    }
  });
});
