import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli, type Child, spawnCrawler, until } from '../../support/child.js';
import { testClient, writeConf } from '../../support/crawl.js';
import {
  endMembers,
  fair,
  fetchedCount,
  holders,
  impoliteFetches,
  memberSettings,
  routeChains,
  slowPage,
} from '../../support/elastic.js';
import { uniqueIndexNames } from '../../support/opensearch.js';
import { Site } from '../../support/site.js';

// An elastic crawl (`crawler run --join`) of three members on this machine: they share the status
// shards fairly; one is SIGKILLed for good; the two others adopt its shards once its leases expire,
// and every URL of the web ends FETCHED, no host fetched sooner than its delay. A joiner with other
// settings is refused, naming the keys; SIGTERM hands the shards over. The same faults between
// machines in network namespaces: test/elastic/elastic-faults.test.ts (npm run test:elastic).
//
// Each host's pages are two chains: the first is found from the seeds, the second only once the
// test injects its first page, right before the kill, so that however slowly the members start on a
// loaded machine, the killed member's shards still have pages to crawl after it died.

const site = new Site();
const HOSTS = ['127.0.45.1', '127.0.45.2', '127.0.45.3', '127.0.45.4', '127.0.45.5', '127.0.45.6'];
const PAGES = 40;
/** The second chain of each host starts here. */
const SECOND = 20;
const SHARDS = 6;
const TTL_MS = 4000;
const DELAY_S = 0.3;
const names = uniqueIndexNames('elastic-kill');
const LEASES = `${names.status}-leases`;
const TRANSITIONS = `${names.status}-transitions`;
const client = testClient();

const settings = {
  ...memberSettings(names, {
    shards: SHARDS,
    leases: LEASES,
    ttlMs: TTL_MS,
    delayS: DELAY_S,
    agent: 'elasticbot',
  }),
  'status.transitions.index.name': TRANSITIONS,
};

const children: Child[] = [];

beforeAll(async () => {
  buildCli();
  await site.start(HOSTS);
  routeChains(site, HOSTS, PAGES, 100);
  // The first chain ends at SECOND - 1: nothing links across.
  const firstEnds = (h: string, i: number) =>
    site.route(h, `/p${i}`, slowPage(`${h} ${i}`, i + 1 < SECOND ? [`/p${i + 1}`] : [], 100));
  for (const h of HOSTS) for (const i of [SECOND - 2, SECOND - 1]) firstEnds(h, i);
}, 120_000);

afterAll(() => endMembers({ children, logPrefix: 'member', site, client, names, leases: LEASES }));

describe('crawler run --join', () => {
  it('a member SIGKILLed for good: the others adopt its shards, nothing is lost, hosts stay polite', async () => {
    const conf = writeConf(settings);
    const seeds = HOSTS.flatMap((h) => ['--seed', `${site.origin(h)}/p0`]);
    const a = spawnCrawler(['run', '--join', '--conf', conf, ...seeds]);
    children.push(a);
    await until(
      async () => (await holders(client, LEASES, names.status, SHARDS)).every(Boolean),
      180_000,
      'the first member to hold every shard',
    );
    const b = spawnCrawler(['run', '--join', '--conf', conf]);
    const c = spawnCrawler(['run', '--join', '--conf', conf]);
    children.push(b, c);
    const pids = [a, b, c].map((x) => x.proc.pid!);
    await until(
      async () => fair(await holders(client, LEASES, names.status, SHARDS), pids),
      180_000,
      'fair shares of three members',
    );
    // The second chains: fetched by the three members, then by the survivors.
    const more = join(tmpdir(), `elastic-kill-${process.pid}.txt`);
    writeFileSync(more, HOSTS.map((h) => `${site.origin(h)}/p${SECOND}\n`).join(''));
    const inject = spawnCrawler(['inject', more, '--conf', conf]);
    expect(await inject.exited).toBe(0);
    const injected = (h: string) => site.hosts.get(h)!.count(`/p${SECOND}`) > 0;
    await until(() => HOSTS.every(injected), 120_000, 'every second chain started');
    expect(await fetchedCount(client, names.status)).toBeLessThan(HOSTS.length * PAGES);
    b.proc.kill('SIGKILL');
    const killedAt = Date.now();
    // Adopted once its leases expire (the TTL) plus a round of the survivors (a third of it).
    await until(
      async () => fair(await holders(client, LEASES, names.status, SHARDS), [pids[0]!, pids[2]!]),
      120_000,
      'the survivors to adopt the shards of the killed member',
    );
    const adoptedMs = Date.now() - killedAt;
    // A generous ceiling (a loaded machine: rounds and lease requests late): the TTL, a round, and
    // twice as much again; issue 45 asks for the TTL plus one renewal.
    expect(adoptedMs).toBeLessThan(4 * TTL_MS);
    // What an operator sees: `crawler stats` lists the members, the killed one gone with no shards.
    const stats = spawnCrawler(['stats', '--conf', conf]);
    expect(await stats.exited).toBe(0);
    const listed = stats.stdout.join('\n');
    expect(listed).toMatch(/members of the elastic crawl \(crawler run --join\): 2 live of 3/);
    expect(listed).toMatch(new RegExp(`-${pids[1]}-[0-9a-f]+  gone  no shards`));
    for (const pid of [pids[0], pids[2]])
      expect(listed).toMatch(new RegExp(`-${pid}-[0-9a-f]+  live  shards [0-9,]+  [0-9.]+ pages/s`));
    await until(
      async () => (await fetchedCount(client, names.status)) === HOSTS.length * PAGES,
      240_000,
      'every page of the web to end FETCHED',
    );
    // Nothing lost: every page of the web was asked for, and no host faster than its delay.
    for (const h of HOSTS) {
      for (let i = 0; i < PAGES; i++) expect(site.hosts.get(h)!.count(`/p${i}`)).toBeGreaterThan(0);
    }
    expect(impoliteFetches(site, DELAY_S * 1000)).toEqual([]);

    // A joiner with another setting is refused, naming the key.
    const other = writeConf({ ...settings, 'fetcher.server.delay': 2 });
    const d = spawnCrawler(['run', '--join', '--conf', other]);
    children.push(d);
    expect(await d.exited).toBe(3);
    expect(d.stderr.join('\n')).toMatch(/Keys that differ: fetcher\.server\.delay/);
    // A plain run (no --join) still refuses while the members hold the shards.
    const plain = spawnCrawler(['run', '--conf', conf]);
    children.push(plain);
    expect(await plain.exited).toBe(3);
    expect(plain.stderr.join('\n')).toMatch(/member /);

    // SIGTERM: each hands its shards over and leaves; the last one releases them all.
    a.proc.kill('SIGTERM');
    expect(await a.exited).toBe(0);
    await until(
      async () => fair(await holders(client, LEASES, names.status, SHARDS), [pids[2]!]),
      60_000,
      'the last member to adopt the shards handed over',
    );
    c.proc.kill('SIGTERM');
    expect(await c.exited).toBe(0);
    expect((await holders(client, LEASES, names.status, SHARDS)).every((h) => h === undefined)).toBe(true);
  }, 420_000);
});
