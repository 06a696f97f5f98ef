import { describe, expect, it } from 'vitest';
import type { HealthPolicy } from '../../../src/fetch/host-health.js';
import { FetchQueues, type QueueSettings } from '../../../src/fetch/queues.js';
import { ManualClock } from '../../../src/util/clock.js';

const settings: QueueSettings = { delayMs: 1000, minDelayMs: 0, threadsPerQueue: 1, maxThreadsRules: [] };

const policy: HealthPolicy = {
  factor: 2,
  maxDelayMs: 8000,
  maxRetryAfterMs: 30_000,
  downAfter: 3,
  downBackoffMs: 60_000,
  downMaxBackoffMs: 86_400_000,
};

function setup(s: Partial<QueueSettings> = {}) {
  const clock = new ManualClock(0);
  const queues = new FetchQueues<string>({ ...settings, ...s }, clock, policy);
  const take = () => {
    const r = queues.take();
    return 'next' in r ? r.next.item : r.waitMs;
  };
  return { clock, queues, take };
}

describe('politeness queues', () => {
  it('serve hosts round-robin', () => {
    const { queues, take } = setup();
    queues.add('a', 'a1');
    queues.add('a', 'a2');
    queues.add('b', 'b1');
    queues.add('c', 'c1');
    expect([take(), take(), take()]).toEqual(['a1', 'b1', 'c1']);
  });

  it('a queue waits for its fetch to end, then the delay counted from that end', () => {
    const { clock, queues, take } = setup();
    queues.add('a', 'a1');
    queues.add('a', 'a2');
    expect(take()).toBe('a1');
    expect(take()).toBeUndefined(); // a1 still running: no time can be promised
    clock.advance(5000); // a slow fetch
    queues.finish('a');
    expect(take()).toBe(1000);
    clock.advance(999);
    expect(take()).toBe(1);
    clock.advance(1);
    expect(take()).toBe('a2');
  });

  it('a URL arriving right after the last fetch of an emptied queue still waits the delay', () => {
    const { clock, queues, take } = setup();
    queues.add('a', 'a1');
    expect(take()).toBe('a1');
    queues.finish('a');
    clock.advance(10);
    queues.add('a', 'a2');
    expect(take()).toBe(990);
  });

  it('forgets idle queues once their delay has passed', () => {
    const { clock, queues, take } = setup();
    queues.add('a', 'a1');
    take();
    queues.finish('a');
    expect(queues.queueCount).toBe(1);
    clock.advance(1000);
    expect(take()).toBeUndefined();
    expect(queues.queueCount).toBe(0);
  });

  it('asap skips the delay (nothing was fetched)', () => {
    const { queues, take } = setup();
    queues.add('a', 'a1');
    queues.add('a', 'a2');
    take();
    queues.finish('a', true);
    expect(take()).toBe('a2');
  });

  it('threads per queue allow parallel fetches with the min delay', () => {
    const { clock, queues, take } = setup({ threadsPerQueue: 2, minDelayMs: 100 });
    for (const u of ['a1', 'a2', 'a3']) queues.add('a', u);
    expect([take(), take()]).toEqual(['a1', 'a2']);
    expect(take()).toBeUndefined();
    queues.finish('a');
    expect(take()).toBe(100);
    clock.advance(100);
    expect(take()).toBe('a3');
  });

  it('fetcher.maxThreads.<regex> overrides threads for matching queues, and metadata overrides that', () => {
    const { queues, take } = setup({ maxThreadsRules: [{ regex: /\.example\.com$/, threads: 3 }] });
    for (const u of ['x1', 'x2', 'x3', 'x4']) queues.add('www.example.com', u);
    expect([take(), take(), take(), take()]).toEqual(['x1', 'x2', 'x3', undefined]);
    queues.add('other.org', 'o1', { maxThreads: 2 });
    queues.add('other.org', 'o2');
    expect([take(), take()]).toEqual(['o1', 'o2']);
  });

  it('a crawl.delay from metadata sets the delay, and later URLs can only raise it', () => {
    const { clock, queues, take } = setup();
    queues.add('a', 'a1', { crawlDelayMs: 5000 });
    queues.add('a', 'a2', { crawlDelayMs: 2000 });
    take();
    queues.finish('a');
    expect(take()).toBe(5000);
    clock.advance(5000);
    expect(take()).toBe('a2');
  });

  it('setCrawlDelay (robots.txt) applies from the next fetch', () => {
    const { clock, queues, take } = setup();
    queues.add('a', 'a1');
    queues.add('a', 'a2');
    take();
    queues.setCrawlDelay('a', 3000);
    clock.advance(100);
    queues.finish('a');
    expect(take()).toBe(3000);
    expect(queues.crawlDelayOf('a')).toBe(3000);
  });

  it('expire releases URLs that waited too long, oldest first, and keeps the others', () => {
    const { clock, queues, take } = setup();
    queues.add('a', 'a1');
    queues.add('a', 'a2');
    clock.advance(500);
    queues.add('a', 'a3');
    expect(take()).toBe('a1');
    clock.advance(600);
    expect(queues.expire(1000).map((q) => q.item)).toEqual(['a2']);
    expect(queues.queued).toBe(1);
  });

  it('counts queued and in-flight URLs', () => {
    const { queues, take } = setup();
    queues.add('a', 'a1');
    queues.add('b', 'b1');
    take();
    expect([queues.queued, queues.inFlight]).toEqual([1, 1]);
    queues.finish('a');
    expect([queues.queued, queues.inFlight]).toEqual([1, 0]);
    expect(() => queues.finish('a')).toThrow(/without a matching take/);
  });

  it('stays fair and correct over many hosts (every URL once, per-host spacing held)', () => {
    const { clock, queues } = setup({ delayMs: 50 });
    const last = new Map<string, number>();
    let taken = 0;
    for (let h = 0; h < 200; h++) for (let i = 0; i < 5; i++) queues.add(`h${h}`, `h${h}/${i}`);
    while (taken < 1000) {
      const r = queues.take();
      if ('next' in r) {
        const prev = last.get(r.next.key);
        if (prev !== undefined) expect(clock.now() - prev).toBeGreaterThanOrEqual(50);
        queues.finish(r.next.key);
        last.set(r.next.key, clock.now());
        taken++;
      } else clock.advance(r.waitMs ?? 1);
    }
    expect(queues.queued).toBe(0);
  });

  describe('with host health', () => {
    const failing = (queues: FetchQueues<string>, clock: ManualClock, key: string, unreachable = false) =>
      queues.healthOf(key)!.failure({
        now: clock.now(),
        startedAt: clock.now(),
        seedMs: queues.seedOf(key),
        unreachable,
        reason: 'HTTP 503',
      });

    it('a failure doubles the delay after that fetch; a success brings it back', () => {
      const { clock, queues, take } = setup();
      for (let i = 0; i < 4; i++) queues.add('a', `a${i}`);
      expect(take()).toBe('a0');
      failing(queues, clock, 'a');
      queues.finish('a');
      expect(take()).toBe(2000);
      clock.advance(2000);
      expect(take()).toBe('a1');
      queues.healthOf('a')!.success(queues.seedOf('a'));
      queues.finish('a');
      expect(take()).toBe(1000);
      clock.advance(1000);
      expect(take()).toBe('a2');
    });

    it('a failing host gets one fetch at a time whatever its threads', () => {
      const { clock, queues, take } = setup({ threadsPerQueue: 3, minDelayMs: 0 });
      for (let i = 0; i < 4; i++) queues.add('a', `a${i}`);
      expect([take(), take()]).toEqual(['a0', 'a1']);
      failing(queues, clock, 'a');
      queues.finish('a');
      queues.finish('a');
      // The seed of a queue without delay is fetcher.server.delay: 1000 ms, doubled.
      expect(take()).toBe(2000);
      clock.advance(2000);
      expect([take(), take()]).toEqual(['a2', undefined]);
    });

    it('a paused host is not served before the pause ends, and other hosts are served meanwhile', () => {
      const { clock, queues, take } = setup({ delayMs: 0 });
      queues.add('a', 'a0');
      queues.add('a', 'a1');
      queues.add('b', 'b0');
      queues.add('b', 'b1');
      expect(take()).toBe('a0');
      const change = queues.healthOf('a')!.retryAfter({
        now: 0,
        startedAt: 0,
        seedMs: queues.seedOf('a'),
        retryAfterMs: 3000,
        reason: 'HTTP 429',
      });
      expect(queues.pauseOf('a')).toBe(change.paused);
      expect(queues.drain('a')).toMatchObject([{ item: 'a1' }]);
      queues.finish('a');
      queues.add('a', 'a2');
      expect(take()).toBe('b0');
      queues.finish('b');
      expect(take()).toBe('b1');
      queues.finish('b');
      expect(take()).toBe(3000);
      clock.advance(3000);
      expect(queues.pauseOf('a')).toBeUndefined();
      expect(take()).toBe('a2');
    });

    it('counts hosts by state, and remembers an idle failing host a while after its pause', () => {
      const { clock, queues, take } = setup({ delayMs: 0 });
      queues.add('a', 'a0');
      queues.add('b', 'b0');
      queues.add('c', 'c0');
      expect([take(), take(), take()]).toEqual(['a0', 'b0', 'c0']);
      for (let i = 0; i < 3; i++) failing(queues, clock, 'a', true);
      failing(queues, clock, 'b');
      for (const k of ['a', 'b', 'c']) queues.finish(k);
      expect(queues.hostStates()).toEqual({ backoff: 1, down: 1 });
      // c is healthy and idle: forgotten at once; a (down, 60 s pause) and b are remembered.
      expect(queues.queueCount).toBe(2);
      clock.advance(60_000);
      take();
      expect(queues.queueCount).toBe(2);
      expect(queues.pauseOf('a')).toBeUndefined();
      clock.advance(10 * 60_000);
      take();
      expect(queues.queueCount).toBe(0);
    });
  });
});

describe('politeness carried to another fetcher (an elastic member, issue 45)', () => {
  it('a new set of queues fetches a host no sooner than its delay from the last fetch of the old one', () => {
    const old = setup();
    old.queues.add('a', 'a1');
    old.queues.add('b', 'b1');
    expect([old.take(), old.take()]).toEqual(['a1', 'b1']);
    old.clock.set(100);
    old.queues.finish('a');
    old.queues.setCrawlDelay('b', 5000); // robots.txt's Crawl-delay, learnt during the fetch
    old.clock.set(300);
    old.queues.finish('b');
    old.clock.set(400);
    const carried = old.queues.politeness();
    expect(carried).toEqual([
      { key: 'a', notBefore: 1100, delayMs: 1000 },
      { key: 'b', notBefore: 5300, delayMs: 5000 },
    ]);
    expect(old.queues.maxDelayMs()).toBe(5000);

    const next = setup();
    next.clock.set(400);
    next.queues.remember(carried);
    next.queues.add('a', 'a2');
    next.queues.add('b', 'b2');
    next.queues.add('c', 'c1');
    expect(next.take()).toBe('c1');
    expect(next.take()).toBe(700);
    next.clock.set(1100);
    expect(next.take()).toBe('a2');
    expect(next.take()).toBe(4200);
    next.clock.set(5300);
    expect(next.take()).toBe('b2');
    // The host's Crawl-delay goes on too.
    next.queues.finish('b');
    expect(next.queues.politeness().find((h) => h.key === 'b')).toEqual({
      key: 'b',
      notBefore: 10_300,
      delayMs: 5000,
    });
  });

  it('a remembered host whose delay ran out is forgotten like any idle queue', () => {
    const { clock, queues } = setup();
    queues.remember([{ key: 'a', notBefore: 500, delayMs: 1000 }]);
    expect(queues.queueCount).toBe(1);
    clock.set(600);
    expect(queues.take()).toEqual({ waitMs: undefined });
    expect(queues.queueCount).toBe(0);
    expect(queues.politeness()).toEqual([]);
  });
});
