import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli, until } from '../support/child.js';
import { testClient, writeConf } from '../support/crawl.js';
import {
  fair,
  fetchedCount,
  fetchedTwiceWithin,
  holders,
  impoliteFetches,
  routeChains,
} from '../support/elastic.js';
import {
  crawlOn,
  GATEWAY,
  type Machine,
  type MachineCrawler,
  makeBridge,
  makeMachine,
  NET,
  teardown,
} from '../support/netns.js';
import { deleteIndices, isolationSettings, uniqueIndexNames } from '../support/opensearch.js';
import {
  leaseTimeline,
  type RecordingProxy,
  recordingProxy,
  writesUnderAnotherLease,
} from '../support/os-proxy.js';
import { Site } from '../support/site.js';

// An elastic crawl across four machines (network namespaces on a bridge, test/support/netns.ts):
// a machine SIGKILLed for good, one frozen (SIGSTOP) past the TTL and woken, one cut off (link down)
// past the TTL and healed, a fourth joining mid-crawl, one leaving with SIGTERM. After each change
// the shares are fair again; at the end every page of the web is FETCHED, and the web's own log
// shows no page fetched by two machines within the crawl delay and no host fetched by two machines
// closer than its delay; and OpenSearch's side (a recording proxy between the machines and the node,
// and the lease holders read every 200 ms) shows no machine writing a URL's state while another held
// its shard. `npm run test:elastic` (root, `ip netns`).

const WEB = Array.from({ length: 8 }, (_, i) => `${NET}.${11 + i}`);
const PAGES = 120;
const SHARDS = 12;
const TTL_MS = 5000;
const DELAY_S = 0.5;
/** OpenSearch's port, on the bridge's gateway address too (a forwarder to loopback). */
const PORT = Number(process.env.OPENSEARCH_TEST_PORT ?? 9200);
const names = uniqueIndexNames('elastic-faults');
const LEASES = `${names.status}-leases`;
const TRANSITIONS = `${names.status}-transitions`;
const site = new Site();
const client = testClient();
const crawlers: MachineCrawler[] = [];
let proxy: RecordingProxy | undefined;
let machines: Machine[] = [];

const settings = {
  'opensearch.addresses': `http://${GATEWAY}:${PORT}`,
  'opensearch.status.index.name': names.status,
  'opensearch.indexer.index.name': names.content,
  ...isolationSettings(names),
  'opensearch.status.shards': SHARDS,
  'opensearch.indexer.shards': 1,
  'opensearch.lease.index.name': LEASES,
  'opensearch.lease.ttl': TTL_MS,
  'status.transitions.index.name': TRANSITIONS,
  'http.agent.name': 'elasticbot',
  'http.filter.ipaddress.exclude': [],
  'http.timeout': 5000,
  'fetcher.server.delay': DELAY_S,
  'spout.min.delay.queries': 50,
  'spout.ttl.purgatory': 2,
  'opensearch.status.flushInterval': '100ms',
  'opensearch.indexer.flushInterval': '100ms',
  'console.port': 0,
};

const alive = (c: MachineCrawler) => c.proc.exitCode === null && c.proc.signalCode === null;
const shares = () => holders(client, LEASES, names.status, SHARDS);
/**
 * Waits until the shares are fair among `members`; answers how long that took since now, or since
 * `joiner` said it joined (its process start-up is no part of the handover).
 */
async function fairAmong(
  members: readonly MachineCrawler[],
  what: string,
  ceilingMs: number,
  joiner?: MachineCrawler,
): Promise<number> {
  const start = Date.now();
  const pids = members.map((m) => m.proc.pid!);
  await until(async () => fair(await shares(), pids), ceilingMs, what);
  return Date.now() - (joiner ? joinedAt(joiner, start) : start);
}

/** When the crawler last logged that it joined (its log's clock), or `fallback`. */
function joinedAt(c: MachineCrawler, fallback: number): number {
  const times = c.stderr.flatMap((l) => {
    try {
      const line = JSON.parse(l) as { time: number; msg: string };
      return line.msg.startsWith('joined the crawl') ? [line.time] : [];
    } catch {
      return [];
    }
  });
  return times.at(-1) ?? fallback;
}

beforeAll(async () => {
  buildCli();
  makeBridge(WEB);
  machines = [1, 2, 3, 4].map(makeMachine);
  proxy = await recordingProxy({ host: GATEWAY, port: PORT }, PORT, names.status);
  await site.start(WEB);
  routeChains(site, WEB, PAGES, 100);
}, 120_000);

afterAll(async () => {
  const dir = process.env.ELASTIC_TEST_LOGS;
  if (dir)
    for (const [i, c] of crawlers.entries())
      writeFileSync(join(dir, `m${i}-${c.proc.pid}.log`), c.stderr.join('\n'));
  for (const c of crawlers) {
    if (!alive(c)) continue;
    c.proc.kill('SIGCONT');
    c.proc.kill('SIGKILL');
  }
  await Promise.all(crawlers.map((c) => c.exited));
  await site.close();
  await proxy?.close();
  teardown();
  await client.close();
  await deleteIndices(names.status, names.content, TRANSITIONS, LEASES);
}, 120_000);

describe('an elastic crawl across machines', () => {
  it('survives SIGKILL, SIGSTOP, a partition, a join and a leave: fair shares, nothing lost, polite', async () => {
    const conf = writeConf(settings);
    const seeds = WEB.flatMap((h) => ['--seed', `${site.origin(h)}/p0`]);
    const [m1, m2, m3, m4] = machines as [Machine, Machine, Machine, Machine];
    const times: Record<string, number> = {};
    const timeline = leaseTimeline(client, LEASES, names.status, SHARDS, 200);
    const c1 = crawlOn(m1, ['run', '--join', '--conf', conf, ...seeds]);
    crawlers.push(c1);
    await until(async () => (await shares()).every(Boolean), 90_000, 'the first machine to hold every shard');
    const c2 = crawlOn(m2, ['run', '--join', '--conf', conf]);
    const c3 = crawlOn(m3, ['run', '--join', '--conf', conf]);
    crawlers.push(c2, c3);
    times.threeJoin = await fairAmong([c1, c2, c3], 'fair shares of three machines', 120_000, c3);
    await until(async () => (await fetchedCount(client, names.status)) >= 60, 120_000, 'pages fetched');

    // 1. SIGKILL for good: the others adopt its shards once its leases expire.
    c3.proc.kill('SIGKILL');
    times.sigkill = await fairAmong([c1, c2], 'the survivors of the SIGKILL to adopt its shards', 60_000);

    // 2. A fourth machine joins mid-crawl: shards are handed over to it.
    const c4 = crawlOn(m4, ['run', '--join', '--conf', conf]);
    crawlers.push(c4);
    times.join = await fairAmong([c1, c2, c4], 'a joining machine to get its fair share', 120_000, c4);

    // 3. SIGSTOP past the TTL: its shards are adopted; woken, it finds its leases taken and rejoins.
    c2.proc.kill('SIGSTOP');
    times.sigstop = await fairAmong([c1, c4], 'the shards of the frozen machine to be adopted', 60_000);
    c2.proc.kill('SIGCONT');
    times.sigcont = await fairAmong([c1, c2, c4], 'the woken machine to get a share again', 90_000);
    expect(c2.stderr.some((l) => l.includes('lost status shard'))).toBe(true);

    // 4. A partition (link down) past the TTL, then healed: it rejoins.
    m1.partition(true);
    times.partition = await fairAmong([c2, c4], 'the shards of the cut-off machine to be adopted', 60_000);
    m1.partition(false);
    times.healed = await fairAmong([c1, c2, c4], 'the healed machine to rejoin', 120_000);

    // 5. SIGTERM: it hands its shards over and leaves.
    c4.proc.kill('SIGTERM');
    expect(await c4.exited).toBe(0);
    times.sigterm = await fairAmong([c1, c2], 'the shards of the leaving machine to be taken', 60_000);

    // Nothing lost: every page of the web ends FETCHED.
    await until(
      async () => (await fetchedCount(client, names.status)) === WEB.length * PAGES,
      300_000,
      'every page of the web to end FETCHED',
    );
    console.log(`elastic faults: ms until fair again ${JSON.stringify(times)}`);
    // Shares back to fair after each change: a departure's leases expire first (the TTL), then a
    // round adopts them; a join waits for the holders' generations to drain. Generous ceilings (a
    // busy machine drains and starts crawls slowly); the figures are logged above and in RESULTS.md.
    for (const [change, ms] of Object.entries(times))
      expect(ms, change).toBeLessThan(
        ['sigkill', 'sigstop', 'partition'].includes(change) ? 3 * TTL_MS + 15_000 : 60_000,
      );
    // Polite across machines, by the web's own log (who asked: the machine's address).
    const byMachine = (r: { from: string }) => r.from;
    expect(fetchedTwiceWithin(site, DELAY_S * 1000, byMachine)).toEqual([]);
    expect(impoliteFetches(site, DELAY_S * 1000, byMachine)).toEqual([]);
    for (const h of WEB)
      for (let i = 0; i < PAGES; i++) expect(site.hosts.get(h)!.count(`/p${i}`)).toBeGreaterThan(0);
    // Fenced, by OpenSearch's side: no URL's state written by a machine while another held its shard.
    await timeline.stop();
    const writes = proxy!.writes;
    const shardOf = new Map<string, number>();
    for (const key of new Set(writes.flatMap((w) => (w.routing ? [w.routing] : [])))) {
      const res = await client.searchShards({ index: names.status, routing: key });
      shardOf.set(key, (res.body as { shards: { shard: number }[][] }).shards[0]![0]!.shard);
    }
    const pidAt = new Map([m1, m2, m3, m4].map((m, i) => [m.address, [c1, c2, c3, c4][i]!.proc.pid!]));
    const isMember = (address: string, member: string) =>
      new RegExp(`-${pidAt.get(address)}-[0-9a-f]+$`).test(member);
    const fencedOff = writesUnderAnotherLease(writes, timeline.readings, shardOf, isMember);
    console.log(
      `elastic faults: ${writes.length} status writes checked against ${timeline.readings.length} lease readings, ${fencedOff.length} under another member's lease`,
    );
    // One FETCHED write (an index op) per page at least: the check saw the crawl's writes (exactly
    // one each since a member refreshes the status index before a generation: no page fetched twice).
    expect(writes.length).toBeGreaterThanOrEqual(WEB.length * PAGES);
    expect(fencedOff).toEqual([]);
    for (const c of [c1, c2]) c.proc.kill('SIGTERM');
    expect(await c1.exited).toBe(0);
    expect(await c2.exited).toBe(0);
  }, 900_000);
});
