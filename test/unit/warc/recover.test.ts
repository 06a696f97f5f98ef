import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { WARCParser } from 'warcio';
import { warcFileName, writerOf } from '../../../src/warc/names.js';
import { answerRecords, serialize, warcinfoRecord } from '../../../src/warc/records.js';
import { recoverDir, recoverFile } from '../../../src/warc/recover.js';
import { answer } from './support.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'warc-recover-'));

/** A .warc.gz image: warcinfo, then `pairs` request/response pairs; with the end offset of each member. */
async function image(pairs: number, payloadBytes = 3000): Promise<{ bytes: Buffer; ends: number[] }> {
  const members: Buffer[] = [
    gzipSync(await serialize(warcinfoRecord('f.warc.gz', { software: 't' }, '1.0', 0))),
  ];
  for (let i = 0; i < pairs; i++) {
    const payload = Buffer.alloc(payloadBytes, i + 1);
    const r = answerRecords(answer({ url: `http://site.test/${i}`, payload }), {
      version: '1.0',
      requestRecords: true,
    });
    members.push(gzipSync(await serialize(r.request!)), gzipSync(await serialize(r.main)));
  }
  const ends: number[] = [];
  let end = 0;
  for (const m of members) {
    end += m.length;
    ends.push(end);
  }
  return { bytes: Buffer.concat(members), ends };
}

async function readAll(path: string) {
  const types: string[] = [];
  for await (const r of new WARCParser([readFileSync(path)])) {
    const body = await r.readFully(false);
    if (r.warcType === 'response') expect(body.length).toBe(3000);
    types.push(r.warcType);
  }
  return types;
}

describe('recovering a WARC file left .open', () => {
  it('cut anywhere, it keeps exactly the complete records and reads back with warcio', async () => {
    const { bytes, ends } = await image(3);
    const dir = tmp();
    // Every cut inside the last pair (request and response), and a few elsewhere.
    const cuts = [
      ends[0]! + 1,
      ends[2]! + 17,
      ...Array.from({ length: ends[6]! - ends[4]! }, (_, i) => ends[4]! + i),
    ];
    for (const cut of cuts) {
      const path = join(dir, `crawl-20250101000000-00000-h-1-${cut}.warc.gz.open`);
      writeFileSync(path, bytes.subarray(0, cut));
      const r = await recoverFile(path);
      const completePairs = ends.filter((e, i) => i > 0 && i % 2 === 0 && e <= cut).length;
      expect(r.to, `cut at ${cut}`).toBe(path.slice(0, -'.open'.length));
      expect(r.records).toBe(1 + 2 * completePairs);
      expect(readFileSync(r.to!).length).toBe(ends[2 * completePairs]);
      // The kept bytes are whole members (checked above); warcio reads a sample of the cut files.
      if (cut % 7 !== 0) continue;
      expect(await readAll(r.to!)).toEqual([
        'warcinfo',
        ...Array(completePairs).fill(['request', 'response']).flat(),
      ]);
    }
  });

  it('a whole file is closed unchanged; a file without one complete record is removed', async () => {
    const { bytes } = await image(2);
    const dir = tmp();
    const whole = join(dir, 'a.warc.gz.open');
    writeFileSync(whole, bytes);
    expect(await recoverFile(whole)).toMatchObject({ records: 5, cutBytes: 0 });
    expect(readFileSync(join(dir, 'a.warc.gz'))).toEqual(bytes);
    const broken = join(dir, 'b.warc.gz.open');
    writeFileSync(broken, bytes.subarray(0, 20));
    expect(await recoverFile(broken)).toEqual({ from: broken, records: 0, cutBytes: 20 });
    expect(readdirSync(dir)).toEqual(['a.warc.gz']);
  });

  it('stops at damaged bytes: what follows them is cut too', async () => {
    const { bytes, ends } = await image(2);
    const damaged = Buffer.from(bytes);
    const at = ends[2]! + 30;
    damaged[at] = damaged[at]! ^ 0xff;
    const path = join(tmp(), 'c.warc.gz.open');
    writeFileSync(path, damaged);
    expect((await recoverFile(path)).records).toBe(3);
  });
});

describe('which .open files a start recovers', () => {
  it("only its own host's, of processes that are gone (or its own pid, restarted), unless all", async () => {
    const { bytes } = await image(1);
    const dir = tmp();
    const names = {
      dead: warcFileName('crawl', 0, 0, { hostname: 'my-host', pid: 111 }),
      running: warcFileName('crawl', 0, 1, { hostname: 'my-host', pid: 222 }),
      self: warcFileName('crawl', 0, 2, { hostname: 'my-host', pid: 333 }),
      otherHost: warcFileName('crawl', 0, 3, { hostname: 'other', pid: 111 }),
      otherPrefix: warcFileName('news', 0, 4, { hostname: 'my-host', pid: 111 }),
    };
    for (const n of Object.values(names)) writeFileSync(join(dir, `${n}.open`), bytes);
    const alive = (pid: number) => pid === 222;
    const self = { hostname: 'my-host', pid: 333 };
    const first = await recoverDir(dir, { prefix: 'crawl', self, alive });
    expect(first.map((r) => r.to).sort()).toEqual([join(dir, names.dead), join(dir, names.self)].sort());
    const rest = await recoverDir(dir, { prefix: 'crawl', self, alive, all: true });
    expect(rest.map((r) => r.to).sort()).toEqual(
      [join(dir, names.otherHost), join(dir, names.running)].sort(),
    );
    expect(readdirSync(dir).filter((n) => n.endsWith('.open'))).toEqual([`${names.otherPrefix}.open`]);
    expect(await recoverDir(join(dir, 'missing'), { prefix: 'crawl', self })).toEqual([]);
  });

  it('two processes recovering the same folder at once (workers of one run) close each file once', async () => {
    const { bytes } = await image(2);
    const dir = tmp();
    const names = [0, 1, 2].map((i) => warcFileName('crawl', 0, i, { hostname: 'my-host', pid: 111 }));
    for (const n of names) writeFileSync(join(dir, `${n}.open`), bytes);
    const o = { prefix: 'crawl', self: { hostname: 'my-host', pid: 999 }, alive: () => false };
    const [a, b] = await Promise.all([recoverDir(dir, o), recoverDir(dir, o)]);
    const closed = [...a!, ...b!].map((r) => r.to);
    for (const n of names) expect(closed).toContain(join(dir, n));
    expect(readdirSync(dir).sort()).toEqual([...names].sort());
    for (const n of names) expect(readFileSync(join(dir, n))).toEqual(bytes);
  });

  it('file names carry prefix, UTC time, serial, host and pid, and are read back even with hyphens', () => {
    const name = warcFileName('my-crawl', Date.UTC(2025, 5, 30, 23, 59, 58), 7, {
      hostname: 'node-1.local',
      pid: 42,
    });
    expect(name).toBe('my-crawl-20250630235958-00007-node-1.local-42.warc.gz');
    expect(writerOf(`${name}.open`, 'my-crawl')).toEqual({ hostname: 'node-1.local', pid: 42, open: true });
    expect(writerOf(name, 'my-crawl')).toEqual({ hostname: 'node-1.local', pid: 42, open: false });
    expect(writerOf(name, 'other')).toBeUndefined();
  });
});
