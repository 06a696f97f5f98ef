import { describe, expect, it } from 'vitest';
import { GenerationMetrics } from '../../../src/console/member-monitor.js';
import { consoleState, Samples, sampleOf } from '../../../src/console/state.js';
import { fitWidth, statusLine } from '../../../src/console/status-line.js';
import { crawlMeters } from '../../../src/metrics/crawl.js';
import { Metadata } from '../../../src/model/metadata.js';
import type { CrawlSnapshot } from '../../../src/pipeline/crawl-report.js';
import { CrawlMetrics } from '../../../src/pipeline/metrics.js';

// The console's state and the terminal's status line, from the metric families of a crawl.

function crawl() {
  const metrics = new CrawlMetrics();
  let snapshot: CrawlSnapshot = {
    fetched: 0,
    discovered: 0,
    adopted: 0,
    inFlight: 3,
    queued: 12,
    fetching: 2,
    hosts: 5,
    hostsBackingOff: 1,
    hostsDown: 1,
    parsing: 0,
    writesPending: 4,
    byStatus: {},
    errors: {},
    deferred: {},
  };
  const meters = crawlMeters();
  let down: number | undefined;
  meters.attach({ metrics, snapshot: () => snapshot }, { unreachableMs: () => down });
  return {
    meters,
    metrics,
    set: (s: Partial<CrawlSnapshot>) => {
      snapshot = { ...snapshot, ...s };
    },
    outage: (ms: number | undefined) => {
      down = ms;
    },
  };
}

describe('the console state', () => {
  it('rates now (over the last 10 s) and on average, totals, load, OpenSearch', async () => {
    const c = crawl();
    const samples = new Samples(100);
    const t0 = 1_000_000;
    samples.push(sampleOf(await c.meters.registry.collect(), t0));
    c.metrics.fetched = 100;
    c.metrics.bytes = 100_000;
    c.metrics.status('FETCHED');
    const md = new Metadata();
    md.setValue('fetch.statusCode', '404');
    c.meters.observe.error(md);
    c.meters.observe.response(200, 120);
    c.meters.spoutQuery(40);
    samples.push(sampleOf(await c.meters.registry.collect(), t0 + 10_000));
    c.metrics.fetched = 150;
    c.outage(12_000);
    const s = consoleState({
      families: await c.meters.registry.collect(),
      now: t0 + 20_000,
      startedAt: t0,
      samples,
      index: undefined,
      warnings: [],
      transitions: [],
    });
    expect(s.rates.now.pagesPerSec).toBe(5);
    expect(s.rates.average.pagesPerSec).toBe(7.5);
    expect(s.totals).toMatchObject({
      fetched: 150,
      bytes: 100_000,
      byStatus: { FETCHED: 1 },
      errors: { 'http.4xx': 1 },
    });
    expect(s.load).toEqual({
      fetching: 2,
      queued: 12,
      hosts: 5,
      hostsBackingOff: 1,
      hostsDown: 1,
      inFlight: 3,
      parsing: 0,
    });
    expect(s.opensearch).toEqual({ reachable: false, unreachableSec: 12, writesPending: 4, spoutMs: 40 });

    const line = statusLine(s, 200);
    expect(line).toBe(
      '5 pages/s (avg 7.5) | fetched 150 | queued 12, fetching 2 | hosts 5 (1 backing off, 1 down) | errors 1 | OpenSearch UNREACHABLE 12 s',
    );
    expect(statusLine(s, 40)).toHaveLength(39);
    expect(fitWidth('x'.repeat(100), 50)).toMatch(/^x{48}…$/);
  });

  it('rates now count from the start while no sample is 10 s old (a run held before its first sample)', async () => {
    const c = crawl();
    const samples = new Samples(100);
    const t0 = 1_000_000;
    c.metrics.fetched = 12;
    // The only sample came after the 12 pages, and the crawl has not moved since.
    samples.push(sampleOf(await c.meters.registry.collect(), t0 + 5_000));
    const s = consoleState({
      families: await c.meters.registry.collect(),
      now: t0 + 8_000,
      startedAt: t0,
      samples,
      index: undefined,
      warnings: [],
      transitions: [],
    });
    expect(s.rates.now.pagesPerSec).toBe(1.5);
  });
});

describe("an elastic member's console (issue 45)", () => {
  it("counts a member's pages across its generations: counters summed, gauges of the running one", async () => {
    const generations = new GenerationMetrics();
    const first = crawl();
    first.metrics.fetched = 5;
    first.set({ fetched: 5, queued: 12 });
    await generations.attach(first.meters.registry);
    const second = crawl();
    second.metrics.fetched = 3;
    second.set({ fetched: 3, queued: 2 });
    await generations.attach(second.meters.registry);
    const s = consoleState({
      families: await generations.collect(),
      now: 10_000,
      startedAt: 0,
      samples: new Samples(10),
      index: undefined,
      members: [
        {
          member: 'm1-812-3fa2c1',
          host: 'm1',
          pid: 812,
          live: true,
          shards: [0, 1],
          pagesPerSec: 1.5,
          fetched: 8,
          heartbeatSecAgo: 1,
          lost: [{ shard: 2, to: 'member m2-977-0b1c2d (pid 977 on host m2)', at: 5_000 }],
        },
      ],
      warnings: [],
      transitions: [],
    });
    expect(s.totals.fetched).toBe(8);
    expect(s.load.queued).toBe(2);
    expect(s.members?.[0]?.lost[0]?.to).toMatch(/^member m2-977-0b1c2d/);
    expect(consoleState({ ...inputs(), families: [] }).members).toBeNull();
  });
});

function inputs() {
  return {
    now: 0,
    startedAt: 0,
    samples: new Samples(10),
    index: undefined,
    warnings: [],
    transitions: [],
  };
}
