import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it, vi } from 'vitest';
import { WARCParser } from 'warcio';
import { buildConfig } from '../../../src/config/load.js';
import { ManualClock } from '../../../src/util/clock.js';
import { CrawlerError } from '../../../src/util/errors.js';
import { silentLogger } from '../../../src/util/log.js';
import { WarcArchive, WarcWriteError } from '../../../src/warc/archive.js';
import { type Appended, WarcFiles } from '../../../src/warc/files.js';
import { openWarcOutput, warcinfoFields } from '../../../src/warc/output.js';
import { serialize, warcinfoRecord } from '../../../src/warc/records.js';
import { answer, T0 } from './support.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'warc-files-'));
const writer = { hostname: 'h', pid: 7 };

function files(
  dir: string,
  clock: ManualClock,
  o: { maxBytes?: number; maxAgeMs?: number; onRotationError?: (e: unknown) => void } = {},
) {
  return new WarcFiles({
    dir,
    prefix: 'crawl',
    maxBytes: o.maxBytes ?? 1 << 30,
    maxAgeMs: o.maxAgeMs ?? 0,
    writer,
    clock,
    warcinfo: async (name) =>
      gzipSync(await serialize(warcinfoRecord(name, { software: 't' }, '1.0', clock.now()))),
    ...(o.onRotationError ? { onRotationError: o.onRotationError } : {}),
  });
}

async function types(path: string): Promise<string[]> {
  const out: string[] = [];
  for await (const r of new WARCParser([readFileSync(path)])) out.push(r.warcType);
  return out;
}

const member = async (i: number) =>
  gzipSync(await serialize(warcinfoRecord(`x${i}`, { n: String(i) }, '1.0', 0)));

describe('rotating WARC files', () => {
  it('write into NAME.warc.gz.open, begin each file with warcinfo, rename it when closed', async () => {
    const dir = tmp();
    const f = files(dir, new ManualClock(T0));
    const [m1, m2] = [await member(1), await member(2)];
    const at = await f.append([m1, m2]);
    expect(readdirSync(dir)).toEqual(['crawl-20250101123015-00000-h-7.warc.gz.open']);
    expect(at.file).toBe('crawl-20250101123015-00000-h-7.warc.gz');
    await f.close();
    expect(readdirSync(dir)).toEqual([at.file]);
    const bytes = readFileSync(join(dir, at.file));
    expect(at.offsets[1]! - at.offsets[0]!).toBe(m1.length);
    expect(bytes.length).toBe(at.offsets[1]! + m2.length);
    expect(bytes.subarray(at.offsets[0]!)).toEqual(Buffer.concat([m1, m2]));
    expect(await types(join(dir, at.file))).toEqual(['warcinfo', 'warcinfo', 'warcinfo']);
  });

  it('a second output of the same process begun in the same second never overwrites the first file', async () => {
    const dir = tmp();
    const clock = new ManualClock(T0);
    const first = files(dir, clock);
    const a = await first.append([await member(1)]);
    await first.close();
    const second = files(dir, clock);
    const b = await second.append([await member(2)]);
    await second.close();
    expect(a.file).toBe('crawl-20250101123015-00000-h-7.warc.gz');
    expect(b.file).toBe('crawl-20250101123015-00001-h-7.warc.gz');
    expect(readdirSync(dir).sort()).toEqual([a.file, b.file]);
  });

  it('a file that cannot be closed by age (its folder gone) is reported, not swallowed', async () => {
    const dir = tmp();
    const clock = new ManualClock(T0);
    const errors: unknown[] = [];
    const f = files(dir, clock, { maxAgeMs: 20, onRotationError: (e) => errors.push(e) });
    await f.append([await member(1)]);
    rmSync(dir, { recursive: true });
    clock.advance(1000);
    await vi.waitFor(() => expect(errors.length).toBeGreaterThan(0), { timeout: 10_000 });
    expect(String(errors[0])).toMatch(/ENOENT/);
    await f.close().catch(() => {});
  });

  it('begin the next file once one reached warc.rotation.size, with the next serial', async () => {
    const dir = tmp();
    const f = files(dir, new ManualClock(T0), { maxBytes: 600 });
    const written: Appended[] = [];
    for (let i = 0; i < 6; i++) written.push(await f.append([await member(i)]));
    await f.close();
    const names = readdirSync(dir).sort();
    expect(names.length).toBeGreaterThan(1);
    expect(names.map((n) => n.split('-')[2])).toEqual(names.map((_, i) => String(i).padStart(5, '0')));
    for (const n of names) {
      const t = await types(join(dir, n));
      expect(t[0]).toBe('warcinfo');
      expect(t.length).toBeGreaterThan(1);
    }
    // Each file grew past the size only by its last write.
    for (const w of written) expect(w.offsets[0]).toBeLessThan(600);
  });

  it('close a file warc.rotation.interval after it was begun, even with nothing more to write', async () => {
    const dir = tmp();
    const clock = new ManualClock(T0);
    const f = files(dir, clock, { maxAgeMs: 60_000 });
    const first = await f.append([await member(1)]);
    clock.advance(30_000);
    expect((await f.append([await member(2)])).file).toBe(first.file);
    clock.advance(30_000);
    await f.closeIfOld();
    expect(readdirSync(dir)).toEqual([first.file]);
    expect((await f.append([await member(3)])).file).not.toBe(first.file);
    await f.close();
  });

  it('a failed write passes its error on, and the folder is used again once it works', async () => {
    const dir = tmp();
    const f = files(join(dir, 'warc'), new ManualClock(T0), { maxBytes: 1 });
    await f.append([await member(1)]);
    rmSync(join(dir, 'warc'), { recursive: true });
    writeFileSync(join(dir, 'warc'), 'a file where the folder was');
    await expect(f.append([await member(2)])).rejects.toThrow(/ENOENT|ENOTDIR|EEXIST/);
    rmSync(join(dir, 'warc'));
    const ok = await f.append([await member(3)]);
    await f.close();
    expect(readdirSync(join(dir, 'warc'))).toEqual([ok.file]);
  });
});

describe('the WARC archive', () => {
  /** An archive on files that write as `append` does and close at once. */
  const archive = (append: WarcFiles['append'], onFailure?: (e: WarcWriteError) => void) =>
    new WarcArchive({
      files: { append, close: async () => {} },
      dir: '/data/warc',
      version: '1.0',
      requestRecords: true,
      archived: (code: number) => code !== 500,
      attempts: 3,
      backoffMs: 1,
      log: silentLogger,
      onFailure,
    });

  /** An archive whose files take every write; `writes.appends` counts them. */
  function countingArchive() {
    const writes = { appends: 0 };
    const a = archive(async () => {
      writes.appends++;
      return { file: 'f.warc.gz', offsets: [0, 1] };
    });
    return { a, writes };
  }

  it('retries a failed write and then says where the response record went', async () => {
    let calls = 0;
    const appended: number[] = [];
    const a = archive(async (members) => {
      if (++calls === 1) throw new Error('EIO: i/o error');
      appended.push(members.length);
      return { file: 'f.warc.gz', offsets: [100, 300] };
    });
    const at = await a.record(answer());
    expect(calls).toBe(2);
    expect(appended).toEqual([2]);
    expect(at).toMatchObject({ file: 'f.warc.gz', offset: 300, date: '2025-01-01T12:30:15Z' });
    expect(at?.digest).toMatch(/^sha1:[A-Z2-7]{32}$/);
  });

  it('an answer recorded after close (a fetch past the shutdown deadline) writes nothing', async () => {
    const { a, writes } = countingArchive();
    await a.close();
    expect(await a.record(answer())).toBeUndefined();
    expect(writes.appends).toBe(0);
    expect(a.failed).toBeUndefined();
  });

  it('an answer no record can hold (a repeated WARC-* header) is logged and goes on unarchived', async () => {
    const { a, writes } = countingArchive();
    expect(await a.record(answer({ raw: ['WARC-Odd', '1', 'WARC-Odd', '2'] }))).toBeUndefined();
    expect(a.unwritable).toBe(1);
    expect(writes.appends).toBe(0);
    expect(a.failed).toBeUndefined();
    expect(await a.record(answer())).toMatchObject({ file: 'f.warc.gz' });
  });

  it('skips status codes not listed', async () => {
    const a = archive(async () => {
      throw new Error('not called');
    });
    expect(await a.record(answer({ status: 500 }))).toBeUndefined();
  });

  it('after warc.write.attempts failures rejects with WARC_WRITE_FAILED, tells once, and refuses every later write', async () => {
    let calls = 0;
    const failures: WarcWriteError[] = [];
    const a = archive(
      async () => {
        calls++;
        throw new Error('ENOSPC: no space left on device');
      },
      (e) => failures.push(e),
    );
    const err = await a.record(answer()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WarcWriteError);
    expect((err as WarcWriteError).code).toBe('WARC_WRITE_FAILED');
    expect((err as Error).message).toBe(
      'cannot write WARC records to warc.dir "/data/warc" (3 tries): ENOSPC: no space left on device; ' +
        'the crawl stops and the URLs not archived keep their state: fix the disk or warc.dir, then start again',
    );
    expect(calls).toBe(3);
    await expect(a.record(answer())).rejects.toBe(err);
    expect(calls).toBe(3);
    expect(failures).toEqual([err]);
  });
});

describe('WARC output from the configuration', () => {
  const config = (entries: Record<string, unknown>) =>
    buildConfig([{ source: 'test', entries: { 'http.agent.name': 'archivebot', ...entries } }]).config;

  it('is off by default', async () => {
    expect(await openWarcOutput(config({}), new ManualClock(), silentLogger)).toBeUndefined();
  });

  it('stops at start-up when warc.dir cannot be a folder, naming it', async () => {
    const path = join(tmp(), 'taken');
    writeFileSync(path, 'x');
    const err = await openWarcOutput(
      config({ 'warc.enabled': true, 'warc.dir': path }),
      new ManualClock(),
      silentLogger,
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CrawlerError);
    expect((err as Error).message).toMatch(
      new RegExp(`^warc.dir "${path}" cannot be used: .*EEXIST.*; point warc.dir at a writable folder$`),
    );
  });

  it('warcinfo names the software, host, format and the operator from http.agent.*', () => {
    const fields = warcinfoFields(
      config({
        'warc.enabled': true,
        'http.agent.version': '2.0',
        'http.agent.email': 'ops@example.org',
        'http.agent.url': 'https://example.org/bot',
      }),
      'crawlhost',
    );
    expect(fields).toMatchObject({
      software: 'os-crawler/0.1.0',
      hostname: 'crawlhost',
      format: 'WARC File Format 1.0',
      conformsTo: 'https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.0/',
      'http-header-user-agent': 'archivebot/2.0 (https://example.org/bot; ops@example.org)',
      'http-header-from': 'ops@example.org',
      operator: 'ops@example.org https://example.org/bot',
      robots: 'obey',
      'http.agent.name': 'archivebot',
      'http.agent.version': '2.0',
    });
  });
});
