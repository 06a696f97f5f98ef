import { describe, expect, it } from 'vitest';
import { type HealthPolicy, HostHealth, retryAfterMs } from '../../../src/fetch/host-health.js';
import { DEFER_CAUSE } from '../../../src/model/keys.js';

const policy: HealthPolicy = {
  factor: 2,
  maxDelayMs: 8000,
  maxRetryAfterMs: 30_000,
  downAfter: 3,
  downBackoffMs: 60_000,
  downMaxBackoffMs: 300_000,
};

const fail = (h: HostHealth, now: number, unreachable = false, startedAt = now) =>
  h.failure({
    now,
    startedAt,
    seedMs: 1000,
    unreachable,
    reason: unreachable ? 'Connection refused' : 'HTTP 503',
  });

describe('host health', () => {
  it('failures in a row double the delay up to the cap; successes halve it back to the queue delay', () => {
    const h = new HostHealth(policy);
    expect(h.state).toBe('ok');
    expect(h.delayMs(1000)).toBe(1000);
    const delays: number[] = [];
    for (let i = 0; i < 5; i++) {
      fail(h, i);
      delays.push(h.delayMs(1000));
    }
    expect(delays).toEqual([2000, 4000, 8000, 8000, 8000]);
    expect(h.state).toBe('backoff');
    const back: number[] = [];
    for (let i = 0; i < 3; i++) {
      h.success(1000);
      back.push(h.delayMs(1000));
    }
    expect(back).toEqual([4000, 2000, 1000]);
    expect(h.state).toBe('ok');
  });

  it('never goes below the queue delay (a long Crawl-delay stays)', () => {
    const h = new HostHealth(policy);
    fail(h, 0);
    expect(h.delayMs(20_000)).toBe(20_000);
  });

  it('the first change of state is reported, later failures of the same state are not a change', () => {
    const h = new HostHealth(policy);
    expect(fail(h, 0)).toMatchObject({ from: 'ok', to: 'backoff', probeFailed: false });
    expect(fail(h, 1)).toMatchObject({ from: 'backoff', to: 'backoff' });
    expect(h.success(1000)).toMatchObject({ from: 'backoff', to: 'backoff' });
  });

  it('downAfter unreachable failures in a row make the host down and paused for downBackoffMs', () => {
    const h = new HostHealth(policy);
    expect(fail(h, 0, true).paused).toBeUndefined();
    expect(fail(h, 1, true).to).toBe('backoff');
    const change = fail(h, 2, true);
    expect(change).toMatchObject({ from: 'backoff', to: 'down' });
    expect(change.paused).toMatchObject({ until: 60_002, cause: DEFER_CAUSE.hostDown });
    expect(change.paused!.message).toMatch(/Connection refused 3 times in a row/);
    expect(h.pausedAt(60_001)).toBe(change.paused);
    expect(h.pausedAt(60_002)).toBeUndefined();
  });

  it('an answer, even a 5xx, breaks the run of unreachable failures', () => {
    const h = new HostHealth(policy);
    fail(h, 0, true);
    fail(h, 1, true);
    fail(h, 2, false);
    fail(h, 3, true);
    expect(fail(h, 4, true).to).toBe('backoff');
    expect(fail(h, 5, true).to).toBe('down');
  });

  it('each failed probe doubles the pause up to the cap; fetches started before the host went down change nothing', () => {
    const h = new HostHealth(policy);
    for (let i = 0; i < 3; i++) fail(h, i, true);
    // A fetch that was already running when the host went down.
    expect(fail(h, 10, true, 1)).toMatchObject({ from: 'down', to: 'down', probeFailed: false });
    expect(h.pausedAt(10)?.until).toBe(60_002);
    const pauses: number[] = [];
    let now = 60_002;
    for (let i = 0; i < 4; i++) {
      const c = fail(h, now, true);
      expect(c).toMatchObject({ from: 'down', to: 'down', probeFailed: true });
      pauses.push(c.paused!.until - now);
      now = c.paused!.until;
    }
    expect(pauses).toEqual([120_000, 240_000, 300_000, 300_000]);
  });

  it('a probe that gets any answer ends the down state; the delay then comes down step by step', () => {
    const h = new HostHealth(policy);
    for (let i = 0; i < 3; i++) fail(h, i, true);
    expect(h.success(1000)).toMatchObject({ from: 'down', to: 'backoff' });
    expect(h.downPauseMs).toBe(0);
    expect(h.delayMs(1000)).toBe(4000);
    const down = new HostHealth(policy);
    for (let i = 0; i < 3; i++) fail(down, i, true);
    expect(fail(down, 70_000, false)).toMatchObject({ from: 'down', to: 'backoff', probeFailed: false });
  });

  it('downAfter 0 never makes a host down', () => {
    const h = new HostHealth({ ...policy, downAfter: 0 });
    for (let i = 0; i < 10; i++) fail(h, i, true);
    expect(h.state).toBe('backoff');
    expect(h.pausedAt(10)).toBeUndefined();
  });

  it('Retry-After pauses the host for its value, capped by maxRetryAfterMs, and counts as a failure', () => {
    const h = new HostHealth(policy);
    const c = h.retryAfter({ now: 0, startedAt: 0, seedMs: 1000, retryAfterMs: 3000, reason: 'HTTP 429' });
    expect(c).toMatchObject({ from: 'ok', to: 'backoff' });
    expect(c.paused).toMatchObject({ until: 3000, cause: DEFER_CAUSE.retryAfter });
    expect(h.delayMs(1000)).toBe(2000);
    const long = h.retryAfter({
      now: 10,
      startedAt: 10,
      seedMs: 1000,
      retryAfterMs: 3_600_000,
      reason: 'HTTP 503',
    });
    expect(long.paused!.until).toBe(30_010);
    expect(long.paused!.message).toMatch(/capped by fetcher.max.retry.after/);
  });
});

describe('Retry-After values', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');
  it.each([
    ['3', 3000],
    [' 120 ', 120_000],
    ['0', 0],
    ['Wed, 01 Jan 2025 00:00:10 GMT', 10_000],
    ['Tue, 31 Dec 2024 23:00:00 GMT', 0],
  ])('%j is %i ms', (value, ms) => {
    expect(retryAfterMs(value, now)).toBe(ms);
  });

  it.each([undefined, '', 'soon', '-5', '1.5'])('%j is not a Retry-After', (value) => {
    expect(retryAfterMs(value, now)).toBeUndefined();
  });
});
