import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli, spawnCrawler, until } from '../../support/child.js';
import { fastCrawlSettings, writeConf } from '../../support/crawl.js';
import { deleteIndices, uniqueIndexNames } from '../../support/opensearch.js';
import { robots, Site } from '../../support/site.js';
import { readWarc } from '../../support/warc.js';
import { sha1Base32 } from '../../unit/warc/support.js';

const site = new Site();
const HOSTS = ['127.0.2.1', '127.0.2.2', '127.0.2.3', '127.0.2.4'];
const PAGES = 15;
const names = uniqueIndexNames('warckill');
const warcDir = mkdtempSync(join(tmpdir(), 'warc-kill-'));

/** Pages of ~200 KB of incompressible text, each linking to the next: records take a while to write. */
beforeAll(async () => {
  buildCli();
  await site.start(HOSTS);
  for (const h of HOSTS) {
    site.route(h, '/robots.txt', robots('User-agent: *\nAllow: /\n'));
    for (let i = 0; i < PAGES; i++) {
      const filler = randomBytes(150_000).toString('base64');
      site.route(h, `/p${i}`, (_n, _q, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(`<html><body><a href="/p${i + 1}">next</a><p>${filler}</p></body></html>`);
      });
    }
  }
}, 120_000);

afterAll(async () => {
  await site.close();
  await deleteIndices(names.status, names.content);
});

const openFiles = () => readdirSync(warcDir).filter((n) => n.endsWith('.open'));
const openBytes = () => openFiles().reduce((n, f) => n + statSync(join(warcDir, f)).size, 0);

describe('WARC output when the crawler is killed', () => {
  it('SIGKILL mid-write, then a restart: only complete, readable .warc.gz files are left', async () => {
    const conf = writeConf({ ...fastCrawlSettings(names), 'warc.enabled': true, 'warc.dir': warcDir });
    const seeds = conf.replace('crawl.yaml', 'seeds.txt');
    writeFileSync(seeds, HOSTS.map((h) => `${site.origin(h)}/p0`).join('\n'));
    const inject = spawnCrawler(['inject', seeds, '--conf', conf]);
    expect(await inject.exited).toBe(0);

    const first = spawnCrawler(['run', '--conf', conf]);
    await until(() => openBytes() > 1_000_000, 90_000, 'a megabyte of WARC records');
    first.proc.kill('SIGKILL');
    expect(await first.exited).toBe(null);
    const left = openFiles();
    expect(left).toHaveLength(1);

    const second = spawnCrawler(['run', '--once', '--conf', conf]);
    expect(await second.exited).toBe(0);
    const recovery = second.stderr.find((l) => l.includes('WARC file left open by an earlier run'));
    expect(JSON.parse(recovery!)).toMatchObject({ file: join(warcDir, left[0]!) });

    const files = readdirSync(warcDir).sort();
    expect(files.filter((n) => !n.endsWith('.warc.gz'))).toEqual([]);
    expect(files).toContain(left[0]!.replace(/\.open$/, ''));
    const archived = new Set<string>();
    for (const f of files) {
      const records = await readWarc(join(warcDir, f));
      expect(records[0]!.type).toBe('warcinfo');
      for (const r of records) {
        expect(Number(r.warc['Content-Length'])).toBe(r.block.length);
        if (r.type === 'warcinfo') continue;
        expect(r.warc['WARC-Block-Digest']).toBe(sha1Base32(r.block));
        if (r.type === 'response') {
          archived.add(r.uri);
          expect(r.warc['WARC-Payload-Digest']).toBe(sha1Base32(r.payload));
        }
      }
      // No half exchange: every request is followed by its response.
      for (const [i, r] of records.entries())
        if (r.type === 'request')
          expect(records[i + 1]?.warc['WARC-Concurrent-To']).toBe(r.warc['WARC-Record-ID']);
    }
    // A page goes on to parsing only once its records are written, so every page crawled, before the
    // kill or after it, is in the archive.
    const pages = HOSTS.flatMap((h) => Array.from({ length: PAGES }, (_, i) => `${site.origin(h)}/p${i}`));
    expect(pages.filter((u) => !archived.has(u))).toEqual([]);
  }, 180_000);
});
