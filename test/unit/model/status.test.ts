import { describe, expect, it } from 'vitest';
import { isStatus, STATUSES, statusFromHttpCode } from '../../../src/model/status.js';

describe('statuses', () => {
  it('are the five StormCrawler names', () => {
    expect(STATUSES).toEqual(['DISCOVERED', 'FETCHED', 'FETCH_ERROR', 'REDIRECTION', 'ERROR']);
    expect(isStatus('FETCHED')).toBe(true);
    expect(isStatus('fetched')).toBe(false);
    expect(isStatus(200)).toBe(false);
  });

  it('200 and 304 are FETCHED', () => {
    expect(statusFromHttpCode(200)).toBe('FETCHED');
    expect(statusFromHttpCode(304)).toBe('FETCHED');
  });

  it('every other 3xx is REDIRECTION', () => {
    for (const code of [300, 301, 302, 303, 307, 308, 399])
      expect(statusFromHttpCode(code)).toBe('REDIRECTION');
  });

  it('every other code is FETCH_ERROR, 404 and 410 included', () => {
    for (const code of [0, 100, 201, 204, 206, 299, 400, 401, 403, 404, 410, 429, 500, 503, 599, 999]) {
      expect(statusFromHttpCode(code)).toBe('FETCH_ERROR');
    }
  });
});
