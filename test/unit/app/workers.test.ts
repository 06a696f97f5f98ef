import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Aggregate, outcomeLine } from '../../../src/app/workers/aggregate.js';
import { autoWorkers, isLocalCluster, parseWorkersOption } from '../../../src/app/workers/count.js';
import { type FromWorker, workerFromEnv } from '../../../src/app/workers/messages.js';
import { OnceCoordinator } from '../../../src/app/workers/once.js';
import { RestartPolicy } from '../../../src/app/workers/restart.js';
import { type Channel, type LinkedCrawl, SupervisorLink } from '../../../src/app/workers/worker.js';
import type { TransitionRecord } from '../../../src/model/transition.js';
import { createLogger } from '../../../src/util/log.js';
import { snapshot, summary } from '../../support/snapshot.js';

describe('how many workers "auto" means', () => {
  it('the cores less a quarter (at least one) for a local OpenSearch, at most the shards, at least one', () => {
    expect(autoWorkers({ cores: 2, localCluster: true, maxByShards: 4 }).workers).toBe(1);
    expect(autoWorkers({ cores: 8, localCluster: true, maxByShards: 16 }).workers).toBe(6);
    expect(autoWorkers({ cores: 8, localCluster: false, maxByShards: 16 }).workers).toBe(8);
    expect(autoWorkers({ cores: 1, localCluster: true, maxByShards: 4 }).workers).toBe(1);
    const capped = autoWorkers({ cores: 64, localCluster: false, maxByShards: 4 });
    expect(capped.workers).toBe(4);
    expect(capped.reason).toMatch(/limited by the status shards \(raise opensearch.status.shards/);
    expect(autoWorkers({ cores: 8, localCluster: true, maxByShards: 16 }).reason).toBe(
      '8 cores, 2 left to the OpenSearch node on this machine',
    );
  });

  it('a cluster is local when every address is on loopback', () => {
    expect(isLocalCluster(['http://127.0.0.1:9200'])).toBe(true);
    expect(isLocalCluster(['http://localhost:9200', 'https://[::1]:9201'])).toBe(true);
    expect(isLocalCluster(['http://127.0.0.1:9200', 'https://search.example.com'])).toBe(false);
  });

  it('--workers takes a whole number of at least 1 or "auto"', () => {
    expect(parseWorkersOption('3')).toBe(3);
    expect(parseWorkersOption('Auto')).toBe('auto');
    for (const bad of ['0', '-1', '2.5', 'x', '']) {
      expect(() => parseWorkersOption(bad)).toThrow(
        `--workers must be a whole number of at least 1 or "auto", got "${bad}"`,
      );
    }
  });

  it('a worker knows its place from the environment the supervisor set', () => {
    expect(workerFromEnv({ CRAWLER_WORKER: '1/4' })).toEqual({ worker: 1, workers: 4 });
    expect(workerFromEnv({ CRAWLER_WORKER: '4/4' })).toBeUndefined();
    expect(workerFromEnv({})).toBeUndefined();
  });
});

describe('restarting a worker that died', () => {
  it('waits 1, 2, 4, 8, 16 s for deaths in a row, then gives up; a long run starts the count again', () => {
    const p = new RestartPolicy();
    const delays = [1, 2, 3, 4, 5].map(() => p.died(500));
    expect(delays).toEqual(
      [1000, 2000, 4000, 8000, 16_000].map((delayMs, i) => ({ restart: true, delayMs, attempt: i + 1 })),
    );
    expect(p.died(500)).toEqual({ restart: false, deaths: 6 });
    const q = new RestartPolicy();
    for (let i = 0; i < 5; i++) q.died(500);
    expect(q.died(120_000)).toEqual({ restart: true, delayMs: 1000, attempt: 1 });
  });

  it('never waits more than 30 s', () => {
    const p = new RestartPolicy({ maxRestarts: 10, stableMs: 60_000, baseDelayMs: 1000, maxDelayMs: 30_000 });
    const last = Array.from({ length: 10 }, () => p.died(0)).at(-1);
    expect(last).toEqual({ restart: true, delayMs: 30_000, attempt: 10 });
  });
});

describe('--once over several workers', () => {
  it('checks when all are idle and finishes when every worker says it is still finished', () => {
    const c = new OnceCoordinator(2);
    expect(c.reportIdle(0)).toBeUndefined();
    expect(c.reportIdle(1)).toBe('check');
    const round = c.startRound();
    expect(c.checked(0, round, true)).toBeUndefined();
    expect(c.checked(1, round, true)).toBe('finish');
  });

  it('a worker that becomes busy during a check voids it; its late answer counts for nothing', () => {
    const c = new OnceCoordinator(2);
    c.reportIdle(0);
    c.reportIdle(1);
    const round = c.startRound();
    expect(c.checked(0, round, true)).toBeUndefined();
    c.reportBusy(1);
    expect(c.checked(1, round, true)).toBeUndefined();
    // Idle again: a new round, where the earlier answer of worker 0 does not count.
    expect(c.reportIdle(1)).toBe('check');
    const next = c.startRound();
    expect(c.checked(1, next, true)).toBeUndefined();
    expect(c.checked(0, round, true)).toBeUndefined();
    expect(c.checked(0, next, true)).toBe('finish');
  });

  it('a "no" from workers that stay idle asks again later; a worker that died is not idle', () => {
    const c = new OnceCoordinator(2);
    c.reportIdle(0);
    c.reportIdle(1);
    let round = c.startRound();
    c.checked(0, round, true);
    expect(c.checked(1, round, false)).toBe('later');
    round = c.startRound();
    c.replaced(0);
    expect(c.allIdle()).toBe(false);
    expect(c.checked(1, round, true)).toBeUndefined();
    expect(c.reportIdle(0)).toBe('check');
  });

  it('a worker that ended on its own counts as finished', () => {
    const c = new OnceCoordinator(2);
    expect(c.endedOnItsOwn(1)).toBeUndefined();
    expect(c.reportIdle(0)).toBe('check');
    expect(c.checked(0, c.startRound(), true)).toBe('finish');
  });
});

describe('the figures of all workers', () => {
  it('counters sum over every process, a dead one up to its last report; what is in hand over the live ones', () => {
    const a = new Aggregate();
    a.started(10, 0);
    a.started(11, 1);
    a.progress(
      10,
      snapshot({ fetched: 5, queued: 7, hosts: 2, byStatus: { FETCHED: 5 }, errors: { 'HTTP 404': 1 } }),
    );
    a.progress(
      11,
      snapshot({
        fetched: 3,
        queued: 1,
        hosts: 1,
        byStatus: { FETCHED: 2, ERROR: 1 },
        errors: { 'HTTP 404': 2 },
      }),
    );
    a.exited(10);
    a.started(12, 0);
    a.progress(12, snapshot({ fetched: 4, queued: 2, hosts: 2, byStatus: { FETCHED: 4 } }));
    const t = a.totals();
    expect(t).toMatchObject({ fetched: 12, queued: 3, hosts: 3, running: 2 });
    expect(t.byStatus).toEqual({ FETCHED: 11, ERROR: 1 });
    expect(t.errors).toEqual({ 'HTTP 404': 3 });
  });

  it('the progress line: pages per second since the previous one, errors as one string, workers running', () => {
    const a = new Aggregate();
    a.startRate(1000);
    a.started(10, 0);
    a.progress(
      10,
      snapshot({ fetched: 50, errors: { timeout: 2, 'HTTP 404': 5 }, opensearchUnreachableSec: 4 }),
    );
    const { fields, msg } = a.progressLine(11_000);
    expect(fields).toMatchObject({
      fetchedPerSec: 5,
      fetched: 50,
      errors: 'HTTP 404=5 timeout=2',
      workers: 1,
    });
    expect(msg).toBe('progress: OpenSearch unreachable for 4 s');
  });

  it('the summary sums the workers’ own, keeps the slowest spout latency, and adds the supervisor', () => {
    const a = new Aggregate();
    a.started(10, 0);
    a.started(11, 1);
    const w0 = summary({
      fetched: 4,
      statusWrites: { written: 9, existing: 1, skippedCached: 2, failed: 0 },
      spout: { queries: 3, queryMsP50: 5, queryMsP95: 20 },
      cpuUserMs: 100,
      maxRssMb: 120,
      notWritten: 2,
    });
    const w1 = summary({
      urlFilterDrops: { RegexURLFilter: 3 },
      fetched: 6,
      spout: { queries: 4, queryMsP50: 7, queryMsP95: 9 },
      cpuUserMs: 200,
      maxRssMb: 110,
    });
    a.ended(10, w0, snapshot({ fetched: 4, byStatus: { FETCHED: 4 } }));
    a.ended(11, w1, snapshot({ fetched: 6, byStatus: { FETCHED: 6 }, deferred: { 'host.down': 1 } }));
    const s = a.summary({ cpuUserMs: 10, cpuSystemMs: 1, maxRssMb: 50, logLinesDropped: 0 }, 2, 1);
    expect(s).toMatchObject({
      fetched: 10,
      byStatus: { FETCHED: 10 },
      deferred: 'host.down=1',
      statusWrites: { written: 9, existing: 1, skippedCached: 2, failed: 0 },
      spout: { queries: 7, queryMsP50: 7, queryMsP95: 20 },
      cpuUserMs: 310,
      maxRssMb: 280,
      notWritten: 2,
      urlFilterDrops: { RegexURLFilter: 3 },
      workers: 2,
      restarts: 1,
    });
    expect(outcomeLine(s, 2)).toBe(
      'fetched 10 pages (2 workers); statuses {"FETCHED":10}; discovered 0 links; 2 status updates not written ' +
        '(those URLs keep their previous state and come back when due)',
    );
  });
});

class FakeChannel extends EventEmitter implements Channel {
  connected = true;
  readonly sent: FromWorker[] = [];
  send(message: FromWorker, callback?: (error: Error | null) => void): boolean {
    this.sent.push(message);
    callback?.(null);
    return true;
  }
  disconnect(): void {
    this.connected = false;
  }
}

describe("a worker's link to its supervisor", () => {
  function crawl(finished: boolean) {
    const calls: string[] = [];
    const crawler: LinkedCrawl = {
      snapshot: () => snapshot({ fetched: 3 }),
      summary: () => summary({ fetched: 3 }),
      stillFinished: async () => finished,
      requestStop: () => void calls.push('stop'),
    };
    return { crawler, calls };
  }

  it('answers checks, stops on finish or when the supervisor goes away, and ends with its summary', async () => {
    const channel = new FakeChannel();
    const { crawler, calls } = crawl(true);
    const link = new SupervisorLink(crawler, channel);
    link.runOptions(true).idle?.(true);
    link.runOptions(true).idle?.(false);
    expect(link.runOptions(false)).toEqual({ progressLines: false, onTransition: expect.any(Function) });
    channel.emit('message', { type: 'check', round: 3 });
    await new Promise((r) => setImmediate(r));
    channel.emit('message', { type: 'finish' });
    channel.emit('disconnect');
    expect(calls).toEqual(['stop', 'stop']);
    await link.close();
    expect(channel.sent.map((m) => m.type)).toEqual(['idle', 'busy', 'checked', 'summary']);
    expect(channel.sent[2]).toEqual({ type: 'checked', round: 3, finished: true });
    expect(channel.connected).toBe(false);
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it('reports its latest transitions each second and at the end, and each error it logs, over the channel', async () => {
    vi.useFakeTimers();
    const channel = new FakeChannel();
    const link = new SupervisorLink(crawl(true).crawler, channel);
    const { onTransition } = link.runOptions(false);
    const record = (i: number) =>
      ({
        url: `http://a.test/${i}`,
        appliedAt: `t${i}`,
        previousStatus: null,
        status: 'FETCHED',
        reason: 'fetched',
      }) as unknown as TransitionRecord;
    for (let i = 0; i < 35; i++) onTransition?.(record(i));
    vi.advanceTimersByTime(1000);
    const reported = channel.sent.filter((m) => m.type === 'transitions');
    // The latest 30 (the console's tail), as the console shows them.
    expect(reported).toHaveLength(1);
    const entries = reported[0]?.type === 'transitions' ? reported[0].entries : [];
    expect(entries).toHaveLength(30);
    expect(entries[0]).toEqual({
      time: 't5',
      url: 'http://a.test/5',
      from: '-',
      to: 'FETCHED',
      reason: 'fetched',
    });
    onTransition?.(record(35));
    // Any line of level error of the process's logger (or a child's), not by its text.
    createLogger('error').child({ component: 'test' }).error({ url: 'http://a.test/' }, 'a worker error');
    await link.close();
    expect(channel.sent.map((m) => m.type)).toEqual([
      'progress',
      'transitions',
      'error',
      'transitions',
      'summary',
    ]);
    expect(channel.sent[2]).toEqual({ type: 'error', message: 'a worker error' });
    // Closed: the link no longer listens to the log.
    createLogger('error').error('after the end');
    expect(channel.sent).toHaveLength(5);
  });

  it('stops the crawl when the supervisor went away before the link was made (during start-up)', async () => {
    const channel = new FakeChannel();
    channel.connected = false;
    const { crawler, calls } = crawl(true);
    const link = new SupervisorLink(crawler, channel);
    expect(calls).toEqual(['stop']);
    await link.close();
  });
});
