import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli, type Child, spawnCrawler, until } from '../../support/child.js';
import { contentDocs, fastCrawlSettings, statusDocs, writeConf } from '../../support/crawl.js';
import { deleteIndices, uniqueIndexNames } from '../../support/opensearch.js';
import { freePort } from '../../support/prometheus.js';
import { page, robots, Site } from '../../support/site.js';

// `crawler run --workers 2` against a status index of 4 shards: a supervisor and two worker
// processes, each crawling its half of the shards. Which worker fetched a page is read from the
// transition lines the supervisor passes on, tagged with the worker's number (a worker writes them
// to a pipe of their own; what the supervisor acts on comes over the IPC channel, not the lines).

const site = new Site();
const HOSTS = Array.from({ length: 16 }, (_, i) => `127.0.4.${i + 1}`);
const SLOW = Array.from({ length: 12 }, (_, i) => `127.0.5.${i + 1}`);
const PAGES = 6;
const created: string[] = [];
/** Requests being answered right now, by host, and the most there ever were at once. */
const answering = new Map<string, number>();
const mostAtOnce = new Map<string, number>();

/**
 * Pages /p0../p5 of each host link to the next two; /p5 of host h (of the first half) also links to
 * /p0 of host h+8, which is not seeded: those hosts are found only through another host's page,
 * maybe one of the other worker's.
 */
function linksOf(hosts: readonly string[], h: number, i: number): string[] {
  const own = [i + 1, i + 2].filter((k) => k < PAGES).map((k) => `/p${k}`);
  const half = hosts.length / 2;
  if (i === PAGES - 1 && h < half) own.push(`${site.origin(hosts[h + half]!)}/p0`);
  return own;
}

beforeAll(async () => {
  buildCli();
  await site.start([...HOSTS, ...SLOW]);
  for (const [h, host] of HOSTS.entries()) {
    site.route(host, '/robots.txt', robots('User-agent: *\nAllow: /\n'));
    for (let i = 0; i < PAGES; i++) site.route(host, `/p${i}`, page(`${host} ${i}`, linksOf(HOSTS, h, i)));
  }
  for (const [h, host] of SLOW.entries()) {
    site.route(host, '/robots.txt', robots('User-agent: *\nAllow: /\n'));
    for (let i = 0; i < PAGES; i++) {
      const answer = page(`${host} ${i}`, linksOf(SLOW, h, i));
      // 40 ms per page, counting how many requests of the host are being answered at once.
      site.route(host, `/p${i}`, (n, req, res) => {
        const now = (answering.get(host) ?? 0) + 1;
        answering.set(host, now);
        mostAtOnce.set(host, Math.max(mostAtOnce.get(host) ?? 0, now));
        res.on('close', () => answering.set(host, answering.get(host)! - 1));
        setTimeout(() => answer(n, req, res), 40);
      });
    }
  }
}, 120_000);

afterAll(async () => {
  await site.close();
  await deleteIndices(...created);
});

function setup(label: string, hosts: readonly string[]) {
  const names = uniqueIndexNames(label);
  created.push(names.status, names.content);
  const conf = writeConf({ ...fastCrawlSettings(names), 'opensearch.status.shards': 4 });
  // The hosts are IP addresses, each a "domain" of its own for HostURLFilter: keep the links across.
  const filters = JSON.parse(readFileSync(new URL('../../../conf/urlfilters.json', import.meta.url), 'utf8'));
  for (const f of filters['org.apache.stormcrawler.filtering.URLFilters']) {
    if (f.name === 'HostURLFilter') f.params.ignoreOutsideDomain = false;
  }
  const filterFile = join(dirname(conf), 'urlfilters.json');
  writeFileSync(filterFile, JSON.stringify(filters));
  const seeds = hosts.slice(0, hosts.length / 2).flatMap((h) => ['--seed', `${site.origin(h)}/p0`]);
  const all = hosts.flatMap((h) => Array.from({ length: PAGES }, (_, i) => `${site.origin(h)}/p${i}`));
  return { names, args: ['--conf', conf, '--set', `urlfilters.config.file=${filterFile}`], seeds, all };
}

/** The lines in which a process says it stops after a SIGTERM (draining, or before any fetch). */
const stopLines = (lines: readonly Record<string, unknown>[]) =>
  lines.filter((l) =>
    /^SIGTERM: (finishing fetches in flight|stopping as soon as the crawl is set up)/.test(String(l.msg)),
  );

/** `crawler run --once --workers 2` with the set-up's arguments and a `--set` for each of `entries`. */
const runWithSettings = (args: readonly string[], ...entries: string[]): Child =>
  spawnCrawler(['run', '--once', '--workers', '2', ...args, ...entries.flatMap((e) => ['--set', e])]);

/** The one-line failure of a command (log lines, written asynchronously, may come after it). */
const failure = (child: Child): string | undefined => child.stderr.find((l) => l.startsWith('crawler run:'));

type Line = Record<string, unknown>;
const json = (child: Child): Line[] =>
  child.stderr.flatMap((l) => {
    try {
      return [JSON.parse(l) as Line];
    } catch {
      return [];
    }
  });

/** URL -> the workers whose transition lines say they fetched it. */
function fetchedBy(lines: readonly Line[]): Map<string, number[]> {
  const by = new Map<string, number[]>();
  for (const l of lines) {
    if (l.event !== 'transition' || l.status !== 'FETCHED') continue;
    const url = String(l.url);
    by.set(url, [...(by.get(url) ?? []), l.worker as number]);
  }
  return by;
}

/** Host -> the workers that fetched its pages. */
function workersByHost(by: Map<string, number[]>): Map<string, Set<number>> {
  const hosts = new Map<string, Set<number>>();
  for (const [url, workers] of by) {
    const host = new URL(url).hostname;
    const set = hosts.get(host) ?? new Set<number>();
    for (const w of workers) set.add(w);
    hosts.set(host, set);
  }
  return hosts;
}

describe('crawler run --workers', () => {
  it('--once --workers 2 on 4 shards: every page fetched once, each host by one worker, one summary', async () => {
    const { names, args, seeds, all } = setup('workers', HOSTS);
    const child = spawnCrawler(['run', '--once', '--workers', '2', ...args, ...seeds]);
    expect(await child.exited).toBe(0);
    const lines = json(child);
    // Every page: FETCHED in the index, asked of its server once, fetched by one worker once.
    const docs = await statusDocs(names.status);
    expect(all.filter((u) => docs.get(u)?.status !== 'FETCHED')).toEqual([]);
    for (const h of HOSTS) {
      for (let i = 0; i < PAGES; i++) expect(site.hosts.get(h)!.count(`/p${i}`)).toBe(1);
    }
    const by = fetchedBy(lines);
    expect([...by.keys()].sort()).toEqual([...all].sort());
    expect([...by.values()].filter((w) => w.length !== 1)).toEqual([]);
    const hosts = workersByHost(by);
    expect([...hosts.values()].filter((w) => w.size !== 1)).toEqual([]);
    expect(new Set([...hosts.values()].flatMap((w) => [...w]))).toEqual(new Set([0, 1]));
    expect((await contentDocs(names.content)).size).toBe(all.length);
    // Each worker read its half of the shards.
    const shards = lines.filter((l) => typeof l.worker === 'number' && Array.isArray(l.shards));
    expect(new Set(shards.map((l) => JSON.stringify([l.worker, l.shards])))).toEqual(
      new Set([JSON.stringify([0, [0, 2]]), JSON.stringify([1, [1, 3]])]),
    );
    // One summary for the run: one stdout line, one untagged "crawl stopped" line with the totals.
    expect(child.stdout).toEqual([
      expect.stringMatching(
        new RegExp(`^fetched ${all.length} pages \\(2 workers\\); statuses \\{"FETCHED":${all.length}\\}`),
      ),
    ]);
    const stopped = lines.filter((l) => l.msg === 'crawl stopped');
    const own = stopped.filter((l) => l.worker === undefined);
    expect(own).toHaveLength(1);
    expect(own[0]).toMatchObject({ fetched: all.length, workers: 2, restarts: 0 });
    expect(stopped.filter((l) => l.worker !== undefined).map((l) => l.worker)).toEqual(
      expect.arrayContaining([0, 1]),
    );
    const perWorker = stopped.filter((l) => l.worker !== undefined).map((l) => l.fetched as number);
    expect(perWorker.reduce((a, b) => a + b, 0)).toBe(all.length);
    // Progress lines of the workers are summed into the supervisor's, not passed on.
    expect(lines.filter((l) => l.msg === 'progress' && l.worker !== undefined)).toEqual([]);
  }, 150_000);

  it('refuses more workers than the status shards allow, naming the key and the fix', async () => {
    const { args } = setup('too-many', HOSTS.slice(0, 2));
    const five = spawnCrawler(['run', '--once', '--workers', '5', ...args]);
    expect(await five.exited).toBe(3);
    expect(failure(five)).toMatch(
      /--workers 5 exceeds the 4 shards of the status index "[^"]+": each worker needs at least one shard \(raise opensearch.status.shards and run crawler init --recreate, or use fewer workers\)$/,
    );
    const both = spawnCrawler([
      'run',
      '--once',
      '--workers',
      '3',
      '--instances',
      '2',
      '--instance',
      '1',
      ...args,
    ]);
    expect(await both.exited).toBe(3);
    expect(failure(both)).toMatch(/--workers 3 x --instances 2 exceeds the 4 shards/);
    // A setting only the crawl reads is refused once, before any worker starts (not as workers dying).
    const codes = runWithSettings(args, 'warc.enabled=true', 'warc.status.codes=abc');
    expect(await codes.exited).toBe(2);
    expect(failure(codes)).toMatch(/key "warc.status.codes" has "abc": expected status codes such as 404/);
    const bad = spawnCrawler(['run', '--once', '--workers', 'two', ...args]);
    expect(await bad.exited).toBe(3);
    expect(failure(bad)).toBe(
      'crawler run: --workers must be a whole number of at least 1 or "auto", got "two"',
    );
  }, 60_000);

  it('a worker killed mid-crawl is started again; the crawl completes, no host fetched by two at once', async () => {
    const { names, args, seeds, all } = setup('kill-worker', SLOW);
    const child = spawnCrawler(['run', '--once', '--workers', '2', ...args, ...seeds]);
    // Wait until worker 0 has fetched a few pages and the crawl is far from done.
    await until(
      () => [...fetchedBy(json(child)).values()].filter((w) => w.includes(0)).length >= 3,
      60_000,
      'worker 0 to fetch pages',
    );
    const started = json(child).find(
      (l) => l.worker === undefined && /^worker 0 of 2 started/.test(String(l.msg)),
    );
    const pid = started?.workerPid as number;
    expect(pid).toBeGreaterThan(0);
    process.kill(pid, 'SIGKILL');
    expect(await child.exited).toBe(0);
    const lines = json(child);
    const own = lines.filter((l) => l.worker === undefined).map((l) => String(l.msg));
    expect(own).toContainEqual(
      expect.stringMatching(
        /^worker 0 was killed by SIGKILL after [\d.]+ s; starting it again in 1 s \(restart 1 in a row\)$/,
      ),
    );
    expect(own.filter((m) => /^worker 0 of 2 started/.test(m))).toHaveLength(2);
    const docs = await statusDocs(names.status);
    expect(all.filter((u) => docs.get(u)?.status !== 'FETCHED')).toEqual([]);
    // Each host by one worker (the restarted worker 0 has worker 0's share), and never two requests
    // of a host at once: two processes fetching one host would overlap.
    const hosts = workersByHost(fetchedBy(lines));
    expect(hosts.size).toBe(SLOW.length);
    expect([...hosts.values()].filter((w) => w.size !== 1)).toEqual([]);
    expect(Math.max(...SLOW.map((h) => mostAtOnce.get(h) ?? 0))).toBe(1);
    expect(lines.find((l) => l.msg === 'crawl stopped' && l.worker === undefined)).toMatchObject({
      restarts: 1,
    });
  }, 150_000);

  it('SIGTERM while the workers are still starting: each gets it once it listens, exit 0', async () => {
    // Sent as soon as the supervisor has spawned both: a worker process is still loading then, and
    // a signal it does not listen to yet would kill it (the supervisor then exited 1).
    const { args, seeds } = setup('sigterm-starting', SLOW);
    const child = spawnCrawler(['run', '--workers', '2', ...args, ...seeds]);
    const started = () => child.stderr.filter((l) => l.includes(' of 2 started (pid')).length;
    await until(() => started() === 2, 60_000, 'both workers spawned');
    child.proc.kill('SIGTERM');
    expect(await child.exited).toBe(0);
    const lines = json(child);
    // Each says it stops: before any fetch if the signal came while it was setting up its crawl.
    const drained = stopLines(lines);
    expect(new Set(drained.map((l) => l.worker))).toEqual(new Set([0, 1]));
    expect(lines.filter((l) => /was killed by|exited with code/.test(String(l.msg)))).toEqual([]);
    expect(child.stdout).toEqual([expect.stringMatching(/^fetched \d+ pages \(2 workers\)/)]);
  }, 120_000);

  it('SIGTERM to the supervisor: every worker finishes what it holds and writes it, one summary, exit 0', async () => {
    const { names, args, seeds } = setup('sigterm-workers', SLOW);
    // The hosts were crawled before (into other indices): only this crawl's requests count.
    const before = new Map(SLOW.map((h) => [h, site.hosts.get(h)!.requests.length]));
    const port = await freePort();
    const token = 'workers-console-token';
    const consoleArgs = ['--set', `console.port=${port}`, '--set', `console.token=${token}`];
    const child = spawnCrawler(['run', '--workers', '2', ...args, ...consoleArgs, ...seeds]);
    await until(() => fetchedBy(json(child)).size >= 6, 60_000, 'a few pages fetched');
    // The console's tail of transitions: what the workers report over their IPC channels.
    const tail = async () => {
      const res = await fetch(`http://127.0.0.1:${port}/api/state`, {
        headers: { authorization: `Bearer ${token}` },
      }).catch(() => undefined);
      if (res?.status !== 200) return [];
      return ((await res.json()) as { transitions: { url: string; to: string }[] }).transitions;
    };
    await until(
      async () => (await tail()).some((t) => t.to === 'FETCHED' && fetchedBy(json(child)).has(t.url)),
      30_000,
      "the workers' transitions on the console",
    );
    child.proc.kill('SIGTERM');
    expect(await child.exited).toBe(0);
    const lines = json(child);
    // A worker still setting up its crawl (a busy machine) says it stops before any fetch.
    const drained = stopLines(lines);
    expect(new Set(drained.map((l) => l.worker))).toEqual(new Set([0, 1]));
    expect(child.stdout).toEqual([expect.stringMatching(/^fetched \d+ pages \(2 workers\)/)]);
    // Every page a server answered was written back.
    const docs = await statusDocs(names.status);
    for (const h of SLOW) {
      const mine = site.hosts.get(h)!.requests.slice(before.get(h));
      for (const r of mine.filter((q) => q.path !== '/robots.txt')) {
        expect(docs.get(`${site.origin(h)}${r.path}`)?.status).toBe('FETCHED');
      }
    }
  }, 120_000);

  it('a bad setting is refused before any worker starts', async () => {
    const { args } = setup('bad-setting', HOSTS.slice(0, 2));
    const child = runWithSettings(args, 'fetcher.maxThreads.[=2');
    expect(await child.exited).toBe(2);
    expect(failure(child)).toMatch(/fetcher\.maxThreads\.\[: "\[" is not a valid regular expression/);
    expect(child.stderr.some((l) => l.includes('started (pid'))).toBe(false);
  }, 60_000);

  it('a worker that keeps dying stops the run: exit 3 with one line saying which and why', async () => {
    const { args } = setup('dying', HOSTS.slice(0, 2));
    // Loaded into every Node.js process of the run; only workers (which have CRAWLER_WORKER) die.
    const preload = join(mkdtempSync(join(tmpdir(), 'crawler-dying-')), 'die.cjs');
    writeFileSync(
      preload,
      "if (process.env.CRAWLER_WORKER) { process.stderr.write('cannot start: test says so\\n'); process.exit(7); }\n",
    );
    const child = spawnCrawler(['run', '--once', '--workers', '2', ...args], {
      NODE_OPTIONS: `--require ${preload}`,
    });
    expect(await child.exited).toBe(3);
    // Its one-line failure; the log lines before it may come after it (they are written asynchronously).
    expect(child.stderr.filter((l) => l.startsWith('crawler run:'))).toHaveLength(1);
    expect(failure(child)).toMatch(
      /^crawler run: worker [01] keeps dying: it exited with code 7, and again after each of 5 restarts within 60 s of their start \(last error: cannot start: test says so\); the other workers were stopped$/,
    );
    const restarts = json(child).filter((l) => /starting it again in/.test(String(l.msg)));
    expect(restarts.map((l) => l.restartInMs).filter((ms, i, all) => all.indexOf(ms) === i)).toEqual([
      1000, 2000, 4000, 8000, 16_000,
    ]);
  }, 120_000);
});
