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
} from '../../support/elastic.js';
import { uniqueIndexNames } from '../../support/opensearch.js';
import { Site } from '../../support/site.js';

// Handovers of an elastic crawl keep every host polite (issue 45 point 2): hosts whose robots.txt asks
// for a Crawl-delay of 2 s (fetcher.server.delay is 0.2 s) are crawled by one member, then shared
// with a second and a third that join. Each join hands shards over: the taker must wait out the
// host's delay from the releasing member's last fetch, and the releasing member's next generation
// must wait it out for the hosts it kept. Checked against the web's own request log.

const site = new Site();
const HOSTS = ['127.0.47.1', '127.0.47.2', '127.0.47.3', '127.0.47.4', '127.0.47.5', '127.0.47.6'];
const PAGES = 10;
const SHARDS = 6;
const TTL_MS = 4000;
const CRAWL_DELAY_MS = 2000;
const names = uniqueIndexNames('elastic-polite');
const LEASES = `${names.status}-leases`;
const client = testClient();

const settings = memberSettings(names, {
  shards: SHARDS,
  leases: LEASES,
  ttlMs: TTL_MS,
  delayS: 0.2,
  agent: 'politebot',
});

const children: Child[] = [];

beforeAll(async () => {
  buildCli();
  await site.start(HOSTS);
  routeChains(site, HOSTS, PAGES, 20);
  // After routeChains: this robots.txt (with its Crawl-delay) replaces the plain one.
  for (const h of HOSTS) {
    site.route(h, '/robots.txt', (_n, _q, res) => {
      res
        .writeHead(200, { 'content-type': 'text/plain' })
        .end(`User-agent: *\nCrawl-delay: ${CRAWL_DELAY_MS / 1000}\nAllow: /\n`);
    });
  }
}, 120_000);

afterAll(() => endMembers({ children, logPrefix: 'polite', site, client, names, leases: LEASES }));

describe('crawler run --join: politeness across handovers', () => {
  it("members that join mid-crawl never fetch a host sooner than its robots.txt Crawl-delay after another's fetch", async () => {
    const conf = writeConf(settings);
    const seeds = HOSTS.flatMap((h) => ['--seed', `${site.origin(h)}/p0`]);
    const a = spawnCrawler(['run', '--join', '--conf', conf, ...seeds]);
    children.push(a);
    // Every host fetched at least once (their delays run) before anyone joins.
    await until(
      () => HOSTS.every((h) => site.hosts.get(h)!.count('/p1') > 0),
      120_000,
      'the first member to fetch two pages of every host',
    );
    const b = spawnCrawler(['run', '--join', '--conf', conf]);
    children.push(b);
    const pids = [a.proc.pid!, b.proc.pid!];
    await until(
      async () => fair(await holders(client, LEASES, names.status, SHARDS), pids),
      120_000,
      'fair shares of two members',
    );
    const c = spawnCrawler(['run', '--join', '--conf', conf]);
    children.push(c);
    pids.push(c.proc.pid!);
    await until(
      async () => fair(await holders(client, LEASES, names.status, SHARDS), pids),
      120_000,
      'fair shares of three members',
    );
    await until(
      async () => (await fetchedCount(client, names.status)) === HOSTS.length * PAGES,
      240_000,
      'every page of the web to end FETCHED',
    );
    // Shares moved: the first member released some at a safe point.
    expect(a.stderr.join('\n')).toMatch(/released status shards/);
    // The web's own log: no host asked twice within its Crawl-delay, whichever member asked.
    expect(impoliteFetches(site, CRAWL_DELAY_MS)).toEqual([]);
    for (const m of [a, b, c]) m.proc.kill('SIGTERM');
    for (const m of [a, b, c]) expect(await m.exited).toBe(0);
  }, 600_000);
});
