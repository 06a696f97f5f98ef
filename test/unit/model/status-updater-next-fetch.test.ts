import { describe, expect, it } from 'vitest';
import { MIN, md, setup, stored, T0 } from './support.js';

const URL_A = 'https://site.test/a';

describe('scheduling', () => {
  it('isFeed=true with a custom 10-minute rule, decided on metadata that is not persisted', () => {
    const { u } = setup({ 'fetchInterval.isFeed=true': 10, 'metadata.persist': [] });
    const x = stored(u, { url: URL_A, status: 'FETCHED', metadata: md({ isFeed: 'true' }) });
    expect(x.nextFetchDate).toBe(T0 + 10 * MIN);
    expect(x.transition.scheduledBy).toBe('fetchInterval.isFeed=true');
    expect(x.metadata.has('isFeed')).toBe(false);
    expect(x.transition.dropped).toContain('isFeed');
  });

  it('-1 means never: no nextFetchDate', () => {
    const { u } = setup({ 'fetchInterval.default': -1 });
    const x = stored(u, { url: URL_A, status: 'FETCHED', metadata: md() });
    expect(x.nextFetchDate).toBeNull();
    expect(x.transition.nextFetchDate).toBe('never');
  });

  it('a per-URL scheduler.delay.mins that is not an integer is ignored and reported, not thrown', () => {
    const { u } = setup();
    const x = stored(u, { url: URL_A, status: 'FETCHED', metadata: md({ 'scheduler.delay.mins': 'ten' }) });
    expect(x.nextFetchDate).toBe(T0 + 1440 * MIN);
    expect(x.transition.problems).toEqual([
      'scheduler.delay.mins "ten" is not an integer; ignored and removed',
    ]);
  });

  it("the scheduler's own keys are stored whatever metadata.persist says", () => {
    const { u } = setup({ 'scheduler.class': 'AdaptiveScheduler', 'metadata.persist': [] });
    const x = stored(u, {
      url: URL_A,
      status: 'FETCHED',
      metadata: md({ signature: 's', 'fetch.statusCode': '200' }),
    });
    expect(x.metadata.toJSON()).toEqual({ signature: ['s'], fetchInterval: ['1440'] });
  });
});

describe('rounding of nextFetchDate', () => {
  it('half-up to the second by default', () => {
    const { u, clock } = setup();
    clock.set(T0 + 499);
    expect(stored(u, { url: URL_A, status: 'FETCH_ERROR', metadata: md() }).nextFetchDate).toBe(
      T0 + 120 * MIN,
    );
    clock.set(T0 + 500);
    expect(stored(u, { url: URL_A, status: 'FETCH_ERROR', metadata: md() }).nextFetchDate).toBe(
      T0 + 120 * MIN + 1000,
    );
  });

  it('half-up to the minute or the hour', () => {
    const minute = setup({ 'status.updater.unit.round.date': 'minute' });
    minute.clock.set(T0 + 29_999);
    expect(stored(minute.u, { url: URL_A, status: 'FETCHED', metadata: md() }).nextFetchDate).toBe(
      T0 + 1440 * MIN,
    );
    minute.clock.set(T0 + 30_000);
    expect(stored(minute.u, { url: URL_A, status: 'FETCHED', metadata: md() }).nextFetchDate).toBe(
      T0 + 1441 * MIN,
    );
    const hour = setup({ 'status.updater.unit.round.date': 'HOUR' });
    hour.clock.set(T0 + 30 * MIN);
    expect(stored(hour.u, { url: URL_A, status: 'FETCHED', metadata: md() }).nextFetchDate).toBe(
      T0 + 25 * 60 * MIN,
    );
    hour.clock.set(T0 + 29 * MIN + 59_999);
    expect(stored(hour.u, { url: URL_A, status: 'FETCHED', metadata: md() }).nextFetchDate).toBe(
      T0 + 24 * 60 * MIN,
    );
  });
});

describe('status.store.as.is.with.nextfetchdate', () => {
  const AS_IS = 'status.store.as.is.with.nextfetchdate';

  it('the as-is date wins over everything', () => {
    const { u } = setup({ 'fetchInterval.isFeed=true': 10 });
    const when = '2030-05-06T07:08:09.123Z';
    const m = md({ [AS_IS]: when, 'fetch.error.count': '2', 'scheduler.delay.mins': '5', isFeed: 'true' });
    const failing = stored(u, { url: URL_A, status: 'FETCH_ERROR', metadata: m });
    expect(failing.status).toBe('FETCH_ERROR');
    expect(failing.nextFetchDate).toBe(Date.parse(when));
    expect(failing.metadata.toJSON()).toEqual({ 'fetch.error.count': ['2'], isFeed: ['true'] });
    expect(failing.fullMetadata.has('lastProcessedDate')).toBe(false);
    expect(failing.transition).toMatchObject({ reason: 'as-is', scheduledBy: AS_IS, nextFetchDate: when });

    const broken = stored(u, { url: URL_A, status: 'ERROR', metadata: md({ [AS_IS]: when }) });
    expect(broken).toMatchObject({ status: 'ERROR', delete: false, nextFetchDate: Date.parse(when) });
    const found = stored(u, { url: URL_A, status: 'DISCOVERED', metadata: md({ [AS_IS]: when }) });
    expect(found.fullMetadata.has('discoveryDate')).toBe(false);
  });

  it('an as-is date that does not parse is ignored, removed and reported; the rules apply', () => {
    const { u } = setup({ 'metadata.persist': [AS_IS] });
    const x = stored(u, { url: URL_A, status: 'FETCH_ERROR', metadata: md({ [AS_IS]: 'next tuesday' }) });
    expect(x.status).toBe('FETCH_ERROR');
    expect(x.nextFetchDate).toBe(T0 + 120 * MIN);
    expect(x.metadata.has(AS_IS)).toBe(false);
    expect(x.transition.problems).toEqual([
      `${AS_IS} "next tuesday" is not an ISO-8601 instant; ignored and removed`,
    ]);
  });
});
