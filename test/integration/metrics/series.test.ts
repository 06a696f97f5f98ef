import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawler, fastCrawlSettings, testClient, writeConf } from '../../support/crawl.js';
import { deleteIndices, uniqueIndexNames } from '../../support/opensearch.js';
import { page, robots, Site } from '../../support/site.js';

// A crawl writes its metrics series into daily indices in StormCrawler's document shape; the last
// interval is written at stop, so the increments of fetcher_counter.fetched add up to the pages
// fetched. The crawler itself deletes daily indices older than metrics.retention.days.

const site = new Site();
const HOSTS = ['127.0.6.1', '127.0.6.2'];
const PAGES = 20;
const names = uniqueIndexNames('series');
/** The crawl's name in its metrics points: its status index. */
const crawlName = names.status;
const metricsBase = `${names.status.replace(/-status$/, '')}-metrics`;

beforeAll(async () => {
  await site.start(HOSTS);
  for (const host of HOSTS) {
    site.route(host, '/robots.txt', robots('User-agent: *\nAllow: /\n'));
    for (let i = 0; i < PAGES; i++) {
      const links = [`/p${i + 1}`, `/p${i + 2}`].filter((_, k) => i + k + 1 < PAGES);
      site.route(host, `/p${i}`, page(`${host} ${i}`, [...links, '/missing']));
    }
  }
  // An index of the series from long ago, and one that only looks like it.
  const client = testClient();
  try {
    await client.indices.create({ index: `${metricsBase}-2000-01-01` });
    await client.indices.create({ index: `${metricsBase}-keep` });
  } finally {
    await client.close();
  }
}, 60_000);

afterAll(async () => {
  await site.close();
  await deleteIndices(names.status, names.content, `${metricsBase}-*`);
});

interface Doc {
  name: string;
  value: number;
  timestamp: string;
  srcComponentId: string;
  srcTaskId: number;
  srcWorkerHost: string;
  instance: number;
  worker: number;
}

describe('the metrics series', () => {
  it('holds StormCrawler-shaped points whose fetcher_counter.fetched sums to the pages fetched; old indices are deleted', async () => {
    const conf = writeConf({
      ...fastCrawlSettings(names),
      // A busy machine answers loopback pages slowly: no page may time out.
      'http.timeout': 30_000,
      'opensearch.metrics.index.name': metricsBase,
      'metrics.interval': '1s',
      'metrics.retention.days': 7,
    });
    const seeds = HOSTS.flatMap((h) => ['--seed', `${site.origin(h)}/p0`]);
    const run = await crawler('run', '--once', '--conf', conf, ...seeds);
    expect(run.code, run.err.join('\n')).toBe(0);
    const fetched = Number(/^fetched (\d+) pages/.exec(run.out.at(-1) ?? '')?.[1]);
    // Each page at least once (a page may come round again under load: spout.ttl.purgatory is 2 s).
    expect(fetched, run.out.join('\n')).toBeGreaterThanOrEqual(HOSTS.length * PAGES);

    const client = testClient();
    try {
      await client.indices.refresh({ index: `${metricsBase}-*` });
      const indices = (
        await client.cat.indices({ index: `${metricsBase}-*`, format: 'json', h: 'index' } as never)
      ).body as unknown as { index: string }[];
      const today = new Date().toISOString().slice(0, 10);
      const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
      const names = indices.map((i) => i.index).sort();
      expect(names).not.toContain(`${metricsBase}-2000-01-01`);
      expect(names).toContain(`${metricsBase}-keep`);
      expect(names.some((n) => n === `${metricsBase}-${today}` || n === `${metricsBase}-${yesterday}`)).toBe(
        true,
      );

      const res = await client.search({
        index: `${metricsBase}-2*`,
        body: { size: 5000, query: { match_all: {} } } as never,
      });
      const docs = (res.body.hits.hits as { _source: Doc }[]).map((h) => h._source);
      for (const d of docs) {
        expect(Object.keys(d).sort()).toEqual([
          'crawl',
          'instance',
          'name',
          'srcComponentId',
          'srcTaskId',
          'srcWorkerHost',
          'timestamp',
          'value',
          'worker',
        ]);
        expect(typeof d.value).toBe('number');
        expect(Number.isNaN(Date.parse(d.timestamp))).toBe(false);
        // Each point names its crawl (its status index): a cluster may hold several crawls' series.
        expect(d).toMatchObject({ crawl: crawlName, instance: 0, worker: 0, srcTaskId: 0 });
      }
      const sum = (name: string) => docs.filter((d) => d.name === name).reduce((a, d) => a + d.value, 0);
      expect(sum('fetcher_counter.fetched')).toBe(fetched);
      expect(sum('fetcher_counter.bytes_fetched')).toBeGreaterThan(fetched * 100);
      // 404s of /missing: FETCH_ERROR, counted by HTTP class.
      expect(sum('fetcher_counter.status_4xx')).toBeGreaterThan(0);
      expect(sum('errors.http.4xx')).toBeGreaterThan(0);
      const seen = new Set(docs.map((d) => d.name));
      for (const n of [
        'activethreads',
        'in_queues',
        'num_queues',
        'fetcher_average_persec.fetched_perSec',
        'fetcher_average_perdoc.fetch_time',
        'spout_query_time_msec',
        'waitAck',
        'hosts.down',
        'hosts.backing_off',
        'opensearch.up',
        'status.count.FETCHED',
        'status.count.TOTAL',
        'process.rss_bytes',
        'process.eventloop_delay_p99_msec',
      ])
        expect(seen, n).toContain(n);
      const components = new Map(docs.map((d) => [d.name, d.srcComponentId]));
      expect(components.get('fetcher_counter.fetched')).toBe('fetch');
      expect(components.get('status.count.TOTAL')).toBe('status_metrics');

      // The alias BASE over the daily indices (not over the index that only looks like one): what
      // StormCrawler's "Crawl metrics" dashboard reads (index pattern "metrics", the default BASE),
      // with its panels' name: queries, and one crawl's series told apart by crawl.
      const aliased = Object.keys(
        (await client.indices.getAlias({ name: metricsBase })).body as Record<string, unknown>,
      );
      expect(aliased.length).toBeGreaterThan(0);
      for (const i of aliased) expect(i).toMatch(new RegExp(`^${metricsBase}-\\d{4}-\\d{2}-\\d{2}$`));
      const panel = await client.search({
        index: metricsBase,
        body: {
          size: 0,
          query: {
            bool: {
              must: { query_string: { query: 'name:fetcher_counter.fetched' } },
              filter: { term: { crawl: crawlName } },
            },
          },
          aggs: { sum: { sum: { field: 'value' } } },
        } as never,
      });
      expect(
        (panel.body as unknown as { aggregations: { sum: { value: number } } }).aggregations.sum.value,
      ).toBe(fetched);
    } finally {
      await client.close();
    }
  }, 120_000);
});
