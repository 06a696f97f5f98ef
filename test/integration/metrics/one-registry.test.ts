import { afterAll, describe, expect, it } from 'vitest';
import { CrawlMonitor } from '../../../src/console/crawl-monitor.js';
import { crawlMeters } from '../../../src/metrics/crawl.js';
import { Metadata } from '../../../src/model/metadata.js';
import { createClient } from '../../../src/opensearch/client.js';
import { CrawlMetrics } from '../../../src/pipeline/metrics.js';
import { silentLogger } from '../../../src/util/log.js';
import { deleteIndices, testConfig, uniqueIndexNames } from '../../support/opensearch.js';
import { freePort, parsePrometheus } from '../../support/prometheus.js';
import { snapshot } from '../../support/snapshot.js';

// One model of a metric: the points written to the metrics index and the /metrics text are read
// from the same prom-client registry, so a counter's increments in the series add up to the value
// /metrics serves, whether the stage counts through a handle (HTTP answers, the hot path) or keeps
// its own total that the registry reads (pages fetched).

const names = uniqueIndexNames('one-registry');
const base = `${names.status.replace(/-status$/, '')}-metrics`;
const TOKEN = 'one-registry-token';

afterAll(async () => {
  await deleteIndices(`${base}-*`);
});

const zero = snapshot();

async function scrape(port: number): Promise<Map<string, number>> {
  const res = await fetch(`http://127.0.0.1:${port}/metrics`, {
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  expect(res.status).toBe(200);
  return parsePrometheus(await res.text()).samples;
}

describe('the metrics series and /metrics', () => {
  it("agree on a counter's value: its points in OpenSearch sum to what /metrics serves", async () => {
    const port = await freePort();
    const config = testConfig(names, {
      'console.port': port,
      'console.token': TOKEN,
      'opensearch.metrics.index.name': base,
      'metrics.interval': '1s',
    });
    const meters = crawlMeters();
    const metrics = new CrawlMetrics();
    meters.attach({ metrics, snapshot: () => zero });
    const { client } = createClient(config);
    // Instance 1 of 2: instance 0 would also count a status index this test does not have.
    const monitor = new CrawlMonitor(config, silentLogger, { instance: 1, instances: 2 });
    const fetch = (n: number) => {
      for (let i = 0; i < n; i++) {
        metrics.fetched++;
        meters.observe.response(200, 30);
      }
      meters.observe.response(404, 10);
      const md = new Metadata();
      md.setValue('fetch.statusCode', '404');
      meters.observe.error(md);
    };
    let stopped = false;
    try {
      await monitor.start({ metrics: meters.registry, client });
      fetch(7);
      // Wait for a first interval acknowledged, then count more: the series holds several points.
      await expect
        .poll(async () => (await scrape(port)).get('crawler_metrics_points_written_total') ?? 0, {
          timeout: 30_000,
          interval: 200,
        })
        .toBeGreaterThan(0);
      fetch(5);
      const served = await scrape(port);
      await monitor.stop();
      stopped = true;

      await client.indices.refresh({ index: `${base}-*` });
      const res = await client.search({
        index: `${base}-*`,
        body: { size: 1000, query: { term: { crawl: names.status } } } as never,
      });
      const docs = (res.body.hits.hits as { _source: { name: string; value: number } }[]).map(
        (h) => h._source,
      );
      const sum = (name: string) => docs.filter((d) => d.name === name).reduce((a, d) => a + d.value, 0);
      const points = (name: string) => docs.filter((d) => d.name === name).length;

      expect(served.get('crawler_pages_fetched_total')).toBe(12);
      expect(sum('fetcher_counter.fetched')).toBe(served.get('crawler_pages_fetched_total'));
      expect(points('fetcher_counter.fetched')).toBeGreaterThan(1);
      expect(served.get('crawler_http_responses_total{class="2xx"}')).toBe(12);
      expect(sum('fetcher_counter.status_2xx')).toBe(served.get('crawler_http_responses_total{class="2xx"}'));
      expect(served.get('crawler_errors_total{cause="http.4xx"}')).toBe(2);
      expect(sum('errors.http.4xx')).toBe(served.get('crawler_errors_total{cause="http.4xx"}'));
    } finally {
      if (!stopped) await monitor.stop();
      await client.close();
    }
  }, 60_000);
});
