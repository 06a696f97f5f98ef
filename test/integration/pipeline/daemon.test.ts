import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentId } from '../../../src/opensearch/status-doc.js';
import { buildCli, type Child, spawnCrawler, until } from '../../support/child.js';
import { contentDocs, fastCrawlSettings, statusDocs, testClient, writeConf } from '../../support/crawl.js';
import { deleteIndices, opensearchUrl, uniqueIndexNames } from '../../support/opensearch.js';
import { page, robots, Site } from '../../support/site.js';
import { TcpProxy } from '../../support/tcp-proxy.js';

const site = new Site();
const HOSTS = Array.from({ length: 18 }, (_, i) => `127.0.1.${i + 1}`);
const PAGES = 12;
const created: string[] = [];

/** Every host has pages /p0../p11, each linking to the next two: a crawl of a few rounds per host. */
beforeAll(async () => {
  buildCli();
  await site.start(HOSTS);
  for (const h of HOSTS) {
    site.route(h, '/robots.txt', robots('User-agent: *\nAllow: /\n'));
    for (let i = 0; i < PAGES; i++) {
      site.route(h, `/p${i}`, page(`${h} page ${i}`, [`/p${(i + 1) % PAGES}`, `/p${(i + 2) % PAGES}`]));
    }
  }
}, 120_000);

afterAll(async () => {
  await site.close();
  await deleteIndices(...created);
});

function crawlSetup(label: string, hosts: readonly string[], extra: Record<string, unknown> = {}) {
  const names = uniqueIndexNames(label);
  created.push(names.status, names.content);
  const settings = { ...fastCrawlSettings(names), 'fetcher.server.delay': 0.2, ...extra };
  const conf = writeConf(settings);
  const seeds = conf.replace('crawl.yaml', 'seeds.txt');
  writeFileSync(seeds, hosts.map((h) => `${site.origin(h)}/p0`).join('\n'));
  const all = hosts.flatMap((h) => Array.from({ length: PAGES }, (_, i) => `${site.origin(h)}/p${i}`));
  return { names, conf, seeds, all };
}

/**
 * Resolves at the request that brings the hosts' requests (robots.txt included) to `n`, after
 * calling `act` right there, before that request is answered: the crawl is then exactly that far.
 */
function atRequest(hosts: readonly string[], n: number, act: () => void): Promise<void> {
  const count = () => hosts.reduce((k, h) => k + site.hosts.get(h)!.requests.length, 0);
  return new Promise((resolve) => {
    const off = site.onRequest((host) => {
      if (!hosts.includes(host) || count() < n) return;
      off();
      act();
      resolve();
    });
  });
}

async function inject(conf: string, seeds: string): Promise<void> {
  const c = spawnCrawler(['inject', seeds, '--conf', conf]);
  expect(await c.exited).toBe(0);
}

/** Every page FETCHED once in the status index and present once, under its own id, in the content index. */
async function expectCompleteCrawl(names: { status: string; content: string }, all: readonly string[]) {
  const docs = await statusDocs(names.status);
  const notFetched = all.filter((u) => docs.get(u)?.status !== 'FETCHED');
  expect(notFetched).toEqual([]);
  expect(docs.size).toBe(all.length);
  const content = await contentDocs(names.content);
  expect(content.size).toBe(all.length);
  for (const u of all) expect(content.get(documentId(u))?.url).toBe(u);
}

describe('the crawler daemon as a process', () => {
  it('SIGKILL mid-crawl, then a restart: no URL lost or stuck in flight, every page indexed once', async () => {
    const hosts = HOSTS.slice(0, 3);
    const { names, conf, seeds, all } = crawlSetup('kill', hosts);
    await inject(conf, seeds);
    let first: Child | undefined;
    const killed = atRequest(hosts, 12, () => first!.proc.kill('SIGKILL'));
    first = spawnCrawler(['run', '--conf', conf]);
    await killed;
    expect(await first.exited).toBe(null);
    const docs = await statusDocs(names.status);
    expect([...docs.values()].some((d) => d.status !== 'FETCHED')).toBe(true);

    const second = spawnCrawler(['run', '--once', '--conf', conf]);
    expect(await second.exited).toBe(0);
    await expectCompleteCrawl(names, all);
  }, 150_000);

  it('SIGTERM stops taking URLs, finishes what is in flight, writes everything and exits 0', async () => {
    const hosts = HOSTS.slice(16, 18);
    const { names, conf, seeds } = crawlSetup('sigterm', hosts);
    await inject(conf, seeds);
    let child: Child | undefined;
    const stopped = atRequest(hosts, 6, () => child!.proc.kill('SIGTERM'));
    child = spawnCrawler(['run', '--conf', conf]);
    await stopped;
    expect(await child.exited).toBe(0);
    expect(child.stderr.some((l) => l.includes('SIGTERM: finishing fetches in flight'))).toBe(true);
    expect(child.stdout.at(-1)).toMatch(/^fetched \d+ pages/);
    // Every page the servers answered was written back: nothing fetched is left unrecorded.
    const docs = await statusDocs(names.status);
    for (const h of hosts) {
      for (const r of site.hosts.get(h)!.requests.filter((q) => q.path !== '/robots.txt')) {
        expect(docs.get(`${site.origin(h)}${r.path}`)?.status).toBe('FETCHED');
      }
    }
  }, 60_000);

  it('OpenSearch cut off for 30 s mid-crawl: the daemon waits, resumes, loses no update, RSS stays bounded', async () => {
    const hosts = HOSTS.slice(3, 6);
    const target = new URL(opensearchUrl());
    const proxy = new TcpProxy({ host: target.hostname, port: Number(target.port) });
    const proxied = await proxy.start();
    const { names, conf, seeds, all } = crawlSetup('outage', hosts, {
      'opensearch.addresses': proxied,
      'opensearch.connect.timeout': 2000,
    });
    await inject(conf, seeds);
    let cutAt = 0;
    const cut = atRequest(hosts, 9, () => {
      proxy.cut();
      cutAt = Date.now();
    });
    const child = spawnCrawler(['run', '--once', '--conf', conf]);
    const stop = child.sampleRss();
    await cut;
    await until(
      () => child.stderr.some((l) => l.includes('OpenSearch cannot be reached')),
      60_000,
      'the daemon to notice the outage',
    );
    // The outage lasts 30 s in all: a duration of the scenario, not a wait for something to happen.
    await new Promise((r) => setTimeout(r, Math.max(0, 30_000 - (Date.now() - cutAt))));
    proxy.restore();
    expect(await child.exited).toBe(0);
    stop();
    await proxy.close();
    expect(child.stderr.some((l) => l.includes('OpenSearch cannot be reached'))).toBe(true);
    expect(child.stderr.some((l) => l.includes('OpenSearch is back'))).toBe(true);
    await expectCompleteCrawl(names, all);
    // The bound stated in the README: a crawl process stays under 300 MB.
    expect(child.peakRss).toBeLessThan(300 * 1024 * 1024);
  }, 150_000);

  it('two instances on a 2-shard status index crawl disjoint hosts and together finish the crawl', async () => {
    const hosts = HOSTS.slice(6, 16);
    const { names, conf, seeds, all } = crawlSetup('instances', hosts, {
      'opensearch.status.shards': 2,
      'fetcher.server.delay': 0.05,
    });
    await inject(conf, seeds);
    const children = [0, 1].map((i) =>
      spawnCrawler([
        'run',
        '--once',
        '--conf',
        conf,
        '--instances',
        '2',
        '--instance',
        String(i),
        '--set',
        `http.agent.version=i${i}`,
      ]),
    );
    expect(await Promise.all(children.map((c) => c.exited))).toEqual([0, 0]);
    const agentsByHost = hosts.map(
      (h) =>
        new Set(
          site.hosts
            .get(h)!
            .requests.filter((r) => r.path !== '/robots.txt')
            .map((r) => r.userAgent),
        ),
    );
    // Each host was crawled by exactly one instance, and both instances crawled.
    expect(agentsByHost.every((s) => s.size === 1)).toBe(true);
    const used = new Set(agentsByHost.flatMap((s) => [...s]));
    expect(used).toEqual(new Set(['endtoendbot/i0', 'endtoendbot/i1']));
    await expectCompleteCrawl(names, all);
    const tooMany = spawnCrawler(['run', '--once', '--conf', conf, '--instances', '3', '--instance', '0']);
    expect(await tooMany.exited).toBe(3);
    expect(tooMany.stderr.join('\n')).toMatch(/--instances 3 exceeds the 2 shards of the status index/);
  }, 150_000);

  it('a 100,000-URL seed file injects in constant memory and reports bad lines with their numbers', async () => {
    // Each URL line follows a 600-byte comment line, so the file (65 MB) is far larger than what a
    // streaming inject holds. The million-line run is in the benchmark (scripts/bench/inject.mjs).
    const pad = '# a comment line that a seeds file may carry: skipped, but read'.padEnd(600, '.');
    async function injectFile(label: string, urls: number, bad: Record<number, string> = {}) {
      const names = uniqueIndexNames(label);
      created.push(names.status, names.content);
      const conf = writeConf({
        ...fastCrawlSettings(names),
        'opensearch.status.bulkActions': 2000,
        'status.transitions.log': false,
        // The DISCOVERED cache holds up to maximumSize URLs by design: kept small so that all that
        // could grow with the file is what must not.
        'status.updater.cache.spec': 'maximumSize=1000',
      });
      const seeds = conf.replace('crawl.yaml', 'seeds.txt');
      const lines: string[] = [];
      for (let i = 1; i <= 2 * urls; i++) {
        if (i % 2 === 1) lines.push(`${pad} ${i}`);
        else lines.push(bad[i] ?? `http://h${i % 10_000}.example.com/page/${i}\tsource=file`);
      }
      writeFileSync(seeds, `${lines.join('\n')}\n`);
      // A 64 MB heap, so the garbage collector must run; the lines alone would not fit in it.
      const child = spawnCrawler(['inject', seeds, '--conf', conf], {
        NODE_OPTIONS: '--max-old-space-size=64',
      });
      const stop = child.sampleRss();
      const code = await child.exited;
      stop();
      return { names, child, code };
    }

    const small = await injectFile('inject10k', 10_000);
    expect(small.code).toBe(0);
    const big = await injectFile('inject100k', 100_000, {
      10: 'not a url at all',
      150000: 'ftp://files.example.com/x',
    });
    expect(big.code).toBe(0);
    expect(big.child.stdout.at(-1)).toMatch(
      /: 200000 lines, 99998 URLs: 99998 new, 0 known already, 0 not written; 2 bad lines, 100000 blank or comments$/,
    );
    const problems = big.child.stderr
      .filter((l) => l.includes('"line"'))
      .map((l) => JSON.parse(l) as { line: number });
    expect(problems.map((p) => p.line)).toEqual([10, 150_000]);
    const client = testClient();
    await client.indices.refresh({ index: big.names.status });
    expect((await client.count({ index: big.names.status })).body.count).toBe(99_998);
    await client.close();
    // Ten times the file, a few MB more at the peak. Holding the file or its lines (65 MB), or an
    // unacknowledged write per URL (~140 MB for 100,000), would exceed 40 MB or the heap.
    const growth = big.child.peakRss - small.child.peakRss;
    console.info(
      `inject peak RSS: ${(small.child.peakRss / 2 ** 20).toFixed(0)} MB for 10,000 URLs, ` +
        `${(big.child.peakRss / 2 ** 20).toFixed(0)} MB for 100,000`,
    );
    expect(small.child.peakRss).toBeGreaterThan(0);
    expect(growth).toBeLessThan(40 * 1024 * 1024);
  }, 150_000);
});
