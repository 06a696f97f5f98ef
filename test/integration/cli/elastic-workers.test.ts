import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
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
import { opensearchUrl, uniqueIndexNames } from '../../support/opensearch.js';
import {
  type LeaseReading,
  leaseTimeline,
  processOfPort,
  type RecordingProxy,
  recordingProxy,
  writesUnderAnotherLease,
} from '../../support/os-proxy.js';
import { Site } from '../../support/site.js';

// `crawler run --join --workers 2` (issue 45: "--workers N processes are members too"): each worker
// process is a member of the elastic crawl of its own. With a plain `--join` member beside it, the
// three share the status shards fairly; every page of the web ends FETCHED, each fetched once while
// the three live; no status write reaches OpenSearch under another member's lease (a proxy records
// each write and the process that sent it, from its socket). One worker SIGKILLed: its supervisor
// starts it again, the new process joins, the shares are fair again and nothing is lost. SIGTERM
// to the supervisor: its workers hand their shards over to the plain member and leave.
//
// As in elastic-kill, each host's pages are two chains, the second injected right before the kill,
// so that the killed worker's shards still have pages to crawl after it died.

const site = new Site();
const HOSTS = ['127.0.48.1', '127.0.48.2', '127.0.48.3', '127.0.48.4', '127.0.48.5', '127.0.48.6'];
const PAGES = 24;
/** The second chain of each host starts here. */
const SECOND = 12;
const SHARDS = 6;
const TTL_MS = 4000;
const DELAY_S = 0.2;
const names = uniqueIndexNames('elastic-workers');
const LEASES = `${names.status}-leases`;
const client = testClient();
const children: Child[] = [];
const workerPids = new Set<number>();
let proxy: RecordingProxy | undefined;

/** The processes whose parent is `pid` (a supervisor's workers). */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      // The command may hold spaces and parentheses: the fields after its last ")" are plain.
      const stat = readFileSync(`/proc/${e}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) out.push(Number(e));
    } catch {
      // Gone meanwhile.
    }
  }
  return out;
}

/** Worker w's latest pid, from the supervisor's log ("worker w of 2 started (pid P)"). */
function workerPid(supervisor: Child, w: number): number | undefined {
  let pid: number | undefined;
  for (const line of supervisor.stderr) {
    const m = new RegExp(`worker ${w} of 2 started \\(pid (\\d+)\\)`).exec(line);
    if (m) pid = Number(m[1]);
  }
  if (pid !== undefined) workerPids.add(pid);
  return pid;
}

beforeAll(async () => {
  buildCli();
  await site.start(HOSTS);
  routeChains(site, HOSTS, PAGES, 50);
  // The first chain ends at SECOND - 1: nothing links across.
  const firstEnds = (h: string, i: number) =>
    site.route(h, `/p${i}`, slowPage(`${h} ${i}`, i + 1 < SECOND ? [`/p${i + 1}`] : [], 50));
  for (const h of HOSTS) for (const i of [SECOND - 2, SECOND - 1]) firstEnds(h, i);
}, 120_000);

afterAll(async () => {
  for (const pid of workerPids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Exited already.
    }
  }
  await proxy?.close();
  await endMembers({ children, logPrefix: 'workers', site, client, names, leases: LEASES });
});

describe('crawler run --join --workers 2', () => {
  it('each worker is a member: fair shares of three, a SIGKILLed worker restarted and rejoining, nothing lost, fenced', async () => {
    const opensearchPort = Number(new URL(opensearchUrl()).port);
    let a: Child | undefined;
    let b: Child | undefined;
    // The plain member, the supervisor (it writes the seeds) and its workers.
    const candidates = () => [
      ...(b ? [b.proc.pid!] : []),
      ...(a ? [a.proc.pid!, ...childrenOf(a.proc.pid!)] : []),
    ];
    proxy = await recordingProxy({ host: '127.0.0.1', port: 0 }, opensearchPort, names.status, (port) =>
      processOfPort(port, proxy?.port ?? 0, candidates),
    );
    const settings = memberSettings(names, {
      shards: SHARDS,
      leases: LEASES,
      ttlMs: TTL_MS,
      delayS: DELAY_S,
      agent: 'workersbot',
    });
    // The members reach OpenSearch through the proxy; the test's own `inject` does not.
    const conf = writeConf({ ...settings, 'opensearch.addresses': `http://127.0.0.1:${proxy.port}` });
    const direct = writeConf(settings);
    const started = Date.now();
    const timeline = leaseTimeline(client, LEASES, names.status, SHARDS, 200);
    const seeds = HOSTS.flatMap((h) => ['--seed', `${site.origin(h)}/p0`]);
    a = spawnCrawler(['run', '--join', '--workers', '2', '--conf', conf, ...seeds]);
    b = spawnCrawler(['run', '--join', '--conf', conf]);
    children.push(a, b);
    const sup = a;
    const plain = b.proc.pid!;
    await until(
      () => workerPid(sup, 0) !== undefined && workerPid(sup, 1) !== undefined,
      120_000,
      'two workers',
    );
    const [w0, w1] = [workerPid(sup, 0)!, workerPid(sup, 1)!];
    await until(
      async () => fair(await holders(client, LEASES, names.status, SHARDS), [w0, w1, plain]),
      120_000,
      'fair shares of three members: two workers and a plain member',
    );
    // Names tell the machine and the worker apart.
    const held = await holders(client, LEASES, names.status, SHARDS);
    const host = hostname();
    expect(held.filter((h) => h?.includes(`${host}-w0-${w0}-`)).length).toBe(2);
    expect(held.filter((h) => h?.includes(`${host}-w1-${w1}-`)).length).toBe(2);
    expect(held.filter((h) => h?.includes(`${host}-${plain}-`)).length).toBe(2);

    const more = join(tmpdir(), `elastic-workers-${process.pid}.txt`);
    writeFileSync(more, HOSTS.map((h) => `${site.origin(h)}/p${SECOND}\n`).join(''));
    const inject = spawnCrawler(['inject', more, '--conf', direct]);
    expect(await inject.exited).toBe(0);
    await until(
      () => HOSTS.every((h) => site.hosts.get(h)!.count(`/p${SECOND}`) > 0),
      120_000,
      'every second chain started',
    );
    // Each page fetched once while all three lived (handovers at join included).
    for (const h of HOSTS)
      for (let i = 0; i < PAGES; i++) expect(site.hosts.get(h)!.count(`/p${i}`)).toBeLessThanOrEqual(1);
    expect(await fetchedCount(client, names.status)).toBeLessThan(HOSTS.length * PAGES);

    // SIGKILL one worker: the supervisor starts it again; the new process joins.
    const killedShards = (await holders(client, LEASES, names.status, SHARDS)).flatMap((h, s) =>
      h?.includes(`-w1-${w1}-`) ? [s] : [],
    );
    expect(killedShards.length).toBeGreaterThan(0);
    process.kill(w1, 'SIGKILL');
    const killAt = Date.now();
    await until(() => (workerPid(sup, 1) ?? w1) !== w1, 30_000, 'worker 1 started again');
    const w1again = workerPid(sup, 1)!;
    const restartSeenAt = Date.now();
    await until(
      async () => fair(await holders(client, LEASES, names.status, SHARDS), [w0, w1again, plain]),
      120_000,
      'fair shares of the three members again, the restarted worker among them',
    );
    const fairAgainMs = Date.now() - killAt;
    const restartedMs = restartSeenAt - killAt;
    await until(
      async () => (await fetchedCount(client, names.status)) === HOSTS.length * PAGES,
      180_000,
      'every page of the web to end FETCHED',
    );
    // Nothing lost; a page fetched twice only if the killed worker had it in flight.
    const shardOfHost = new Map<string, number>();
    for (const h of HOSTS) {
      const res = await client.searchShards({ index: names.status, routing: h });
      shardOfHost.set(h, (res.body as { shards: { shard: number }[][] }).shards[0]![0]!.shard);
    }
    for (const h of HOSTS) {
      for (let i = 0; i < PAGES; i++) {
        const n = site.hosts.get(h)!.count(`/p${i}`);
        expect(n, `${h}/p${i}`).toBeGreaterThan(0);
        if (n > 1) expect(killedShards, `${h}/p${i} fetched ${n} times`).toContain(shardOfHost.get(h));
      }
    }
    expect(impoliteFetches(site, DELAY_S * 1000)).toEqual([]);

    // SIGTERM to the supervisor: each worker hands its shards over and leaves; the plain member
    // holds them all.
    sup.proc.kill('SIGTERM');
    expect(await sup.exited).toBe(0);
    expect(sup.stdout.join('\n')).toMatch(/fetched \d+ pages \(2 workers\)/);
    await until(
      async () => fair(await holders(client, LEASES, names.status, SHARDS), [plain]),
      30_000,
      'the plain member to hold every shard',
    );
    // A supervisor whose workers the crawl refuses (another crawl setting than the live member's)
    // starts none of them again: exit 3, naming the keys.
    const other = writeConf({ ...settings, 'fetcher.server.delay': 2 });
    const refused = spawnCrawler(['run', '--join', '--workers', '2', '--conf', other]);
    children.push(refused);
    expect(await refused.exited).toBe(3);
    const said = refused.stderr.join('\n');
    expect(said).toMatch(
      /worker [01] was refused as a member of the crawl: .*Keys that differ: fetcher\.server\.delay/,
    );
    expect(said).not.toMatch(/starting it again/);
    b.proc.kill('SIGTERM');
    expect(await b.exited).toBe(0);
    await timeline.stop();

    // The fence: no status write reached OpenSearch while another member held its shard.
    const writes = proxy.writes;
    const shardOf = new Map<string, number>();
    for (const key of new Set(writes.flatMap((w) => (w.routing ? [w.routing] : [])))) {
      const res = await client.searchShards({ index: names.status, routing: key });
      shardOf.set(key, (res.body as { shards: { shard: number }[][] }).shards[0]![0]!.shard);
    }
    const isMember = (pid: string, member: string) => new RegExp(`-${pid}-[0-9a-f]+$`).test(member);
    const readings: LeaseReading[] = timeline.readings;
    expect(writes.filter((w) => w.from === 'unknown')).toEqual([]);
    // One FETCHED write (an index op) per page at least: the check saw the crawl's writes.
    expect(writes.length).toBeGreaterThanOrEqual(HOSTS.length * PAGES);
    const fencedOff = writesUnderAnotherLease(writes, readings, shardOf, isMember);
    console.log(
      `elastic workers: worker 1 started again ${restartedMs} ms after its SIGKILL, shares fair again after ` +
        `${fairAgainMs} ms (TTL ${TTL_MS} ms); ${writes.length} status ` +
        `writes checked against ${readings.length} lease readings, ${fencedOff.length} under another member's ` +
        `lease; ${Date.now() - started} ms in all`,
    );
    expect(fencedOff).toEqual([]);
  }, 480_000);
});
