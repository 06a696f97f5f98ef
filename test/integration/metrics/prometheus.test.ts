import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/run.js';
import { buildCli, spawnCrawler, until } from '../../support/child.js';
import { fastCrawlSettings, writeConf } from '../../support/crawl.js';
import { deleteIndices, uniqueIndexNames } from '../../support/opensearch.js';
import { freePort, labelValues, parsePrometheus, type Scrape } from '../../support/prometheus.js';
import { page, robots, Site } from '../../support/site.js';

// GET /metrics during a crawl: the Prometheus text format, counters that grow, labels that never
// carry a URL or a host; under --workers the supervisor serves the sum, and a worker killed and
// started again never makes a counter go down.

const site = new Site();
const HOSTS = Array.from({ length: 8 }, (_, i) => `127.0.7.${i + 1}`);
const PAGES = 60;
const TOKEN = 'prometheus-test-token';
const created: string[] = [];

beforeAll(async () => {
  buildCli();
  await site.start(HOSTS);
  for (const host of HOSTS) {
    site.route(host, '/robots.txt', robots('User-agent: *\nAllow: /\n'));
    for (let i = 0; i < PAGES; i++) {
      const answer = page(`${host} ${i}`, [`/p${i + 1}`, `/p${i + 2}`, '/gone']);
      // Slow pages: the crawl lasts long enough to be scraped several times.
      site.route(host, `/p${i}`, (n, req, res) => setTimeout(() => answer(n, req, res), 60));
    }
  }
}, 120_000);

afterAll(async () => {
  await site.close();
  await deleteIndices(...created);
});

function settings(label: string, port: number, shards = 2) {
  const names = uniqueIndexNames(label);
  created.push(names.status, names.content, `${names.status}-m-*`);
  return {
    ...fastCrawlSettings(names),
    // A busy machine answers loopback pages slowly: no page may time out.
    'http.timeout': 30_000,
    'opensearch.status.shards': shards,
    'opensearch.metrics.index.name': `${names.status}-m`,
    'console.port': port,
    'console.token': TOKEN,
  };
}

async function scrape(
  port: number,
  token: string | undefined = TOKEN,
): Promise<{ status: number; text: string; type: string }> {
  const res = await fetch(`http://127.0.0.1:${port}/metrics`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  return { status: res.status, text: await res.text(), type: res.headers.get('content-type') ?? '' };
}

/** Every counter sample (counters, and a histogram's buckets, sums and counts) of `s`. */
function counters(s: Scrape): Map<string, number> {
  const out = new Map<string, number>();
  for (const [k, v] of s.samples) {
    const family = k.replace(/\{.*$/, '').replace(/_(bucket|sum|count)$/, '');
    const type = s.types.get(family) ?? s.types.get(k.replace(/\{.*$/, ''));
    if (k.startsWith('crawler_') && (type === 'counter' || type === 'histogram')) out.set(k, v);
  }
  return out;
}

const REQUIRED = [
  'crawler_pages_fetched_total',
  'crawler_fetched_bytes_total',
  'crawler_status_updates_total',
  'crawler_errors_total',
  'crawler_deferred_total',
  'crawler_fetch_duration_seconds',
  'crawler_opensearch_bulk_duration_seconds',
  'crawler_spout_query_duration_seconds',
  'crawler_fetch_queue_urls',
  'crawler_fetches_in_flight',
  'crawler_hosts',
  'crawler_opensearch_up',
  'process_cpu_seconds_total',
  'process_resident_memory_bytes',
  'nodejs_eventloop_lag_p99_seconds',
];

function checkLabels(s: Scrape): void {
  for (const v of labelValues(s)) {
    expect(v, 'a label value').not.toMatch(/https?:|127\.0\.7\.|\//);
  }
}

describe('GET /metrics', () => {
  it('during a crawl: the Prometheus text format, counters that grow, no URL or host in any label', async () => {
    const port = await freePort();
    const conf = writeConf(settings('prom', port));
    const seeds = HOSTS.slice(0, 4).flatMap((h) => ['--seed', `${site.origin(h)}/p0`]);
    const run = main(['run', '--conf', conf, ...seeds, '--log-level', 'silent'], {
      out: () => {},
      err: () => {},
    });
    let ended = false;
    void run.finally(() => {
      ended = true;
    });
    try {
      let first: Scrape | undefined;
      await until(
        async () => {
          const r = await scrape(port).catch(() => undefined);
          if (r?.status !== 200) return false;
          const s = parsePrometheus(r.text);
          first ??= (s.samples.get('crawler_pages_fetched_total') ?? 0) > 0 ? s : undefined;
          return first !== undefined;
        },
        60_000,
        'a scrape with pages fetched',
      );
      let last = first!;
      await until(
        async () => {
          last = parsePrometheus((await scrape(port)).text);
          return (
            last.samples.get('crawler_pages_fetched_total')! >
            first!.samples.get('crawler_pages_fetched_total')!
          );
        },
        60_000,
        'crawler_pages_fetched_total to grow',
      );
      const r = await scrape(port);
      expect(r.type).toMatch(/^text\/plain; version=0\.0\.4/);
      const s = parsePrometheus(r.text);
      for (const name of REQUIRED) expect(s.types.has(name), name).toBe(true);
      expect(s.types.get('crawler_pages_fetched_total')).toBe('counter');
      expect(s.types.get('crawler_fetch_duration_seconds')).toBe('histogram');
      expect(s.samples.get('crawler_opensearch_up')).toBe(1);
      expect(s.samples.get('crawler_fetched_bytes_total')).toBeGreaterThan(0);
      expect(s.samples.get('crawler_http_responses_total{class="2xx"}')).toBeGreaterThan(0);
      for (const [k, v] of counters(first!)) expect(s.samples.get(k) ?? 0, k).toBeGreaterThanOrEqual(v);
      checkLabels(s);
      // The token is needed, as a Bearer header here.
      expect((await scrape(port, '')).status).toBe(401);
      expect((await scrape(port, 'wrong-token')).status).toBe(401);
    } finally {
      // The crawl stops as on Ctrl-C (its handler is installed while it runs).
      if (!ended) process.kill(process.pid, 'SIGTERM');
      expect(await run).toBe(0);
    }
  }, 180_000);

  it('under --workers 2: the sum of the workers, monotonic across a worker killed and started again', async () => {
    const port = await freePort();
    const conf = writeConf(settings('promw', port, 4));
    // The hosts are IP addresses, each a "domain" of its own for HostURLFilter: nothing to change.
    const seeds = HOSTS.flatMap((h) => ['--seed', `${site.origin(h)}/p0`]);
    const child = spawnCrawler(['run', '--workers', '2', '--conf', conf, ...seeds]);
    const scrapes: Scrape[] = [];
    /** Scrapes that were not the text format. */
    const bad: string[] = [];
    let scraping = true;
    const loop = (async () => {
      while (scraping) {
        const r = await scrape(port).catch(() => undefined);
        if (r?.status === 200) {
          try {
            scrapes.push(parsePrometheus(r.text));
          } catch (e) {
            bad.push(String(e));
          }
        }
        await new Promise((resolve) => setTimeout(resolve, 150));
      }
    })();
    try {
      const pidOf = (w: number) => {
        for (const l of child.stderr) {
          const m = new RegExp(`"workerPid":(\\d+).*worker ${w} of 2 started`).exec(l);
          if (m) return Number(m[1]);
        }
        return undefined;
      };
      await until(
        () => (scrapes.at(-1)?.samples.get('crawler_worker_pages_fetched_total{worker="1"}') ?? 0) > 5,
        90_000,
        'worker 1 fetching',
      );
      const victim = pidOf(1)!;
      const before = scrapes.at(-1)!.samples.get('crawler_worker_pages_fetched_total{worker="1"}')!;
      expect(before).toBeGreaterThan(0);
      process.kill(victim, 'SIGKILL');
      // Started again (after 1 s), reporting and fetching: its pages count on from the first process's.
      const w1 = (x: Scrape | undefined) =>
        x?.samples.get('crawler_worker_pages_fetched_total{worker="1"}') ?? 0;
      await until(
        () => scrapes.at(-1)?.samples.get('crawler_worker_restarts_total{worker="1"}') === 1,
        60_000,
        'the restart of worker 1',
      );
      const atRestart = w1(scrapes.at(-1));
      await until(
        () => {
          const s = scrapes.at(-1);
          return s?.samples.has('process_resident_memory_bytes{worker="1"}') === true && w1(s) > atRestart;
        },
        90_000,
        'worker 1 reporting and fetching again',
      );
    } finally {
      scraping = false;
      child.proc.kill('SIGTERM');
      await child.exited;
      await loop;
    }
    expect(bad).toEqual([]);
    expect(scrapes.length).toBeGreaterThan(10);
    for (let i = 1; i < scrapes.length; i++) {
      const prev = counters(scrapes[i - 1]!);
      const now = counters(scrapes[i]!);
      for (const [k, v] of prev) expect(now.get(k) ?? 0, `${k} at scrape ${i}`).toBeGreaterThanOrEqual(v);
    }
    const last = scrapes.at(-1)!;
    for (const name of REQUIRED) expect(last.types.has(name), name).toBe(true);
    // The workers' process metrics, by worker.
    const rss = [...last.samples.keys()].filter((k) => k.startsWith('process_resident_memory_bytes'));
    expect(rss).toEqual(
      expect.arrayContaining([
        'process_resident_memory_bytes{worker="0"}',
        'process_resident_memory_bytes{worker="1"}',
      ]),
    );
    checkLabels(last);
  }, 240_000);
});
