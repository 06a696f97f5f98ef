import { describe, expect, it } from 'vitest';
import type { Metadata } from '../../../src/model/metadata.js';
import type { StatusEvent, StatusUpdate, StatusUpdater } from '../../../src/model/status-updater.js';
import type { ManualClock } from '../../../src/util/clock.js';
import { iso, MIN, md, setup, stored, T0 } from './support.js';

const URL_A = 'https://site.test/a';

type Outcome = { code: number } | { exception: string } | { robots: true };

/**
 * Fetches URL_A once per outcome, the way the fetcher would: the metadata is what the status index
 * stored last time, plus what this fetch found. Returns the updates.
 */
function fetchSeries(u: StatusUpdater, clock: ManualClock, outcomes: readonly Outcome[]): StatusUpdate[] {
  let persisted: Metadata = md();
  let previous: StatusUpdate['status'] = 'DISCOVERED';
  const updates: StatusUpdate[] = [];
  for (const outcome of outcomes) {
    const m = persisted.copy();
    m.remove('fetch.exception');
    let status: StatusUpdate['status'];
    if ('code' in outcome) {
      m.setValue('fetch.statusCode', String(outcome.code));
      status =
        outcome.code === 200 || outcome.code === 304
          ? 'FETCHED'
          : outcome.code < 400
            ? 'REDIRECTION'
            : 'FETCH_ERROR';
    } else if ('exception' in outcome) {
      m.setValue('fetch.exception', outcome.exception);
      status = 'FETCH_ERROR';
    } else {
      m.setValue('error.cause', 'robots.txt');
      status = 'ERROR';
    }
    const update = stored(u, { url: URL_A, status, metadata: m, previousStatus: previous });
    updates.push(update);
    persisted = update.metadata;
    previous = update.status;
    if (update.nextFetchDate !== null) clock.set(update.nextFetchDate);
  }
  return updates;
}

const summary = (x: StatusUpdate) => ({
  status: x.status,
  count: x.metadata.getFirstValue('fetch.error.count'),
  cause: x.metadata.getFirstValue('error.cause'),
  next: x.nextFetchDate,
  delete: x.delete,
});

describe('fetch error counting', () => {
  for (const [what, outcome, evidence, cause] of [
    ['a 404', { code: 404 }, 'HTTP 404', 'http.404'],
    ['a 503', { code: 503 }, 'HTTP 503', 'http.503'],
    [
      'a timeout',
      { exception: 'Socket timeout fetching' },
      'Socket timeout fetching',
      'Socket timeout fetching',
    ],
  ] as const) {
    it(`${what} three times ends ERROR maxFetchErrors and is never rescheduled`, () => {
      const { u, clock } = setup();
      const [first, second, third] = fetchSeries(u, clock, [outcome, outcome, outcome]);
      expect(summary(first!)).toEqual({
        status: 'FETCH_ERROR',
        count: '1',
        cause,
        next: T0 + 120 * MIN,
        delete: false,
      });
      expect(summary(second!)).toEqual({
        status: 'FETCH_ERROR',
        count: '2',
        cause,
        next: T0 + 240 * MIN,
        delete: false,
      });
      expect(summary(third!)).toEqual({
        status: 'ERROR',
        count: undefined,
        cause: 'maxFetchErrors',
        next: null,
        delete: true,
      });
      expect(third!.transition.reason).toBe(`maxFetchErrors: ${evidence}`);
      expect(third!.transition.nextFetchDate).toBe('never');
    });
  }

  it('max.fetch.errors sets how many FETCH_ERRORs it takes', () => {
    const { u, clock } = setup({ 'max.fetch.errors': 1 });
    expect(fetchSeries(u, clock, [{ code: 500 }]).map((x) => x.status)).toEqual(['ERROR']);
    const five = setup({ 'max.fetch.errors': 5 });
    const statuses = fetchSeries(five.u, five.clock, Array(5).fill({ code: 500 })).map((x) => x.status);
    expect(statuses).toEqual(['FETCH_ERROR', 'FETCH_ERROR', 'FETCH_ERROR', 'FETCH_ERROR', 'ERROR']);
  });

  it('a URL failing twice and then answering 200 ends FETCHED without fetch.error.count', () => {
    const { u, clock } = setup();
    const updates = fetchSeries(u, clock, [{ code: 503 }, { exception: 'Unknown host' }, { code: 200 }]);
    const last = updates[2]!;
    expect(last.status).toBe('FETCHED');
    expect(last.metadata.has('fetch.error.count')).toBe(false);
    expect(last.fullMetadata.has('fetch.error.count')).toBe(false);
    expect(last.nextFetchDate).toBe(T0 + (240 + 1440) * MIN);
  });

  it('any status other than FETCH_ERROR resets the count', () => {
    const { u, clock } = setup();
    const updates = fetchSeries(u, clock, [{ code: 500 }, { code: 500 }, { code: 301 }, { code: 500 }]);
    expect(updates.map((x) => [x.status, x.metadata.getFirstValue('fetch.error.count')])).toEqual([
      ['FETCH_ERROR', '1'],
      ['FETCH_ERROR', '2'],
      ['REDIRECTION', undefined],
      ['FETCH_ERROR', '1'],
    ]);
  });

  it('a count that is not an integer restarts from 0 and is reported', () => {
    const { u } = setup();
    const x = stored(u, { url: URL_A, status: 'FETCH_ERROR', metadata: md({ 'fetch.error.count': 'two' }) });
    expect(x.metadata.getFirstValue('fetch.error.count')).toBe('1');
    expect(x.transition.problems).toEqual(['fetch.error.count "two" is not an integer; counted from 0']);
  });
});

describe('errors', () => {
  it('a robots denial goes straight to ERROR, never rescheduled, content deleted', () => {
    const { u, clock } = setup();
    const [x] = fetchSeries(u, clock, [{ robots: true }]);
    expect(summary(x!)).toEqual({
      status: 'ERROR',
      count: undefined,
      cause: 'robots.txt',
      next: null,
      delete: true,
    });
    expect(x!.transition.reason).toBe('robots.txt');
  });

  it('error.* is kept for FETCH_ERROR and ERROR, and cleared on FETCHED and REDIRECTION', () => {
    const errors = { 'error.cause': 'c', 'error.message': 'm', 'error.source': 's' };
    const persistAll = { 'metadata.persist': ['error.*'] };
    for (const status of ['FETCH_ERROR', 'ERROR'] as const) {
      const x = stored(setup(persistAll).u, { url: URL_A, status, metadata: md(errors) });
      expect(x.metadata.keySet('error.')).toEqual(['error.cause', 'error.message', 'error.source']);
    }
    for (const status of ['FETCHED', 'REDIRECTION'] as const) {
      const x = stored(setup(persistAll).u, { url: URL_A, status, metadata: md(errors) });
      expect(x.fullMetadata.keySet('error.')).toEqual([]);
    }
  });

  it('ERROR and REDIRECTION delete content; REDIRECTION not with status.updater.delete.redirections false', () => {
    const deletes = (entries: Record<string, unknown>, status: StatusEvent['status']) =>
      stored(setup(entries).u, { url: URL_A, status, metadata: md() }).delete;
    expect(deletes({}, 'ERROR')).toBe(true);
    expect(deletes({}, 'REDIRECTION')).toBe(true);
    expect(deletes({ 'status.updater.delete.redirections': false }, 'REDIRECTION')).toBe(false);
    expect(deletes({ 'status.updater.delete.redirections': false }, 'ERROR')).toBe(true);
    for (const status of ['DISCOVERED', 'FETCHED', 'FETCH_ERROR'] as const)
      expect(deletes({}, status)).toBe(false);
  });
});

describe('dates', () => {
  it('DISCOVERED gets discoveryDate, every other status lastProcessedDate, neither persisted by default', () => {
    const { u } = setup();
    const found = stored(u, { url: URL_A, status: 'DISCOVERED', metadata: md() });
    expect(found.fullMetadata.getFirstValue('discoveryDate')).toBe(iso(T0));
    expect(found.fullMetadata.has('lastProcessedDate')).toBe(false);
    expect(found.metadata.has('discoveryDate')).toBe(false);
    expect(found.transition.dropped).toEqual(['discoveryDate']);
    const fetched = stored(u, { url: URL_A, status: 'FETCHED', metadata: md() });
    expect(fetched.fullMetadata.getFirstValue('lastProcessedDate')).toBe(iso(T0));
    expect(fetched.transition.dropped).toEqual(['lastProcessedDate']);
  });

  it('they are stored when listed in metadata.persist', () => {
    const { u } = setup({ 'metadata.persist': ['discoveryDate', 'lastProcessedDate'] });
    expect(stored(u, { url: URL_A, status: 'DISCOVERED', metadata: md() }).metadata.toJSON()).toEqual({
      discoveryDate: [iso(T0)],
    });
  });

  it('DISCOVERED is due now', () => {
    const { u } = setup();
    expect(stored(u, { url: URL_A, status: 'DISCOVERED', metadata: md() }).nextFetchDate).toBe(T0);
  });
});

describe('the update', () => {
  it("leaves the event's metadata alone", () => {
    const { u } = setup();
    const m = md({ 'fetch.error.count': '1', 'error.cause': 'x' });
    stored(u, { url: URL_A, status: 'FETCHED', metadata: m });
    expect(m.toJSON()).toEqual({ 'fetch.error.count': ['1'], 'error.cause': ['x'] });
  });

  it('carries url, status, persisted metadata, nextFetchDate, delete and the transition record', () => {
    const { u } = setup();
    const m = md({ 'url.path': 'https://site.test/', depth: '1', 'fetch.statusCode': '301', _redirTo: '/b' });
    const x = stored(u, { url: URL_A, status: 'REDIRECTION', metadata: m, previousStatus: 'DISCOVERED' });
    expect(x).toMatchObject({
      url: URL_A,
      status: 'REDIRECTION',
      nextFetchDate: T0 + 1440 * MIN,
      delete: true,
    });
    expect(x.metadata.toJSON()).toEqual({
      'url.path': ['https://site.test/'],
      depth: ['1'],
      _redirTo: ['/b'],
    });
    expect(x.transition).toEqual({
      url: URL_A,
      appliedAt: iso(T0),
      previousStatus: 'DISCOVERED',
      status: 'REDIRECTION',
      nextFetchDate: iso(T0 + 1440 * MIN),
      reason: 'HTTP 301',
      scheduledBy: 'fetchInterval.default',
      metadata: x.metadata.toJSON(),
      dropped: ['fetch.statusCode', 'lastProcessedDate'],
      delete: true,
      problems: [],
    });
  });

  it('without previousStatus the record says null', () => {
    const { u } = setup();
    expect(
      stored(u, { url: URL_A, status: 'DISCOVERED', metadata: md() }).transition.previousStatus,
    ).toBeNull();
  });
});

describe('what the status index keeps whatever metadata.persist says', () => {
  const validators = {
    'protocol.etag': '"v1"',
    'protocol.last-modified': 'Sat, 02 Mar 2024 08:00:00 GMT',
    'protocol.content-type': 'text/html',
  };

  it('a FETCHED page keeps its ETag and Last-Modified for conditional GET (not other headers)', () => {
    const { u } = setup({ 'metadata.persist': [] });
    const x = stored(u, { url: URL_A, status: 'FETCHED', metadata: md(validators) });
    expect(x.metadata.toJSON()).toEqual({
      'protocol.etag': ['"v1"'],
      'protocol.last-modified': ['Sat, 02 Mar 2024 08:00:00 GMT'],
    });
  });

  it('a page that turns ERROR or REDIRECTION forgets them: its content is gone, a 304 would lie', () => {
    const { u } = setup();
    for (const status of ['ERROR', 'REDIRECTION'] as const) {
      const x = stored(u, { url: URL_A, status, metadata: md(validators) });
      expect(x.metadata.getFirstValue('protocol.etag')).toBeUndefined();
      expect(x.metadata.getFirstValue('protocol.last-modified')).toBeUndefined();
    }
    const kept = stored(u, { url: URL_A, status: 'FETCH_ERROR', metadata: md(validators) });
    expect(kept.metadata.getFirstValue('protocol.etag')).toBe('"v1"');
  });

  it('http.conditional.get false keeps no validators (as StormCrawler, unless listed)', () => {
    const { u } = setup({ 'http.conditional.get': false });
    const x = stored(u, { url: URL_A, status: 'FETCHED', metadata: md(validators) });
    expect(x.metadata.getFirstValue('protocol.etag')).toBeUndefined();
  });

  it('a body cut at a limit stays marked: http.trimmed and its reason', () => {
    const { u } = setup({ 'metadata.persist': [] });
    const x = stored(u, {
      url: URL_A,
      status: 'FETCHED',
      metadata: md({ 'http.trimmed': 'true', 'http.trimmed.reason': 'length' }),
    });
    expect(x.metadata.toJSON()).toEqual({ 'http.trimmed': ['true'], 'http.trimmed.reason': ['length'] });
  });
});
