import { describe, expect, it } from 'vitest';
import { DEFER_CAUSE, MD } from '../../../src/model/keys.js';
import { md, setup, stored } from './support.js';

const URL_A = 'https://site.test/a';
const WHEN = '2030-05-06T07:08:09.123Z';

const deferred = (extra: Record<string, string> = {}) =>
  md({
    [MD.storeAsIs]: WHEN,
    [MD.deferCause]: DEFER_CAUSE.hostDown,
    [MD.deferDate]: '2025-01-01T00:00:00.000Z',
    [MD.deferMessage]: 'Connection refused 3 times in a row',
    ...extra,
  });

describe('a deferred URL (status unchanged, stored as is, defer.* saying why)', () => {
  it('keeps its status, error count and the defer keys, persisted without being listed', () => {
    const { u } = setup();
    const x = stored(u, {
      url: URL_A,
      status: 'FETCH_ERROR',
      metadata: deferred({ [MD.fetchErrorCount]: '1' }),
    });
    expect(x.status).toBe('FETCH_ERROR');
    expect(x.storedAsIs).toBe(true);
    expect(x.nextFetchDate).toBe(Date.parse(WHEN));
    expect(x.metadata.toJSON()).toEqual({
      [MD.fetchErrorCount]: ['1'],
      [MD.deferCause]: [DEFER_CAUSE.hostDown],
      [MD.deferDate]: ['2025-01-01T00:00:00.000Z'],
      [MD.deferMessage]: ['Connection refused 3 times in a row'],
    });
    expect(x.transition.reason).toBe(`deferred: ${DEFER_CAUSE.hostDown}`);
  });

  it('a deferred DISCOVERED URL is written even when the DISCOVERED cache knows it', () => {
    const { u } = setup();
    u.acknowledged(URL_A);
    expect(u.apply({ url: URL_A, status: 'DISCOVERED', metadata: md() })).toBe('skipped-cached');
    const x = stored(u, { url: URL_A, status: 'DISCOVERED', metadata: deferred() });
    expect(x).toMatchObject({ status: 'DISCOVERED', storedAsIs: true, nextFetchDate: Date.parse(WHEN) });
  });

  it.each(['FETCHED', 'FETCH_ERROR', 'ERROR', 'REDIRECTION'] as const)(
    'the next update that is not a deferral (%s) removes the defer keys',
    (status) => {
      const { u } = setup();
      const m = md({
        [MD.deferCause]: DEFER_CAUSE.robotsUnavailable,
        [MD.deferDate]: '2025-01-01T00:00:00.000Z',
        [MD.deferMessage]: 'robots.txt unavailable (HTTP 503)',
      });
      const x = stored(u, { url: URL_A, status, metadata: m });
      expect(x.storedAsIs).toBe(false);
      for (const k of [MD.deferCause, MD.deferDate, MD.deferMessage])
        expect(x.fullMetadata.has(k)).toBe(false);
    },
  );

  it("the loop's typed deferral is written as the metadata key's would be: stored as is, defer.* saying why", () => {
    const { u } = setup();
    u.acknowledged(URL_A);
    const x = stored(u, {
      url: URL_A,
      status: 'DISCOVERED',
      metadata: md({ [MD.fetchErrorCount]: '1' }),
      deferral: {
        until: Date.parse(WHEN),
        cause: DEFER_CAUSE.hostDown,
        message: 'Connection refused 3 times in a row',
        now: Date.parse('2025-01-01T00:00:00.000Z'),
      },
    });
    expect(x).toMatchObject({ status: 'DISCOVERED', storedAsIs: true, nextFetchDate: Date.parse(WHEN) });
    expect(x.metadata.toJSON()).toEqual({
      [MD.fetchErrorCount]: ['1'],
      [MD.deferCause]: [DEFER_CAUSE.hostDown],
      [MD.deferDate]: ['2025-01-01T00:00:00.000Z'],
      [MD.deferMessage]: ['Connection refused 3 times in a row'],
    });
    expect(x.transition.reason).toBe(`deferred: ${DEFER_CAUSE.hostDown}`);
  });
});
