import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli, spawnCrawler, until } from '../../support/child.js';
import { crawler, fastCrawlSettings, writeConf } from '../../support/crawl.js';
import { deleteIndices, uniqueIndexNames } from '../../support/opensearch.js';
import { freePort } from '../../support/prometheus.js';
import { page, robots, Site } from '../../support/site.js';

// A continuous crawl that runs out of due URLs says so once, with when the next one is due, on the
// terminal (the log) and on the console; and again when work appears.

const names = uniqueIndexNames('nothing-due');
const site = new Site();
const H = '127.0.3.11';
const TOKEN = 'nothing-due-token-0123456789';

beforeAll(async () => {
  buildCli();
  await site.start([H]);
  site.route(H, '/robots.txt', robots('User-agent: *\nAllow: /\n'));
  site.route(H, '/', page('Home'));
  site.route(H, '/later', page('Later'));
}, 120_000);

afterAll(async () => {
  await site.close();
  await deleteIndices(names.status, names.content);
});

const msgs = (stderr: readonly string[]) =>
  stderr.flatMap((l) => {
    try {
      return [String((JSON.parse(l) as { msg?: unknown }).msg)];
    } catch {
      return [];
    }
  });

describe('a continuous crawl with nothing due', () => {
  it('says so once with the next due date and the URLs scheduled, on the log and the console, and again when work appears', async () => {
    const port = await freePort();
    const conf = writeConf({ ...fastCrawlSettings(names), 'console.port': port, 'console.token': TOKEN });
    const origin = site.origin(H);
    const child = spawnCrawler(['run', '--conf', conf, '--seed', `${origin}/`]);
    try {
      const idle = /^nothing due; next URL due at (\S+) \(1 URL scheduled\)$/;
      await until(() => msgs(child.stderr).some((m) => idle.test(m)), 60_000, 'the nothing-due line');
      const line = msgs(child.stderr).find((m) => idle.test(m))!;
      // The seed, fetched, is due again in a day (fetchInterval.default).
      const at = Date.parse(idle.exec(line)![1]!);
      expect(at - Date.now()).toBeGreaterThan(23 * 3_600_000);
      const res = await fetch(`http://127.0.0.1:${port}/api/state`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      const state = (await res.json()) as { warnings: { level: string; msg: string }[] };
      expect(state.warnings).toContainEqual(expect.objectContaining({ level: 'notice', msg: line }));
      // Once, though the spout keeps finding nothing.
      const queries = () => msgs(child.stderr).filter((m) => m.startsWith('nothing due')).length;
      await new Promise((r) => setTimeout(r, 1500));
      expect(queries()).toBe(1);

      // Work appears: a URL injected by another command.
      const seeds = conf.replace('crawl.yaml', 'seeds.txt');
      writeFileSync(seeds, `${origin}/later\n`);
      expect((await crawler('inject', seeds, '--conf', conf)).code).toBe(0);
      await until(() => site.hosts.get(H)!.count('/later') === 1, 60_000, '/later fetched');
      expect(msgs(child.stderr)).toContain('URLs are due again: crawling');
      await until(() => queries() === 2, 60_000, 'nothing due again');
      expect(
        msgs(child.stderr)
          .filter((m) => m.startsWith('nothing due'))
          .at(-1),
      ).toMatch(/\(2 URLs scheduled\)$/);
    } finally {
      child.proc.kill('SIGINT');
      expect(await child.exited).toBe(0);
    }
  }, 150_000);
});
