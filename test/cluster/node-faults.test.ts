import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Child, spawnCrawler, until } from '../support/child.js';
import {
  allDocs,
  clusterClient,
  clusterInfo,
  primaryNode,
  signalNode,
  startCluster,
  waitGreen,
} from '../support/cluster.js';
import { writeConf } from '../support/crawl.js';
import { isolationSettings } from '../support/opensearch.js';
import { page, robots, Site } from '../support/site.js';

/*
 * Faults of a real three-node cluster (scripts/opensearch with OPENSEARCH_NODES=3, started by the
 * `cluster` project's set-up) under a real crawl: a data node SIGKILLed, a rolling restart of every
 * node, and the node holding a shard's only copy killed. The tests run one after the other (one
 * file) and each leaves the cluster green with its three nodes for the next.
 */

const info = clusterInfo();
const client = clusterClient(info);
const site = new Site();
const HOSTS = ['127.0.27.1', '127.0.27.2', '127.0.27.3', '127.0.27.4'];
const PAGES = 40;
const TOTAL = HOSTS.length * PAGES;
const created: string[] = [];

beforeAll(async () => {
  await site.start(HOSTS);
  for (const [h, host] of HOSTS.entries()) {
    site.route(host, '/robots.txt', robots('User-agent: *\nAllow: /\n'));
    const other = site.origin(HOSTS[(h + 1) % HOSTS.length]!);
    for (let i = 0; i < PAGES; i++) {
      const links = [`/p${(i + 1) % PAGES}`, `/p${(i + 7) % PAGES}`, `${other}/p${i}`];
      site.route(host, `/p${i}`, page(`${host} page ${i}`, links));
    }
  }
  // The set-up began the start; this waits for it (or starts the nodes that are missing).
  await startCluster(info);
  await waitGreen(client, info);
}, 600_000);

// Each test starts on the whole cluster, green, even when the one before failed half-way.
beforeEach(async () => {
  await startCluster(info);
  await waitGreen(client, info);
}, 600_000);

afterAll(async () => {
  await site.close();
  if (created.length > 0) await client.indices.delete({ index: created.join(','), ignore_unavailable: true });
  await client.close();
});

/** A point in the site's request log: how many requests each host had then. */
type Mark = Map<string, number>;

function mark(): Mark {
  return new Map([...site.hosts].map(([h, host]) => [h, host.requests.length]));
}

/** How many times each page was requested after `m`, by URL (robots.txt left out). */
function countsSince(m: Mark): Map<string, number> {
  const out = new Map<string, number>();
  for (const [h, host] of site.hosts) {
    for (const r of host.requests.slice(m.get(h) ?? 0)) {
      if (!r.path.startsWith('/p')) continue;
      const url = `${host.origin}${r.path}`;
      out.set(url, (out.get(url) ?? 0) + 1);
    }
  }
  return out;
}

/** Pages requested after `m`. */
function pagesSince(m: Mark): number {
  let n = 0;
  for (const c of countsSince(m).values()) n += c;
  return n;
}

const allPages = () =>
  HOSTS.flatMap((h) => Array.from({ length: PAGES }, (_, i) => `${site.origin(h)}/p${i}`));

/** A crawl of the site on the cluster: indices created, seeds injected, the cluster green. */
async function prepare(
  label: string,
  extra: Record<string, unknown> = {},
): Promise<{ conf: string; status: string; content: string }> {
  const id = `${label}-${randomBytes(3).toString('hex')}`;
  const status = `test-cluster-${id}-status`;
  const content = `test-cluster-${id}-content`;
  created.push(status, content, `test-cluster-${id}-hosts`);
  const conf = writeConf({
    // Every node: a request to a dead one goes to the next.
    'opensearch.addresses': info.addresses.join(','),
    'opensearch.status.index.name': status,
    'opensearch.indexer.index.name': content,
    'opensearch.status.shards': 3,
    'opensearch.indexer.shards': 1,
    'http.agent.name': 'clusterbot',
    'http.filter.ipaddress.exclude': [],
    // Generous: a busy machine must not turn a slow answer of the test site into a FETCH_ERROR.
    'http.timeout': 10_000,
    // Generous as well: a node that answers slowly on a starved machine is marked dead like one that
    // is gone, and with every node slow a write would report "cannot be reached" while nothing failed.
    'opensearch.connect.timeout': 60_000,
    'fetcher.server.delay': 0.1,
    'spout.min.delay.queries': 100,
    // The default: a shard copy on a busy machine may take seconds to make a write searchable, and
    // a replica refreshes on its own clock (README: the at-least-once window).
    'spout.ttl.purgatory': 30,
    'opensearch.status.flushInterval': '100ms',
    'opensearch.indexer.flushInterval': '100ms',
    // The test pages are alike: every one is indexed (no near-duplicate skipped), and no soft-404
    // probe adds requests of its own.
    'dedup.mode': 'off',
    ...isolationSettings({ status }),
    ...extra,
  });
  const seeds = conf.replace('crawl.yaml', 'seeds.txt');
  writeFileSync(seeds, HOSTS.map((h) => `${site.origin(h)}/p0`).join('\n'));
  const inject = spawnCrawler(['inject', seeds, '--conf', conf]);
  expect(await inject.exited, inject.stderr.join('\n')).toBe(0);
  // Replicas (where asked for) assigned before any node is touched.
  await waitGreen(client, info);
  return { conf, status, content };
}

const json = (child: Child) =>
  child.stderr
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { msg: string; [k: string]: unknown });

const linesStarting = (child: Child, prefix: string) => json(child).filter((l) => l.msg.startsWith(prefix));

/** Every URL of the site FETCHED, and one content document per page. */
async function expectComplete(status: string, content: string): Promise<void> {
  const docs = await allDocs(client, status);
  const byUrl = new Map(docs.map((d) => [String(d.url), String(d.status)]));
  expect([...byUrl.keys()].sort()).toEqual(allPages().sort());
  expect([...byUrl.entries()].filter(([, s]) => s !== 'FETCHED')).toEqual([]);
  const contentUrls = (await allDocs(client, content)).map((d) => String(d.url));
  expect(contentUrls.length).toBe(TOTAL);
  expect(new Set(contentUrls).size).toBe(TOTAL);
  expect((await client.count({ index: content })).body.count).toBe(TOTAL);
}

/** Nothing was given up: no write failed for good. */
function expectNothingGivenUp(child: Child): void {
  const failed = json(child).filter((l) => /^(status update|content write) failed/.test(l.msg));
  expect(failed).toEqual([]);
}

/** Every "shards unavailable" line is followed by a "shards available again" line. */
function expectShardOutagesEnded(child: Child): { started: number; ended: number } {
  const msgs = json(child).map((l) => l.msg);
  let open = false;
  let started = 0;
  let ended = 0;
  for (const m of msgs) {
    if (m.startsWith('OpenSearch shards unavailable')) {
      expect(open).toBe(false);
      open = true;
      started++;
    } else if (m.startsWith('OpenSearch shards available again')) {
      expect(open).toBe(true);
      open = false;
      ended++;
    }
  }
  expect(open).toBe(false);
  return { started, ended };
}

describe('a crawl on a three-node cluster survives its nodes', () => {
  it('a data node SIGKILLed mid-crawl: the crawl goes on, every page FETCHED, fetched and indexed once', async () => {
    const { conf, status, content } = await prepare('kill');
    const start = mark();
    const crawl = spawnCrawler(['run', '--once', '--conf', conf]);
    await until(() => pagesSince(start) >= TOTAL / 4, 120_000, 'a quarter of the pages fetched');
    // The node holding the content index's primary: its writes move to the promoted replica.
    const victim = await primaryNode(client, content);
    await signalNode(info, victim, 'SIGKILL');
    const killed = mark();
    expect(await crawl.exited, crawl.stderr.slice(-20).join('\n')).toBe(0);
    // The crawl went on without the node.
    expect(pagesSince(killed)).toBeGreaterThan(0);
    await expectComplete(status, content);
    // Each page fetched exactly once: the crawler did not die, so no at-least-once repeat.
    const counts = countsSince(start);
    expect(counts.size).toBe(TOTAL);
    expect([...counts].filter(([, n]) => n !== 1)).toEqual([]);
    expectNothingGivenUp(crawl);
    // Requests the dead node could not answer were sent to another node: never "cannot be reached".
    expect(linesStarting(crawl, 'OpenSearch cannot be reached')).toEqual([]);
    expectShardOutagesEnded(crawl);
  }, 900_000);

  it('a rolling restart of all three nodes during a crawl: it never stops, nothing is lost', async () => {
    const { conf, status, content } = await prepare('rolling', {
      // Work due at every moment, so that the crawl has pages to fetch while each node is away: a
      // pass over the site takes 40 s (40 pages a host, one a second), and a page is due again 15 s
      // after its fetch, so each host always has a backlog of due pages, however long a restart.
      'fetchInterval.default': 0.25,
      'fetcher.server.delay': 1,
    });
    const start = mark();
    const crawl = spawnCrawler(['run', '--conf', conf]);
    await until(() => pagesSince(start) >= 10, 120_000, 'the crawl under way');
    const whileDown: number[] = [];
    for (const node of info.addresses.map((a) => `node-${new URL(a).port}`)) {
      const stopped = mark();
      await signalNode(info, node, 'SIGTERM');
      await startCluster(info);
      whileDown.push(pagesSince(stopped));
      await waitGreen(client, info);
    }
    // The crawl fetched while each node was away.
    expect(whileDown.filter((n) => n === 0)).toEqual([]);
    const restarted = mark();
    await until(
      () => countsSince(start).size === TOTAL && pagesSince(restarted) >= 10,
      300_000,
      'every page fetched and the crawl going on after the restarts',
    );
    crawl.proc.kill('SIGTERM');
    // 0: every status update written before the deadline.
    expect(await crawl.exited, crawl.stderr.slice(-20).join('\n')).toBe(0);
    await expectComplete(status, content);
    expectNothingGivenUp(crawl);
    expect(linesStarting(crawl, 'OpenSearch cannot be reached')).toEqual([]);
    expectShardOutagesEnded(crawl);
  }, 1_200_000);

  it("replicas 0, the node with a shard's only copy killed: the crawl pauses with one line and resumes when it is back, losing nothing", async () => {
    const { conf, status, content } = await prepare('only-copy', {
      'opensearch.status.replicas': 0,
      'opensearch.indexer.replicas': 0,
      // Few content writes may wait for the shard, so that the pause comes soon.
      'opensearch.indexer.bulkActions': 5,
      // A bulk waits half of this for the missing shard before it answers: the pause comes sooner.
      'opensearch.connect.timeout': 10_000,
    });
    const start = mark();
    const crawl = spawnCrawler(['run', '--once', '--conf', conf]);
    await until(() => pagesSince(start) >= TOTAL / 4, 120_000, 'a quarter of the pages fetched');
    // The content index's one shard: every page's content write needs it.
    const victim = await primaryNode(client, content);
    await signalNode(info, victim, 'SIGKILL');
    await until(
      () => linesStarting(crawl, 'OpenSearch shards unavailable').length > 0,
      120_000,
      'the line saying shards are unavailable',
    );
    // Paused: no page requested for 5 s, well before the site is done.
    let last = pagesSince(start);
    let stableSince = Date.now();
    await until(
      () => {
        const now = pagesSince(start);
        if (now !== last) [last, stableSince] = [now, Date.now()];
        return Date.now() - stableSince >= 5000;
      },
      180_000,
      'the crawl to pause',
    );
    expect(pagesSince(start)).toBeLessThan(TOTAL);
    expect(linesStarting(crawl, 'OpenSearch shards available again')).toEqual([]);

    await startCluster(info);
    expect(await crawl.exited, crawl.stderr.slice(-20).join('\n')).toBe(0);
    const lines = linesStarting(crawl, 'OpenSearch shards unavailable');
    expect(lines).toHaveLength(1);
    expect(lines[0]!.msg).toMatch(/pausing what needs them and retrying; nothing is lost$/);
    expect(expectShardOutagesEnded(crawl)).toEqual({ started: 1, ended: 1 });
    expect(linesStarting(crawl, 'OpenSearch shards available again')[0]!.msg).toMatch(
      /^OpenSearch shards available again after \d+ s: writes and queries resumed$/,
    );
    await expectComplete(status, content);
    const counts = countsSince(start);
    expect(counts.size).toBe(TOTAL);
    expect([...counts].filter(([, n]) => n !== 1)).toEqual([]);
    expectNothingGivenUp(crawl);
  }, 900_000);
});
