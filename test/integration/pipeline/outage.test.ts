import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli, spawnCrawler, until } from '../../support/child.js';
import { fastCrawlSettings, statusDocs, writeConf } from '../../support/crawl.js';
import { deleteIndices, opensearchUrl, uniqueIndexNames } from '../../support/opensearch.js';
import { page, robots, Site } from '../../support/site.js';
import { TcpProxy } from '../../support/tcp-proxy.js';

const site = new Site();
const HOSTS = ['127.0.6.1', '127.0.6.2', '127.0.6.3', '127.0.6.4'];
const PAGES = 40;
const created: string[] = [];
const proxies: TcpProxy[] = [];

beforeAll(async () => {
  buildCli();
  await site.start(HOSTS);
  for (const h of HOSTS) {
    site.route(h, '/robots.txt', robots('User-agent: *\nAllow: /\n'));
    for (let i = 0; i < PAGES; i++) site.route(h, `/p${i}`, page(`${h} ${i}`, [`/p${(i + 1) % PAGES}`]));
  }
}, 120_000);

afterAll(async () => {
  for (const p of proxies) await p.close();
  await site.close();
  await deleteIndices(...created);
});

/** A crawl of `hosts` whose OpenSearch is behind a proxy the test can cut. */
async function setup(label: string, hosts: readonly string[], extra: Record<string, unknown> = {}) {
  const names = uniqueIndexNames(label);
  created.push(names.status, names.content);
  const target = new URL(opensearchUrl());
  const proxy = new TcpProxy({ host: target.hostname, port: Number(target.port) });
  proxies.push(proxy);
  const proxied = await proxy.start();
  const conf = writeConf({
    ...fastCrawlSettings(names),
    'opensearch.addresses': proxied,
    'opensearch.connect.timeout': 2000,
    // Slow enough that the crawl is still going when the test cuts OpenSearch off.
    'fetcher.server.delay': 0.3,
    ...extra,
  });
  const seeds = conf.replace('crawl.yaml', 'seeds.txt');
  writeFileSync(seeds, hosts.map((h) => `${site.origin(h)}/p0`).join('\n'));
  const inject = spawnCrawler(['inject', seeds, '--conf', conf]);
  expect(await inject.exited).toBe(0);
  const requests = () => hosts.reduce((n, h) => n + site.hosts.get(h)!.requests.length, 0);
  return { names, conf, proxy, requests };
}

const json = (lines: readonly string[]) =>
  lines.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>);

describe('OpenSearch outages as an operator sees them', () => {
  it('an outage is one line when it starts and one when it ends, and progress lines say for how long', async () => {
    const hosts = HOSTS.slice(0, 2);
    const { names, conf, proxy, requests } = await setup('outage-log', hosts);
    const child = spawnCrawler(['run', '--once', '--conf', conf]);
    await until(() => requests() >= 6, 60_000, 'a few requests');
    proxy.cut();
    // Progress lines come every 10 s: wait for one that reports the outage.
    await until(
      () => json(child.stderr).some((l) => typeof l.opensearchUnreachableSec === 'number'),
      60_000,
      'a progress line during the outage',
    );
    proxy.restore();
    expect(await child.exited).toBe(0);
    const lines = json(child.stderr);
    const started = lines.filter((l) => String(l.msg).startsWith('OpenSearch cannot be reached'));
    const ended = lines.filter((l) => String(l.msg).startsWith('OpenSearch is back'));
    expect(started).toHaveLength(1);
    expect(ended).toHaveLength(1);
    expect(ended[0]!.seconds).toBeGreaterThanOrEqual(1);
    expect(ended[0]!.msg).toMatch(/^OpenSearch is back after \d+ s/);
    expect(lines.filter((l) => String(l.msg).startsWith('spout query failed'))).toEqual([]);
    const during = lines.find((l) => typeof l.opensearchUnreachableSec === 'number')!;
    expect(during.msg).toBe(`progress: OpenSearch unreachable for ${during.opensearchUnreachableSec} s`);
    // And nothing was lost: the crawl finished every page.
    const docs = await statusDocs(names.status);
    expect([...docs.values()].filter((d) => d.status !== 'FETCHED')).toEqual([]);
    expect(docs.size).toBe(hosts.length * PAGES);
  }, 150_000);

  it('SIGTERM while OpenSearch is down: exits after shutdown.deadline with 1 and one line of what was not written', async () => {
    const hosts = HOSTS.slice(2, 4);
    // One page answered only after the crawler has exited: a URL is surely in flight when the
    // signal comes (a chain crawl otherwise has moments with every update acknowledged and the next
    // URL not taken yet, and a SIGTERM then rightly exits 0).
    let answerHeld!: () => void;
    const held = new Promise<void>((resolve) => {
      answerHeld = resolve;
    });
    const answer = page(`${hosts[0]} 3`, ['/p4']);
    site.route(hosts[0]!, '/p3', (n, req, res) => void held.then(() => answer(n, req, res)));
    const { names, conf, proxy, requests } = await setup('outage-stop', hosts, { 'shutdown.deadline': '3s' });
    const child = spawnCrawler(['run', '--conf', conf]);
    const fetchingHeld = () => site.hosts.get(hosts[0]!)!.requests.some((r) => r.path === '/p3');
    await until(() => requests() >= 6 && fetchingHeld(), 60_000, 'a few requests, one of them held');
    proxy.cut();
    await until(
      () => child.stderr.some((l) => l.includes('OpenSearch cannot be reached')),
      60_000,
      'the outage to be noticed',
    );
    const signalled = Date.now();
    child.proc.kill('SIGTERM');
    const code = await child.exited;
    const took = Date.now() - signalled;
    answerHeld();
    expect(code).toBe(1);
    // The deadline plus closing (5 s at most), with room for a busy machine.
    expect(took).toBeLessThan(30_000);
    const lines = json(child.stderr);
    const deadline = lines.filter((l) => String(l.msg).startsWith('shutdown deadline reached'));
    expect(deadline).toHaveLength(1);
    expect(deadline[0]!.notWritten).toBeGreaterThan(0);
    expect(deadline[0]!.msg).toMatch(
      /^shutdown deadline reached: \d+ status updates of URLs in flight were not written \(those URLs keep their previous state and come back when due\)/,
    );
    // No line per update given up.
    expect(lines.filter((l) => /^(status update|content write) failed/.test(String(l.msg)))).toEqual([]);
    expect(child.stdout.at(-1)).toMatch(
      /; \d+ status updates not written \(those URLs keep their previous state/,
    );

    // Those URLs come back: with OpenSearch back, a --once run completes the crawl.
    proxy.restore();
    const again = spawnCrawler(['run', '--once', '--conf', conf]);
    expect(await again.exited).toBe(0);
    const docs = await statusDocs(names.status);
    expect([...docs.values()].filter((d) => d.status !== 'FETCHED')).toEqual([]);
    expect(docs.size).toBe(hosts.length * PAGES);
  }, 200_000);
});
