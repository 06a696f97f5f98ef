import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leaseId } from '../../../src/opensearch/lease.js';
import { buildCli, type Child, spawnCrawler, until } from '../../support/child.js';
import { fastCrawlSettings, testClient, writeConf } from '../../support/crawl.js';
import { slowPage } from '../../support/elastic.js';
import { deleteIndices, uniqueIndexNames } from '../../support/opensearch.js';
import { robots, Site } from '../../support/site.js';

// The lease fences the crawl's writes: a crawl frozen (SIGSTOP) past its lease while another crawl
// takes the share writes nothing once it wakes, and stops naming the lease; so does a crawl whose
// lease is lost while it is still starting.

const site = new Site();
const HOSTS = ['127.0.9.1', '127.0.9.2', '127.0.9.3', '127.0.9.4'];
const PAGES = 400;
const created: string[] = [];
const LEASES = uniqueIndexNames('fence-leases').status.replace(/-status$/, '');
const TTL_MS = 6000;

beforeAll(async () => {
  buildCli();
  await site.start(HOSTS);
  for (const h of HOSTS) {
    site.route(h, '/robots.txt', robots('User-agent: *\nAllow: /\n'));
    for (let i = 0; i < PAGES; i++)
      site.route(h, `/p${i}`, slowPage(`${h} ${i}`, [`/p${i + 1}`, `/p${i + 2}`], 150));
  }
}, 120_000);

afterAll(async () => {
  await site.close();
  await deleteIndices(...created, LEASES);
});

/** One crawl's config: the shared status index, and a content and transitions index of its own. */
function conf(
  status: string,
  label: string,
  agent: string,
  shards = 2,
): { content: string; transitions: string; path: string } {
  const own = uniqueIndexNames(label);
  const transitions = own.content.replace(/-content$/, '-transitions');
  created.push(own.content, transitions);
  const path = writeConf({
    ...fastCrawlSettings({ status, content: own.content }),
    'opensearch.status.shards': shards,
    'opensearch.lease.index.name': LEASES,
    'opensearch.lease.ttl': TTL_MS,
    'status.transitions.index.name': transitions,
    'http.agent.name': agent,
    'http.timeout': 5000,
  });
  return { content: own.content, transitions, path };
}

/** Another crawl (pid `pid` on taker-host) takes the share's leases, as a second `crawler run` would. */
async function takeShare(status: string, shards: number[], pid: number): Promise<void> {
  const client = testClient();
  try {
    const now = Date.now();
    for (const shard of shards) {
      await client.index({
        index: LEASES,
        id: leaseId(status, shard),
        refresh: true,
        body: {
          statusIndex: status,
          shard,
          token: 'taker',
          host: 'taker-host',
          boot: 'another-boot',
          pid,
          share: 'all shards',
          shards,
          since: now,
          renewedAt: now,
          expiresAt: now + 600_000,
        },
      });
    }
  } finally {
    await client.close();
  }
}

async function count(index: string): Promise<number> {
  const client = testClient();
  try {
    await client.indices.refresh({ index });
    return Number((await client.count({ index })).body.count);
  } catch {
    return 0;
  } finally {
    await client.close();
  }
}

/** The lease documents of a status index (held or expired). */
async function leases(statusIndex: string): Promise<Record<string, unknown>[]> {
  const client = testClient();
  try {
    await client.indices.refresh({ index: LEASES });
    const res = await client.search({
      index: LEASES,
      body: { size: 100, query: { term: { statusIndex } } } as never,
    });
    return res.body.hits.hits.map((h) => h._source as Record<string, unknown>);
  } catch {
    return [];
  } finally {
    await client.close();
  }
}

/** The log lines of a child at warning level or above. */
const warnings = (child: Child) =>
  child.stderr.flatMap((l) => {
    try {
      const line = JSON.parse(l) as { level: number; msg: unknown };
      return line.level >= 40 ? [String(line.msg)] : [];
    } catch {
      return [];
    }
  });

describe('the lease fences the writes of a crawl', () => {
  it('a crawl frozen past its lease while another takes the share writes nothing after it wakes, and exits naming the lease', async () => {
    const status = uniqueIndexNames('fence-frozen').status;
    created.push(status);
    const a = conf(status, 'fence-a', 'frozenbot');
    const b = conf(status, 'fence-b', 'takerbot');
    const seeds = HOSTS.flatMap((h) => ['--seed', `${site.origin(h)}/p0`]);
    const first = spawnCrawler(['run', '--conf', a.path, ...seeds]);
    // Crawling: pages indexed and statuses written, fetches in flight.
    await until(async () => (await count(a.content)) >= 8, 60_000, 'the first crawl to index pages');
    first.proc.kill('SIGSTOP');
    try {
      // Frozen past its TTL: its lease expires, and a second crawl takes the share.
      await until(
        async () => {
          const docs = await leases(status);
          return docs.length === 2 && docs.every((d) => Number(d.expiresAt) < Date.now() - 500);
        },
        60_000,
        "the frozen crawl's lease to expire",
      );
      const second = spawnCrawler(['run', '--conf', b.path]);
      try {
        await until(async () => (await count(b.content)) >= 4, 60_000, 'the second crawl to index pages');
        expect((await leases(status)).every((d) => d.pid === second.proc.pid)).toBe(true);
        const contentBefore = await count(a.content);
        const transitionsBefore = await count(a.transitions);
        expect(transitionsBefore).toBeGreaterThan(0);
        first.proc.kill('SIGCONT');
        expect(await first.exited).toBe(3);
        const lines = warnings(first).filter((l) => l.includes('lease'));
        expect(lines).toHaveLength(1);
        expect(lines[0]).toMatch(
          new RegExp(`^the lease on this crawl's status shards was taken by pid ${second.proc.pid} on host `),
        );
        // Nothing written after it woke: no page indexed, no status written (its transitions).
        expect(await count(a.content)).toBe(contentBefore);
        expect(await count(a.transitions)).toBe(transitionsBefore);
        // The second crawl goes on, the share its own.
        const later = await count(b.content);
        await until(async () => (await count(b.content)) > later, 60_000, 'the second crawl to go on');
      } finally {
        second.proc.kill('SIGTERM');
        expect(await second.exited).toBe(0);
      }
    } finally {
      if (first.proc.exitCode === null && first.proc.signalCode === null) {
        first.proc.kill('SIGCONT');
        first.proc.kill('SIGKILL');
      }
    }
  }, 240_000);

  it('a lease lost while the crawl is starting stops it before it fetches or indexes anything', async () => {
    const status = uniqueIndexNames('fence-start').status;
    created.push(status);
    const a = conf(status, 'fence-start', 'startbot');
    // Thousands of seeds make the start-up (their injection) last a second or more after the lease.
    const origin = site.origin(HOSTS[0]!);
    const seeds = Array.from({ length: 4000 }, (_, i) => ['--seed', `${origin}/s${i}`]).flat();
    const child = spawnCrawler(['run', '--conf', a.path, ...seeds]);
    try {
      const end = Date.now() + 60_000;
      while ((await leases(status)).length < 2) {
        if (Date.now() > end) throw new Error('timed out waiting for the crawl to take its lease');
      }
      child.proc.kill('SIGSTOP');
      // Frozen past its TTL, and another crawl takes the share meanwhile.
      await until(
        async () => (await leases(status)).every((d) => Number(d.expiresAt) < Date.now() - 500),
        60_000,
        'the lease to expire',
      );
      await takeShare(status, [0, 1], 77);
      child.proc.kill('SIGCONT');
      expect(await child.exited).toBe(3);
      const lines = warnings(child).filter((l) => l.includes('lease'));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        /^the lease on this crawl's status shards was taken by pid 77 on host taker-host/,
      );
      // Stopped before its first fetch: nothing fetched, nothing indexed.
      expect(site.hosts.get(HOSTS[0]!)!.requests.filter((r) => r.userAgent.startsWith('startbot'))).toEqual(
        [],
      );
      expect(await count(a.content)).toBe(0);
    } finally {
      if (child.proc.exitCode === null && child.proc.signalCode === null) {
        child.proc.kill('SIGCONT');
        child.proc.kill('SIGKILL');
      }
    }
  }, 180_000);

  it('run --workers: a supervisor frozen past its lease stops its workers writing, and kills them once it wakes to find the lease taken', async () => {
    const status = uniqueIndexNames('fence-workers').status;
    created.push(status);
    const w = conf(status, 'fence-workers', 'workerbot', 4);
    const seeds = HOSTS.flatMap((h) => ['--seed', `${site.origin(h)}/p0`]);
    const supervisor = spawnCrawler(['run', '--workers', '2', '--conf', w.path, ...seeds]);
    try {
      await until(async () => (await count(w.content)) >= 8, 90_000, 'the workers to index pages');
      // The supervisor alone is frozen: its workers (their own process group) go on fetching.
      supervisor.proc.kill('SIGSTOP');
      await until(
        async () => {
          const docs = await leases(status);
          return docs.length === 4 && docs.every((d) => Number(d.expiresAt) < Date.now() - 500);
        },
        60_000,
        "the supervisor's lease to expire",
      );
      // Two thirds of the TTL after the last renewal the workers' writes stopped: none from here on.
      const contentBefore = await count(w.content);
      const transitionsBefore = await count(w.transitions);
      // Unfenced, four workers' hosts would index a few pages a second meanwhile.
      const since = Date.now();
      await until(() => Date.now() > since + TTL_MS / 2, 60_000, 'half a TTL more');
      expect(await count(w.content)).toBe(contentBefore);
      expect(await count(w.transitions)).toBe(transitionsBefore);
      // Another crawl takes the share; the supervisor wakes, finds it taken, and kills its workers.
      await takeShare(status, [0, 1, 2, 3], 78);
      supervisor.proc.kill('SIGCONT');
      expect(await supervisor.exited).toBe(3);
      const lines = warnings(supervisor).filter((l) => l.includes('lease'));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        /^the lease on this crawl's status shards was taken by pid 78 on host taker-host/,
      );
      expect(await count(w.content)).toBe(contentBefore);
      expect(await count(w.transitions)).toBe(transitionsBefore);
    } finally {
      if (supervisor.proc.exitCode === null && supervisor.proc.signalCode === null) {
        supervisor.proc.kill('SIGCONT');
        supervisor.proc.kill('SIGTERM');
        await supervisor.exited;
      }
    }
  }, 240_000);
});
