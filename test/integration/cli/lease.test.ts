import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leaseId } from '../../../src/opensearch/lease.js';
import { buildCli, type Child, spawnCrawler, until } from '../../support/child.js';
import { crawler, fastCrawlSettings, testClient, writeConf } from '../../support/crawl.js';
import { deleteIndices, uniqueIndexNames } from '../../support/opensearch.js';
import { page, robots, Site } from '../../support/site.js';

// One owner per share of the status index: a second `crawler run` whose shards overlap a running
// one's refuses to start, naming the holder; a killed holder lets go; a lease taken away stops a crawl.

const site = new Site();
const HOSTS = ['127.0.8.1', '127.0.8.2', '127.0.8.3', '127.0.8.4'];
const created: string[] = [];
const LEASES = uniqueIndexNames('leases').status.replace(/-status$/, '');
const TTL_MS = 10_000;

beforeAll(async () => {
  buildCli();
  await site.start(HOSTS);
  for (const h of HOSTS) {
    site.route(h, '/robots.txt', robots('User-agent: *\nAllow: /\n'));
    // A few pages: a run without --once holds its lease while it runs, with work or without.
    for (let i = 0; i < 4; i++) site.route(h, `/p${i}`, page(`${h} ${i}`, [`/p${i + 1}`]));
  }
}, 120_000);

afterAll(async () => {
  await site.close();
  await deleteIndices(...created, LEASES);
});

function setup(label: string) {
  const names = uniqueIndexNames(label);
  created.push(names.status, names.content);
  const conf = writeConf({
    ...fastCrawlSettings(names),
    'opensearch.status.shards': 4,
    'opensearch.lease.index.name': LEASES,
    'opensearch.lease.ttl': TTL_MS,
  });
  const seeds = HOSTS.flatMap((h) => ['--seed', `${site.origin(h)}/p0`]);
  return { names, conf, seeds };
}

/** The lease documents of a status index, by shard. */
async function leases(statusIndex: string): Promise<Map<number, Record<string, unknown>>> {
  const client = testClient();
  try {
    const exists = await client.indices.exists({ index: LEASES });
    if (exists.body !== true) return new Map();
    await client.indices.refresh({ index: LEASES });
    const res = await client.search({
      index: LEASES,
      body: { size: 100, query: { term: { statusIndex } } } as never,
    });
    return new Map(
      res.body.hits.hits.map((h) => [
        Number((h._source as { shard: number }).shard),
        h._source as Record<string, unknown>,
      ]),
    );
  } finally {
    await client.close();
  }
}

const messages = (child: Child) =>
  child.stderr.flatMap((l) => {
    try {
      return [String((JSON.parse(l) as { msg: unknown }).msg)];
    } catch {
      return [];
    }
  });

describe('the lease on a share of the status index', () => {
  it('a second run on an overlapping share refuses to start while the first runs, and starts once the first is SIGKILLed', async () => {
    const { names, conf, seeds } = setup('lease-overlap');
    const first = spawnCrawler(['run', '--conf', conf, ...seeds]);
    const pid = first.proc.pid!;
    await until(
      async () => (await leases(names.status)).size === 4,
      60_000,
      'the first run to take its lease',
    );
    // Renewed while it runs: still held well past the TTL.
    await until(
      async () => {
        const l = (await leases(names.status)).get(0);
        return l !== undefined && Number(l.renewedAt) - Number(l.since) > TTL_MS;
      },
      60_000,
      'a renewal past the TTL',
    );
    // The other runs in this process: they reach the lease at once.
    const second = await crawler('run', '--once', '--conf', conf);
    expect(second.code).toBe(3);
    expect(second.err[0]).toMatch(
      new RegExp(
        `^crawler run: status index "${names.status}": this crawl's share \\(all shards\\) overlaps one another crawl holds: ` +
          `shards 0,1,2,3 to pid ${pid} on host ${hostname()} \\(all shards\\) since \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z, renewed \\d+ s ago\\. `,
      ),
    );
    expect(second.err[0]).toContain('Stop that crawl first, or give each its own --instances M --instance I');
    // The same check covers --instances mistakes: instance 1 of 2 reads shards 1 and 3, held by the first.
    const half = await crawler('run', '--once', '--conf', conf, '--instances', '2', '--instance', '1');
    expect(half.code).toBe(3);
    expect(half.err[0]).toMatch(/this crawl's share \(instance 1 of 2\) overlaps .*: shards 1,3 to pid/);

    first.proc.kill('SIGKILL');
    expect(await first.exited).toBe(null);
    // Killed on this machine: its process is gone, so its lease is taken over before it expires.
    const expiresAt = Math.min(...[...(await leases(names.status)).values()].map((l) => Number(l.expiresAt)));
    expect(Date.now()).toBeLessThan(expiresAt);
    expect((await crawler('run', '--once', '--conf', conf)).code).toBe(0);
    // Released at exit.
    expect((await leases(names.status)).size).toBe(0);
  }, 180_000);

  it('a holder on another machine that stopped renewing blocks its shards until its lease expires', async () => {
    const { names, conf } = setup('lease-expiry');
    // What a crawl on another machine leaves when it is killed: its lease documents, renewed no more.
    const client = testClient();
    const now = Date.now();
    const expiresAt = now + 15_000;
    try {
      expect((await crawler('init', '--conf', conf)).code).toBe(0);
      const body = JSON.parse(
        readFileSync(new URL('../../../mappings/leases.json', import.meta.url), 'utf8'),
      );
      await client.indices.create({ index: LEASES, body }).catch(() => undefined);
      for (const shard of [0, 1, 2, 3]) {
        await client.index({
          index: LEASES,
          id: leaseId(names.status, shard),
          refresh: true,
          body: {
            statusIndex: names.status,
            shard,
            token: 'elsewhere',
            host: 'crawl-host-2',
            boot: 'another-boot',
            pid: 4242,
            share: 'all shards',
            shards: [0, 1, 2, 3],
            since: now - 60_000,
            renewedAt: now,
            expiresAt,
          },
        });
      }
    } finally {
      await client.close();
    }
    // In this process: a crawl reaches its lease well before the holder's expires.
    const refused = await crawler('run', '--once', '--conf', conf);
    expect(refused.code).toBe(3);
    expect(refused.err[0]).toMatch(/shards 0,1,2,3 to pid 4242 on host crawl-host-2 \(all shards\) since /);
    await until(() => Date.now() > expiresAt + 1000, 60_000, 'the lease to expire');
    expect((await crawler('run', '--once', '--conf', conf)).code).toBe(0);
    expect((await leases(names.status)).size).toBe(0);
  }, 120_000);

  it('two instances given one --instance: the second refuses; the other instance starts; a crawl whose lease is taken stops', async () => {
    const { names, conf, seeds } = setup('lease-instances');
    const zero = spawnCrawler(['run', '--conf', conf, '--instances', '2', '--instance', '0', ...seeds]);
    await until(async () => (await leases(names.status)).size === 2, 60_000, 'instance 0 to take its lease');
    const again = await crawler('run', '--once', '--conf', conf, '--instances', '2', '--instance', '0');
    expect(again.code).toBe(3);
    expect(again.err[0]).toMatch(
      new RegExp(
        `this crawl's share \\(instance 0 of 2\\) overlaps .*: shards 0,2 to pid ${zero.proc.pid} on host [^ ]+ \\(instance 0 of 2\\)`,
      ),
    );
    expect((await crawler('run', '--once', '--conf', conf, '--instances', '2', '--instance', '1')).code).toBe(
      0,
    );
    // Another process takes instance 0's lease (as one would after instance 0 stalled past the TTL):
    // instance 0 sees it at its next renewal and stops rather than crawl beside it.
    const client = testClient();
    try {
      const now = Date.now();
      for (const shard of [0, 2]) {
        // Written over whatever instance 0 last renewed (no version check).
        await client.index({
          index: LEASES,
          id: leaseId(names.status, shard),
          refresh: true,
          body: {
            statusIndex: names.status,
            shard,
            token: 'thief',
            host: 'thief-host',
            boot: 'another-boot',
            pid: 99,
            share: 'instance 0 of 2',
            shards: [0, 2],
            since: now,
            renewedAt: now,
            expiresAt: now + 600_000,
          },
        });
      }
    } finally {
      await client.close();
    }
    expect(await zero.exited).toBe(3);
    expect(messages(zero)).toContainEqual(
      expect.stringMatching(
        /^the lease on this crawl's status shards was taken by pid 99 on host thief-host/,
      ),
    );
  }, 180_000);
});
