import { describe, expect, it } from 'vitest';
import type { TransitionRecord } from '../../../src/model/transition.js';
import { transitionDocument } from '../../../src/opensearch/transitions.js';

const record: TransitionRecord = {
  url: 'http://a.test/missing',
  appliedAt: '2026-12-06T12:00:00.000Z',
  previousStatus: 'DISCOVERED',
  status: 'FETCH_ERROR',
  nextFetchDate: '2026-12-06T14:00:00.000Z',
  reason: 'HTTP 404',
  scheduledBy: 'fetchInterval.fetch.error',
  metadata: { 'error.cause': ['http.404'], depth: ['1'] },
  dropped: ['fetch.statusCode'],
  delete: false,
  problems: [],
};

describe('transition documents', () => {
  it('hold the record, its host, the crawl (its status index) and a timestamp; metadata keys as in status documents', () => {
    const at = Date.UTC(2026, 11, 6, 12, 0, 1);
    expect(transitionDocument(record, at, 'status-b')).toEqual({
      ...record,
      metadata: { 'error%2Ecause': ['http.404'], depth: ['1'] },
      host: 'a.test',
      crawl: 'status-b',
      timestamp: '2026-12-06T12:00:01.000Z',
    });
  });

  it('keep an empty host for a malformed URL, still naming the crawl', () => {
    const doc = transitionDocument({ ...record, url: 'not a url' }, 0, 'status');
    expect(doc).toMatchObject({ host: '', crawl: 'status' });
  });
});
