import { describe, expect, it } from 'vitest';
import { AdaptiveScheduler, createScheduler } from '../../../../src/model/scheduler/index.js';
import { ManualClock } from '../../../../src/util/clock.js';
import { ConfigError } from '../../../../src/util/errors.js';
import { config, iso, MIN, md, T0 } from '../support.js';

function adaptive(entries: Record<string, unknown> = {}) {
  const clock = new ManualClock(T0);
  const s = createScheduler(config({ 'scheduler.class': 'AdaptiveScheduler', ...entries }), clock);
  return { s, clock };
}
const inMinutes = (next: number | null, now = T0) => (next === null ? null : (next - now) / MIN);

describe('AdaptiveScheduler', () => {
  it('is chosen by scheduler.class, StormCrawler class name included, and persists its own keys', () => {
    expect(adaptive().s).toBeInstanceOf(AdaptiveScheduler);
    const byJavaName = createScheduler(
      config({ 'scheduler.class': 'org.apache.stormcrawler.persistence.AdaptiveScheduler' }),
      new ManualClock(),
    );
    expect(byJavaName).toBeInstanceOf(AdaptiveScheduler);
    expect(byJavaName.ownKeys).toEqual([
      'signature',
      'fetchInterval',
      'signatureChangeDate',
      'last-modified',
    ]);
  });

  it('the first fetch is scheduled like the DefaultScheduler and remembers the interval', () => {
    const { s } = adaptive({ 'scheduler.adaptive.setLastModified': true });
    const m = md({ signature: 'aaa', 'fetch.statusCode': '200' });
    const result = s.schedule('FETCHED', m);
    expect(inMinutes(result.nextFetchDate)).toBe(1440);
    expect(result.rule).toBe('fetchInterval.default');
    expect(m.getFirstValue('fetchInterval')).toBe('1440');
    expect(m.getFirstValue('last-modified')).toBe(iso(T0));
  });

  it('an unchanged signature grows the interval by rate.incr', () => {
    const { s } = adaptive();
    const m = md({ signature: 'aaa', signatureOld: 'aaa', fetchInterval: '1440', 'fetch.statusCode': '200' });
    const result = s.schedule('FETCHED', m);
    expect(inMinutes(result.nextFetchDate)).toBe(2160);
    expect(result.rule).toBe('adaptive: signature unchanged');
    expect(m.getFirstValue('fetchInterval')).toBe('2160');
    expect(m.has('signatureOld')).toBe(false);
    expect(m.getFirstValue('signatureChangeDate')).toBe(iso(T0));
  });

  it('a changed signature moves the interval towards the minimum and records the change', () => {
    const { s } = adaptive({ 'scheduler.adaptive.setLastModified': true });
    const m = md({
      signature: 'bbb',
      signatureOld: 'aaa',
      fetchInterval: '1440',
      signatureChangeDate: '2024-01-01T00:00:00.000Z',
      'fetch.statusCode': '200',
    });
    const result = s.schedule('FETCHED', m);
    expect(inMinutes(result.nextFetchDate)).toBe(750); // 0.5 * 1440 + 0.5 * 60
    expect(result.rule).toBe('adaptive: signature changed');
    expect(m.getFirstValue('signatureChangeDate')).toBe(iso(T0));
    expect(m.getFirstValue('last-modified')).toBe(iso(T0));
  });

  it('a 304 counts as unchanged and keeps the change date', () => {
    const { s } = adaptive();
    const m = md({
      fetchInterval: '100',
      signatureChangeDate: '2024-01-01T00:00:00.000Z',
      'fetch.statusCode': '304',
    });
    const result = s.schedule('FETCHED', m);
    expect(inMinutes(result.nextFetchDate)).toBe(150);
    expect(result.rule).toBe('adaptive: not modified (304)');
    expect(m.getFirstValue('signatureChangeDate')).toBe('2024-01-01T00:00:00.000Z');
  });

  it('stays within min and max', () => {
    const { s } = adaptive();
    const grow = md({ signature: 'a', signatureOld: 'a', fetchInterval: '20000' });
    expect(inMinutes(s.schedule('FETCHED', grow).nextFetchDate)).toBe(20160);
    const shrink = md({ signature: 'a', signatureOld: 'b', fetchInterval: '61' });
    expect(inMinutes(s.schedule('FETCHED', shrink).nextFetchDate)).toBe(60);
    const below = md({ signature: 'a', signatureOld: 'a', fetchInterval: '10' });
    expect(inMinutes(s.schedule('FETCHED', below).nextFetchDate)).toBe(60);
  });

  it('adapts a page step by step as it changes or not', () => {
    const { s, clock } = adaptive();
    const m = md({ signature: 'v1', 'fetch.statusCode': '200' });
    const seen: (number | null)[] = [];
    const fetch = (signature: string) => {
      // What a signature parse filter does: keep the old signature, write the new one.
      m.setValue('signatureOld', m.getFirstValue('signature')!);
      m.setValue('signature', signature);
      const now = clock.now();
      seen.push(inMinutes(s.schedule('FETCHED', m).nextFetchDate, now));
      clock.advanceMinutes(1);
    };
    seen.push(inMinutes(s.schedule('FETCHED', m).nextFetchDate));
    fetch('v1');
    fetch('v1');
    fetch('v2');
    fetch('v3');
    expect(seen).toEqual([1440, 2160, 3240, 1650, 855]);
  });

  it('starts from a custom interval, and a custom "never" stays never', () => {
    const { s } = adaptive({
      'fetchInterval.isFeed=true': 10,
      'fetchInterval.FETCHED.isSpam=true': -1,
      'scheduler.adaptive.fetchInterval.min': 5,
    });
    const feed = md({ isFeed: 'true', signature: 'a', signatureOld: 'a' });
    expect(inMinutes(s.schedule('FETCHED', feed).nextFetchDate)).toBe(15);
    const spam = md({ isSpam: 'true', signature: 'a', signatureOld: 'a' });
    const result = s.schedule('FETCHED', spam);
    expect(result.nextFetchDate).toBeNull();
    expect(result.rule).toBe('fetchInterval.FETCHED.isSpam=true');
  });

  it('a stored interval that is not a number of minutes restarts from the configured one', () => {
    const { s } = adaptive();
    const m = md({ signature: 'a', signatureOld: 'a', fetchInterval: 'soon' });
    const result = s.schedule('FETCHED', m);
    expect(inMinutes(result.nextFetchDate)).toBe(2160);
    expect(result.problem).toBe('fetchInterval "soon" is not a number of minutes; restarted');
  });

  it('other statuses forget the adaptive state and fall back to the DefaultScheduler', () => {
    const { s } = adaptive();
    const state = {
      signature: 'a',
      signatureOld: 'a',
      fetchInterval: '999',
      signatureChangeDate: 'x',
      'last-modified': 'y',
    };
    const failing = md(state);
    expect(inMinutes(s.schedule('FETCH_ERROR', failing).nextFetchDate)).toBe(120);
    expect(failing.keySet()).toEqual(['last-modified']);
    const broken = md(state);
    expect(s.schedule('ERROR', broken).nextFetchDate).toBeNull();
    expect(broken.size).toBe(0);
  });

  it('rejects bounds that cannot work', () => {
    expect(() =>
      adaptive({ 'scheduler.adaptive.fetchInterval.min': 100, 'scheduler.adaptive.fetchInterval.max': 50 }),
    ).toThrow(ConfigError);
    expect(() => adaptive({ 'scheduler.adaptive.fetchInterval.rate.decr': 1.5 })).toThrow(
      'key "scheduler.adaptive.fetchInterval.rate.decr" has value 1.5; expected 0 to 1',
    );
  });
});
