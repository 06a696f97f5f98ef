import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/run.js';
import { warcFileName } from '../../../src/warc/names.js';
import { answerRecords, serialize, warcinfoRecord } from '../../../src/warc/records.js';
import { answer } from '../warc/support.js';

async function crawler(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out, err };
}

async function warcFile(dir: string, name: string, cut = 0, gzip = true): Promise<string> {
  const r = answerRecords(answer({ url: 'http://site.test/x', status: 404, statusText: 'Not Found' }), {
    version: '1.0',
    requestRecords: true,
  });
  const bytes = Buffer.concat(
    await Promise.all(
      [warcinfoRecord(name, { software: 't' }, '1.0', 0), r.request!, r.main].map(async (x) =>
        gzip ? gzipSync(await serialize(x)) : serialize(x),
      ),
    ),
  );
  const path = join(dir, name);
  writeFileSync(path, bytes.subarray(0, bytes.length - cut));
  return path;
}

describe('crawler warc', () => {
  it('is listed in crawler --help', async () => {
    expect((await crawler('--help')).out.join('\n')).toMatch(/^ {2}warc +list the records of WARC files/m);
  });

  it('ls prints offset, length, type, status, Content-Length and URI of each record', async () => {
    const path = await warcFile(mkdtempSync(join(tmpdir(), 'warc-ls-')), 'a.warc.gz');
    const r = await crawler('warc', 'ls', path);
    expect(r.code).toBe(0);
    expect(r.out.at(-1)).toBe('3 records in 1 file');
    expect(r.out.slice(0, -1).map((l) => l.split('\t').slice(2))).toEqual([
      ['warcinfo', '-', expect.stringMatching(/^\d+$/), '-'],
      ['request', '-', expect.stringMatching(/^\d+$/), 'http://site.test/x'],
      ['response', '404', expect.stringMatching(/^\d+$/), 'http://site.test/x'],
    ]);
    const json = await crawler('warc', 'ls', '--json', path);
    expect(JSON.parse(json.out[2]!)).toMatchObject({
      file: path,
      type: 'response',
      status: 404,
      offset: expect.any(Number),
    });
  });

  it('ls of a file cut short lists what it can read, then fails naming where the whole records end', async () => {
    const path = await warcFile(mkdtempSync(join(tmpdir(), 'warc-ls-')), 'cut.warc.gz', 5);
    const r = await crawler('warc', 'ls', path);
    expect(r.code).toBe(3);
    expect(r.out.length).toBeGreaterThan(0);
    expect(r.err[0]).toMatch(
      new RegExp(
        `^crawler warc: ${path} holds whole records only up to byte \\d+ of \\d+: the rest is cut or damaged`,
      ),
    );
  });

  it('ls of an uncompressed .warc lists its records; cut short, it fails before reading it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'warc-ls-plain-'));
    const whole = await crawler('warc', 'ls', await warcFile(dir, 'a.warc', 0, false));
    expect(whole.code).toBe(0);
    expect(whole.out.at(-1)).toBe('3 records in 1 file');
    const path = await warcFile(dir, 'cut.warc', 5, false);
    const r = await crawler('warc', 'ls', path);
    expect(r.code).toBe(3);
    expect(r.out).toEqual([]);
    expect(r.err[0]).toMatch(
      new RegExp(`^crawler warc: ${path} holds whole records only up to byte \\d+ of \\d+: the rest is cut`),
    );
  });

  it('recover of a path that is not a folder fails in one line naming it', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'warc-recover-file-')), 'plain-file');
    writeFileSync(file, 'x');
    const r = await crawler('warc', 'recover', file);
    expect(r.code).toBe(3);
    expect(r.err).toEqual([
      expect.stringMatching(
        new RegExp(`^crawler warc: cannot recover the \\.open files of "${file}": .*ENOTDIR`),
      ),
    ]);
  });

  it('ls of a missing file fails with its name and exit 2, as a missing file does for every command', async () => {
    const r = await crawler('warc', 'ls', '/nonexistent/x.warc.gz');
    expect(r.code).toBe(2);
    expect(r.err).toEqual(['crawler warc: no such file: /nonexistent/x.warc.gz']);
    const inject = await crawler('inject', '/nonexistent/seeds.txt');
    expect(inject.code).toBe(2);
    expect(inject.err).toEqual(['crawler inject: no such file: /nonexistent/seeds.txt']);
    const conf = await crawler('config', '--conf', '/nonexistent/crawl.yaml');
    expect(conf.code).toBe(2);
    expect(conf.err[0]).toMatch(
      /^crawler config: cannot read config file \/nonexistent\/crawl\.yaml: ENOENT/,
    );
  });

  it('recover closes the .open files of this host whose process is gone', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'warc-recover-cli-'));
    const name = warcFileName('crawl', 0, 0, { hostname: hostname(), pid: 999_999_999 });
    await warcFile(dir, `${name}.open`, 5);
    const r = await crawler('warc', 'recover', dir);
    expect(r.code).toBe(0);
    expect(r.out).toEqual([
      expect.stringMatching(/: 1 complete records kept, \d+ bytes cut, closed as .*\.warc\.gz$/),
      `1 .open file recovered in ${dir}`,
    ]);
    expect(readdirSync(dir)).toEqual([name]);
  });

  it('without a known subcommand prints its usage in one line on stderr and exits 2', async () => {
    const r = await crawler('warc', 'rm');
    expect(r.code).toBe(2);
    expect(r.out).toEqual([]);
    expect(r.err).toEqual([expect.stringMatching(/^crawler warc: usage: crawler warc ls FILE/)]);
  });
});
