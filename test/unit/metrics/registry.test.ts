import { describe, expect, it } from 'vitest';
import { intervalPoints } from '../../../src/metrics/points.js';
import { Registry } from '../../../src/metrics/registry.js';
import { knownSeriesNames, seriesName } from '../../../src/metrics/series-names.js';

describe('the metrics registry', () => {
  it('a stage adds a counter in one line; labels outside the set count as "other"', async () => {
    const r = new Registry();
    const parsed = r.counter({ name: 'crawler_feeds_parsed_total', help: 'feeds parsed' });
    const byType = r.counter({
      name: 'crawler_feed_items_total',
      help: 'feed items by type',
      label: { name: 'type', values: ['rss', 'atom'] },
    });
    parsed.inc();
    parsed.inc(2);
    byType.inc('rss');
    byType.inc('http://evil.example/?a=1');
    byType.inc('json', 3);
    const f = await r.collect();
    expect(f.find((x) => x.name === 'crawler_feeds_parsed_total')?.values).toEqual([
      { value: 3, labels: {} },
    ]);
    expect(f.find((x) => x.name === 'crawler_feed_items_total')?.values).toEqual([
      { value: 1, labels: { type: 'rss' } },
      { value: 4, labels: { type: 'other' } },
    ]);
  });

  it('refuses bad names, counters without _total, and a name registered twice', () => {
    const r = new Registry();
    expect(() => r.counter({ name: 'pages', help: '' })).toThrow(/must match/);
    expect(() => r.counter({ name: 'crawler_pages', help: '' })).toThrow(/_total/);
    r.gauge({ name: 'crawler_x', help: '' }, () => 1);
    expect(() => r.gauge({ name: 'crawler_x', help: '' }, () => 1)).toThrow(/already/);
  });

  it('reads counters and gauges when collected, after the hooks; labelled reads are bounded too', async () => {
    const r = new Registry();
    let n = 0;
    let snap = 0;
    r.beforeCollect(() => {
      snap = n * 10;
    });
    r.counterOf({ name: 'crawler_a_total', help: '' }, () => n);
    r.gauge({ name: 'crawler_b', help: '' }, () => snap);
    r.counterOf(
      { name: 'crawler_c_total', help: '', label: { name: 'status', values: ['FETCHED'] } },
      () =>
        new Map([
          ['FETCHED', 2],
          ['a host', 1],
          ['a url', 1],
        ]),
    );
    n = 4;
    const f = await r.collect();
    expect(f.map((x) => x.values[0]?.value)).toEqual([4, 40, 2]);
    expect(f[2]!.values).toEqual([
      { value: 2, labels: { status: 'FETCHED' } },
      { value: 2, labels: { status: 'other' } },
    ]);
  });

  it('histograms give cumulative buckets, +Inf, sum and count', async () => {
    const r = new Registry();
    const h = r.histogram({ name: 'crawler_t_seconds', help: '', buckets: [1, 0.1] });
    h.observe(0.05);
    h.observe(0.5);
    h.observe(5);
    const v = (await r.collect())[0]!.values;
    expect(v.map((x) => [x.metricName, x.labels.le, x.value])).toEqual([
      ['crawler_t_seconds_bucket', 0.1, 1],
      ['crawler_t_seconds_bucket', 1, 2],
      ['crawler_t_seconds_bucket', '+Inf', 3],
      ['crawler_t_seconds_sum', undefined, 5.55],
      ['crawler_t_seconds_count', undefined, 3],
    ]);
  });
});

describe('interval points', () => {
  const registry = () => {
    const r = new Registry();
    const state = { fetched: 0, errors: new Map<string, number>(), queued: 0 };
    r.counterOf({ name: 'crawler_pages_fetched_total', help: '' }, () => state.fetched);
    r.counterOf(
      {
        name: 'crawler_errors_total',
        help: '',
        label: { name: 'cause', values: ['robots.txt', 'http.4xx'] },
      },
      () => state.errors,
    );
    r.gauge({ name: 'crawler_fetch_queue_urls', help: '' }, () => state.queued);
    const h = r.histogram({ name: 'crawler_spout_query_duration_seconds', help: '', buckets: [1] });
    return { r, state, h };
  };

  it("counters as increases under StormCrawler's names, gauges as values, rates per second, histograms as means", async () => {
    const { r, state, h } = registry();
    state.fetched = 30;
    state.queued = 7;
    h.observe(0.02);
    h.observe(0.04);
    const first = intervalPoints(await r.collect(), undefined, 10);
    expect(first.points).toEqual([
      { name: 'fetcher_counter.fetched', value: 30, component: 'fetch' },
      { name: 'fetcher_average_persec.fetched_perSec', value: 3, component: 'fetch' },
      { name: 'in_queues', value: 7, component: 'fetch' },
      { name: 'spout_query_time_msec', value: 30, component: 'spout' },
    ]);
    state.fetched = 50;
    state.errors.set('robots.txt', 2);
    const second = intervalPoints(await r.collect(), first.baseline, 10);
    expect(second.points.filter((p) => p.name !== 'in_queues')).toEqual([
      { name: 'fetcher_counter.fetched', value: 20, component: 'fetch' },
      { name: 'fetcher_average_persec.fetched_perSec', value: 2, component: 'fetch' },
      { name: 'errors.robots.txt', value: 2, component: 'status' },
    ]);
    // A labelled counter once used keeps being written (zeros); the histogram saw nothing.
    const third = intervalPoints(await r.collect(), second.baseline, 10);
    expect(third.points.find((p) => p.name === 'errors.robots.txt')?.value).toBe(0);
    expect(third.points.some((p) => p.name === 'spout_query_time_msec')).toBe(false);
  });

  it('a counter lower than before (the process started again) counts whole', async () => {
    const { r, state } = registry();
    state.fetched = 100;
    const a = intervalPoints(await r.collect(), undefined, 10);
    state.fetched = 5;
    const b = intervalPoints(await r.collect(), a.baseline, 10);
    expect(b.points[0]).toEqual({ name: 'fetcher_counter.fetched', value: 5, component: 'fetch' });
  });

  it('names: the known table, then one rule for any other crawler_ metric; other default metrics are not written', () => {
    expect(seriesName('crawler_feeds_parsed_total')?.name(undefined)).toBe('feeds_parsed');
    expect(seriesName('crawler_feed_items_total')?.name('rss')).toBe('feed_items.rss');
    expect(seriesName('crawler_render_duration_seconds')?.name(undefined)).toBe('render_duration_msec');
    expect(seriesName('crawler_render_duration_seconds')?.scale).toBe(1000);
    expect(seriesName('nodejs_gc_duration_seconds')).toBeUndefined();
    expect(knownSeriesNames()).toEqual(
      expect.arrayContaining([
        'fetcher_counter.fetched',
        'activethreads',
        'num_queues',
        'status.count.*',
        'errors.*',
      ]),
    );
  });
});
