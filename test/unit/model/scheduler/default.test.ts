import { describe, expect, it } from 'vitest';
import {
  createScheduler,
  DefaultScheduler,
  parseIntervalRules,
} from '../../../../src/model/scheduler/index.js';
import type { Status } from '../../../../src/model/status.js';
import { ManualClock } from '../../../../src/util/clock.js';
import { ConfigError } from '../../../../src/util/errors.js';
import { config, MIN, md, T0 } from '../support.js';

function scheduler(entries: Record<string, unknown> = {}) {
  const clock = new ManualClock(T0);
  return createScheduler(config(entries), clock);
}
/** Minutes from now, or null for never. */
function minutes(s: ReturnType<typeof scheduler>, status: Status, m = md()): number | null {
  const next = s.schedule(status, m).nextFetchDate;
  return next === null ? null : (next - T0) / MIN;
}

describe('DefaultScheduler with the default config', () => {
  it('FETCHED and REDIRECTION in 1440 minutes, FETCH_ERROR in 120, ERROR never, DISCOVERED now', () => {
    const s = scheduler();
    expect(s).toBeInstanceOf(DefaultScheduler);
    expect(minutes(s, 'FETCHED')).toBe(1440);
    expect(minutes(s, 'REDIRECTION')).toBe(1440);
    expect(minutes(s, 'FETCH_ERROR')).toBe(120);
    expect(minutes(s, 'ERROR')).toBeNull();
    expect(minutes(s, 'DISCOVERED')).toBe(0);
  });

  it('names the rule that decided', () => {
    const s = scheduler();
    expect(s.schedule('FETCHED', md()).rule).toBe('fetchInterval.default');
    expect(s.schedule('FETCH_ERROR', md()).rule).toBe('fetchInterval.fetch.error');
    expect(s.schedule('ERROR', md()).rule).toBe('fetchInterval.error');
    expect(s.schedule('DISCOVERED', md()).rule).toBe('DISCOVERED: due now');
  });

  it('-1 means never for every interval, a positive ERROR interval retries', () => {
    expect(minutes(scheduler({ 'fetchInterval.default': -1 }), 'FETCHED')).toBeNull();
    expect(minutes(scheduler({ 'fetchInterval.fetch.error': -1 }), 'FETCH_ERROR')).toBeNull();
    expect(minutes(scheduler({ 'fetchInterval.error': 44640 }), 'ERROR')).toBe(44640);
  });

  it('reads the time from its clock', () => {
    const clock = new ManualClock(T0);
    const s = createScheduler(config(), clock);
    clock.advanceMinutes(7);
    expect(s.schedule('FETCH_ERROR', md()).nextFetchDate).toBe(T0 + 127 * MIN);
  });
});

describe("StormCrawler's DefaultSchedulerTest", () => {
  it('a status-specific custom interval beats the generic one for that status only', () => {
    const s = scheduler({
      'fetchInterval.FETCHED.testKey=someValue': 360,
      'fetchInterval.testKey=someValue': 3600,
    });
    const m = md({ testKey: 'someValue', 'fetch.statusCode': '200' });
    expect(minutes(s, 'FETCHED', m)).toBe(360);
    expect(minutes(s, 'ERROR', m)).toBe(3600);
  });

  it('a dotted metadata key works after a status', () => {
    const s = scheduler({ 'fetchInterval.FETCHED.testKey.key2=someValue': 360 });
    expect(minutes(s, 'FETCHED', md({ 'testKey.key2': 'someValue' }))).toBe(360);
  });

  it('an unknown status is rejected at start-up, naming the key', () => {
    expect(() => scheduler({ 'fetchInterval.DODGYSTATUSNAME.testKey=someValue': 360 })).toThrow(ConfigError);
    expect(() => scheduler({ 'fetchInterval.DODGYSTATUSNAME.testKey=someValue': 360 })).toThrow(
      'key "fetchInterval.DODGYSTATUSNAME.testKey=someValue": "DODGYSTATUSNAME" is not a status',
    );
  });

  it('fetchInterval.error -1 gives ERROR no date', () => {
    expect(minutes(scheduler({ 'fetchInterval.error': -1 }), 'ERROR')).toBeNull();
  });

  it('a status-specific -1 custom interval means never', () => {
    const s = scheduler({ 'fetchInterval.FETCHED.isSpam=true': -1 });
    expect(minutes(s, 'FETCHED', md({ isSpam: 'true' }))).toBeNull();
    expect(minutes(s, 'FETCHED', md({ isSpam: 'false' }))).toBe(1440);
  });
});

describe('custom intervals', () => {
  it('isFeed=true with a custom 10-minute rule', () => {
    const s = scheduler({ 'fetchInterval.isFeed=true': 10 });
    const feed = md({ isFeed: 'true' });
    expect(minutes(s, 'FETCHED', feed)).toBe(10);
    expect(s.schedule('FETCHED', feed).rule).toBe('fetchInterval.isFeed=true');
    expect(minutes(s, 'FETCHED', md({ isFeed: 'false' }))).toBe(1440);
    expect(minutes(s, 'FETCHED')).toBe(1440);
  });

  it('a rule without a status applies to ERROR too, but never delays a first fetch (DISCOVERED)', () => {
    const s = scheduler({ 'fetchInterval.isFeed=true': 10 });
    expect(minutes(s, 'ERROR', md({ isFeed: 'true' }))).toBe(10);
    expect(minutes(s, 'DISCOVERED', md({ isFeed: 'true' }))).toBe(0);
    expect(s.schedule('DISCOVERED', md({ isFeed: 'true' })).rule).toBe('DISCOVERED: due now');
  });

  it('a rule that names DISCOVERED schedules it, as it asks', () => {
    const s = scheduler({ 'fetchInterval.isFeed=true': 10, 'fetchInterval.DISCOVERED.later=yes': 30 });
    expect(minutes(s, 'DISCOVERED', md({ isFeed: 'true', later: 'yes' }))).toBe(30);
    expect(minutes(s, 'DISCOVERED', md({ isFeed: 'true' }))).toBe(0);
  });

  it('matches any of the metadata values', () => {
    const s = scheduler({ 'fetchInterval.tag=news': 30 });
    expect(minutes(s, 'FETCHED', md({ tag: ['blog', 'news'] }))).toBe(30);
  });

  it('status-specific rules come before generic ones whatever the config order', () => {
    const s = scheduler({ 'fetchInterval.a=1': 5, 'fetchInterval.FETCHED.b=2': 7 });
    expect(minutes(s, 'FETCHED', md({ a: '1', b: '2' }))).toBe(7);
    expect(minutes(s, 'FETCH_ERROR', md({ a: '1', b: '2' }))).toBe(5);
  });

  it('among rules of the same kind, the first in config order wins', () => {
    const s = scheduler({ 'fetchInterval.a=1': 5, 'fetchInterval.b=2': 7 });
    expect(minutes(s, 'FETCHED', md({ b: '2', a: '1' }))).toBe(5);
    const reversed = scheduler({ 'fetchInterval.b=2': 7, 'fetchInterval.a=1': 5 });
    expect(minutes(reversed, 'FETCHED', md({ b: '2', a: '1' }))).toBe(7);
  });

  it("a rule for another status does not block a later generic rule (unlike StormCrawler's)", () => {
    const s = scheduler({ 'fetchInterval.FETCHED.a=1': 5, 'fetchInterval.b=2': 7 });
    expect(minutes(s, 'ERROR', md({ a: '1', b: '2' }))).toBe(7);
  });

  it('the last "=" separates the metadata key from the value', () => {
    const [rule] = parseIntervalRules([{ key: 'fetchInterval.FETCHED.a=b=c', value: 5 }]);
    expect(rule).toMatchObject({ status: 'FETCHED', metadataKey: 'a=b', metadataValue: 'c', minutes: 5 });
    expect(minutes(scheduler({ 'fetchInterval.FETCHED.a=b=c': 5 }), 'FETCHED', md({ 'a=b': 'c' }))).toBe(5);
  });

  it('a dotted metadata key without a status is a bad status, with a hint', () => {
    expect(() => scheduler({ 'fetchInterval.a.b=c': 5 })).toThrow(
      'key "fetchInterval.a.b=c": "a" is not a status (DISCOVERED, FETCHED, FETCH_ERROR, REDIRECTION, ERROR); ' +
        'a metadata key with dots needs a status first, e.g. "fetchInterval.FETCHED.a.b=c"',
    );
  });

  it('a lower-case status is rejected with a hint', () => {
    expect(() => scheduler({ 'fetchInterval.fetched.isFeed=true': 5 })).toThrow(
      'statuses are upper case: "FETCHED"',
    );
  });

  it('every bad rule is reported at once', () => {
    try {
      scheduler({ 'fetchInterval.X.a=1': 1, 'fetchInterval.Y.b=2': 2 });
      expect.unreachable();
    } catch (e) {
      expect((e as ConfigError).problems).toHaveLength(2);
    }
  });

  it('intervals beyond a century are rejected at start-up', () => {
    expect(() => scheduler({ 'fetchInterval.default': 1e12 })).toThrow('key "fetchInterval.default"');
    expect(() => scheduler({ 'fetchInterval.isFeed=true': -1e12 })).toThrow(
      'key "fetchInterval.isFeed=true"',
    );
  });
});

describe('scheduler.delay.mins', () => {
  it('sets the interval of one URL, for any status, before every rule', () => {
    const s = scheduler({ 'fetchInterval.isFeed=true': 10 });
    const m = md({ 'scheduler.delay.mins': '45', isFeed: 'true' });
    for (const status of ['DISCOVERED', 'FETCHED', 'FETCH_ERROR', 'REDIRECTION', 'ERROR'] as const) {
      expect(minutes(s, status, m)).toBe(45);
    }
    expect(s.schedule('FETCHED', m).rule).toBe('scheduler.delay.mins');
  });

  it('-1 means never, other negative values lie in the past', () => {
    expect(minutes(scheduler(), 'FETCHED', md({ 'scheduler.delay.mins': '-1' }))).toBeNull();
    expect(minutes(scheduler(), 'FETCHED', md({ 'scheduler.delay.mins': '-5' }))).toBe(-5);
  });

  it('a non-integer value is ignored, removed and reported; the rules apply instead', () => {
    const s = scheduler({ 'fetchInterval.isFeed=true': 10 });
    const m = md({ 'scheduler.delay.mins': '1.5', isFeed: 'true' });
    const result = s.schedule('FETCHED', m);
    expect((result.nextFetchDate! - T0) / MIN).toBe(10);
    expect(result.problem).toBe('scheduler.delay.mins "1.5" is not an integer; ignored and removed');
    expect(m.has('scheduler.delay.mins')).toBe(false);
  });
});
