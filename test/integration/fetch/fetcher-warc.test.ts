import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { Fetcher } from '../../../src/fetch/fetcher.js';
import type { FetcherSink } from '../../../src/fetch/fetcher-ports.js';
import type { RobotsSource } from '../../../src/fetch/ports.js';
import { Metadata } from '../../../src/model/metadata.js';
import type { HttpProtocol } from '../../../src/protocol/http/client.js';
import { systemClock } from '../../../src/util/clock.js';
import { silentLogger } from '../../../src/util/log.js';
import { WarcArchive, type WarcWriteError } from '../../../src/warc/archive.js';
import { WarcFiles } from '../../../src/warc/files.js';
import { serialize, warcinfoRecord } from '../../../src/warc/records.js';
import { readWarc } from '../../support/warc.js';
import { startServer, type TestServer, testProtocol } from '../protocol/servers.js';
import { fetcherOptions } from './support.js';

const options = fetcherOptions({ threads: 4, redirectionsAllowed: false });

const allowAll: RobotsSource = {
  rulesFor: async () => ({ isAllowed: () => true, sitemaps: [], fromCache: true }),
};

interface Event {
  url: string;
  kind: 'status' | 'fetched';
  status?: string;
  md: Metadata;
  /** A deferral's typed field. */
  deferral?: { readonly until: number; readonly cause: string };
}

function sink(events: Event[]): FetcherSink {
  return {
    status: (o) =>
      void events.push({
        url: o.url,
        kind: 'status',
        status: o.status,
        md: o.metadata,
        ...(o.deferral ? { deferral: o.deferral } : {}),
      }),
    fetched: (o) => void events.push({ url: o.url, kind: 'fetched', md: o.metadata }),
    discovered: () => {},
  };
}

function archiveIn(dir: string, failures: WarcWriteError[]) {
  const files = new WarcFiles({
    dir,
    prefix: 'crawl',
    // One answer per file: every answer opens (and the next one renames) a file in the folder.
    maxBytes: 1,
    maxAgeMs: 0,
    writer: { hostname: 'test', pid: process.pid },
    clock: systemClock,
    warcinfo: async (name) => gzipSync(await serialize(warcinfoRecord(name, {}, '1.0', Date.now()))),
  });
  return new WarcArchive({
    files,
    dir,
    version: '1.0',
    requestRecords: true,
    archived: () => true,
    attempts: 2,
    backoffMs: 5,
    log: silentLogger,
    onFailure: (e) => failures.push(e),
  });
}

const servers: TestServer[] = [];
const protocols: HttpProtocol[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
  for (const p of protocols.splice(0)) await p.close();
});

describe('the fetcher with a WARC archive', () => {
  it('archives each answer before it goes on and says where in its metadata', async () => {
    const server = await startServer((req, res) => {
      if (req.url === '/gone') res.writeHead(404).end('gone');
      else res.writeHead(200, { 'content-type': 'text/html' }).end(`<p>${req.url}</p>`);
    }, '127.0.0.7');
    servers.push(server);
    const protocol = testProtocol({}, { capture: true });
    protocols.push(protocol);
    const dir = mkdtempSync(join(tmpdir(), 'fetcher-warc-'));
    const archive = archiveIn(dir, []);
    const events: Event[] = [];
    const fetcher = new Fetcher(options, {
      protocol,
      robots: allowAll,
      clock: systemClock,
      sink: sink(events),
      archive,
    });
    for (const p of ['/a', '/b', '/gone'])
      await fetcher.submit({ url: `${server.origin}${p}`, metadata: new Metadata(), status: 'DISCOVERED' });
    await fetcher.idle();
    await archive.close();
    expect(events.map((e) => [new URL(e.url).pathname, e.kind, e.status]).sort()).toEqual([
      ['/a', 'fetched', undefined],
      ['/b', 'fetched', undefined],
      ['/gone', 'status', 'FETCH_ERROR'],
    ]);
    for (const e of events) {
      const records = await readWarc(join(dir, e.md.getFirstValue('warc.file')!));
      const at = records.find((r) => r.offset === Number(e.md.getFirstValue('warc.offset')));
      expect(at).toMatchObject({ type: 'response', uri: e.url });
      expect(e.md.getFirstValue('warc.digest')).toBe(at!.warc['WARC-Payload-Digest']);
      expect(e.md.getFirstValue('warc.date')).toBe(at!.warc['WARC-Date']);
    }
  });

  it('when the disk fails for good, every URL still gets one event: the ones not archived are given up unchanged', async () => {
    const root = mkdtempSync(join(tmpdir(), 'fetcher-warc-'));
    const dir = join(root, 'warc');
    let served = 0;
    const server = await startServer((req, res) => {
      // After the third answer the folder turns into a file: no WARC file can be begun or renamed.
      if (++served === 4) {
        rmSync(dir, { recursive: true, force: true });
        writeFileSync(dir, 'not a folder');
      }
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<p>${req.url}</p>`);
    }, '127.0.0.7');
    servers.push(server);
    const protocol = testProtocol({}, { capture: true });
    protocols.push(protocol);
    const failures: WarcWriteError[] = [];
    const archive = archiveIn(dir, failures);
    const events: Event[] = [];
    // One thread: the answers come one after the other, so exactly three are archived.
    const fetcher = new Fetcher(
      { ...options, threads: 1 },
      { protocol, robots: allowAll, clock: systemClock, sink: sink(events), archive },
    );
    const urls = Array.from({ length: 8 }, (_, i) => `${server.origin}/p${i}`);
    for (const url of urls)
      await fetcher.submit({ url, metadata: Metadata.of({ depth: '2' }), status: 'FETCH_ERROR' });
    await fetcher.idle();
    await archive.close().catch(() => {});

    expect(events.map((e) => e.url).sort()).toEqual([...urls].sort());
    const fetched = events.filter((e) => e.kind === 'fetched');
    const givenUp = events.filter((e) => e.kind === 'status');
    expect(fetched).toHaveLength(3);
    for (const e of fetched)
      expect(e.md.getFirstValue('warc.file')).toMatch(/^crawl-\d{14}-\d{5}-test-\d+\.warc\.gz$/);
    expect(givenUp).toHaveLength(5);
    for (const e of givenUp) {
      // Its previous status and metadata, due at once: the URL comes back when the crawl runs again.
      expect(e.status).toBe('FETCH_ERROR');
      expect(e.md.getFirstValue('depth')).toBe('2');
      expect(e.md.getFirstValue('fetch.statusCode')).toBeUndefined();
      expect(e.deferral?.cause).toBe('warc.write.failed');
      expect(e.deferral!.until).toBeLessThanOrEqual(Date.now());
    }
    expect(failures).toHaveLength(1);
    expect(failures[0]!.code).toBe('WARC_WRITE_FAILED');
    expect(failures[0]!.message).toMatch(
      new RegExp(`^cannot write WARC records to warc.dir "${dir}" \\(2 tries\\): E`),
    );
  });
});
