import { describe, expect, it } from 'vitest';
import { md, setup, stored, T0 } from '../support.js';

describe('a near-duplicate is refetched dedup.fetch.interval.factor times later', () => {
  it('stretches the interval of FETCHED duplicates only', () => {
    const { u } = setup();
    const dup = stored(u, {
      url: 'http://h/b',
      status: 'FETCHED',
      metadata: md({ 'duplicate.of': 'http://h/a' }),
    });
    expect(dup.nextFetchDate).toBe(T0 + 4 * 1440 * 60_000);
    expect(dup.transition.scheduledBy).toBe('fetchInterval.default x dedup.fetch.interval.factor 4');
    // Kept in the status index whatever metadata.persist says.
    expect(dup.metadata.getFirstValue('duplicate.of')).toBe('http://h/a');
    const plain = stored(u, { url: 'http://h/a', status: 'FETCHED', metadata: md() });
    expect(plain.nextFetchDate).toBe(T0 + 1440 * 60_000);
    const error = stored(u, {
      url: 'http://h/c',
      status: 'FETCH_ERROR',
      metadata: md({ 'duplicate.of': 'x' }),
    });
    expect(error.nextFetchDate).toBe(T0 + 120 * 60_000);
  });

  it('leaves intervals alone with dedup.mode off or a factor of 1', () => {
    for (const entries of [{ 'dedup.mode': 'off' }, { 'dedup.fetch.interval.factor': 1 }]) {
      const { u } = setup(entries);
      const dup = stored(u, { url: 'http://h/b', status: 'FETCHED', metadata: md({ 'duplicate.of': 'a' }) });
      expect(dup.nextFetchDate).toBe(T0 + 1440 * 60_000);
    }
  });
});
