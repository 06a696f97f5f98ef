import { describe, expect, it } from 'vitest';
import { prometheusText } from '../../../src/metrics/prometheus.js';
import { type MetricFamily, Registry } from '../../../src/metrics/registry.js';
import { expiredIndices } from '../../../src/metrics/series-writer.js';
import { sumCounters, WorkerMetrics } from '../../../src/metrics/workers.js';

// A supervisor's view of its workers' metrics: sums, and counters that never go down when a worker
// dies and is started again.

async function worker(fetched: number, queued: number): Promise<MetricFamily[]> {
  const r = new Registry();
  r.counterOf({ name: 'crawler_pages_fetched_total', help: 'pages' }, () => fetched);
  r.gauge({ name: 'crawler_fetch_queue_urls', help: 'queued' }, () => queued);
  return r.collect();
}
const process = (rss: number): MetricFamily[] => [
  {
    name: 'process_resident_memory_bytes',
    help: 'rss',
    type: 'gauge',
    aggregator: 'sum',
    values: [{ value: rss, labels: {} }],
  },
];

const value = (text: string, sample: string) =>
  Number(
    text
      .split('\n')
      .find((l) => l.startsWith(`${sample} `))
      ?.split(' ')[1],
  );

describe('WorkerMetrics', () => {
  it('serves the sum, keeps what a dead process counted, and counts gauges of live processes only', async () => {
    const w = new WorkerMetrics(true);
    w.started(101, 0, 0);
    w.started(102, 1, 0);
    w.report(101, { crawl: await worker(10, 5), process: process(1000) });
    w.report(102, { crawl: await worker(7, 3), process: process(2000) });
    let text = await prometheusText(...w.families());
    expect(value(text, 'crawler_pages_fetched_total')).toBe(17);
    expect(value(text, 'crawler_fetch_queue_urls')).toBe(8);
    expect(value(text, 'crawler_worker_pages_fetched_total{worker="1"}')).toBe(7);
    expect(value(text, 'process_resident_memory_bytes{worker="1"}')).toBe(2000);
    // Worker 1 dies; its next process starts from zero.
    w.exited(102);
    w.started(103, 1, 5000);
    w.report(103, { crawl: await worker(2, 1) });
    text = await prometheusText(...w.families());
    expect(value(text, 'crawler_pages_fetched_total')).toBe(19);
    expect(value(text, 'crawler_fetch_queue_urls')).toBe(6);
    expect(value(text, 'crawler_worker_pages_fetched_total{worker="1"}')).toBe(9);
    expect(w.running).toBe(2);
    // The series: each process once per interval; the dead one a last time, then no more.
    const r1 = w.readings((worker) => ({ instance: 0, worker, task: worker, host: 'h' }));
    expect(r1.map((r) => [r.key, r.origin.worker, r.last ?? false])).toEqual([
      ['101', 0, false],
      ['102', 1, true],
      ['103', 1, false],
    ]);
    expect(w.readings(() => ({ instance: 0, task: 0, host: 'h' })).map((r) => r.key)).toEqual(['101', '103']);
  });

  it('sumCounters adds equal series and leaves gauges out', async () => {
    const s = sumCounters([await worker(1, 9), await worker(2, 9)]);
    expect(s).toHaveLength(1);
    expect(s[0]!.values).toEqual([{ value: 3, labels: {} }]);
  });
});

describe('metrics retention', () => {
  it('deletes whole days older than the setting, only BASE-yyyy-MM-dd', () => {
    const now = Date.UTC(2026, 6, 10, 12);
    const names = [
      'metrics-2026-07-10',
      'metrics-2026-07-03',
      'metrics-2026-07-02',
      'metrics-keep',
      'metrics-x-2026-01-01',
      'metricsfoo-2026-01-01',
    ];
    expect(expiredIndices('metrics', names, 7, now)).toEqual(['metrics-2026-07-02']);
    expect(expiredIndices('metrics', names, 0, now)).toEqual([]);
  });
});
