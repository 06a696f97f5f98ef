import { describe, expect, it } from 'vitest';
import { FETCH_EXCEPTION, FetchException } from '../../../src/protocol/http/errors.js';
import { ERROR_CODES } from '../../../src/util/errors.js';

describe('error codes: one closed list', () => {
  it('names each code once', () => {
    expect(new Set(ERROR_CODES).size).toBe(ERROR_CODES.length);
  });

  it('each documented fetch failure has a code of the list, and becomes its fetch.exception', () => {
    for (const kind of Object.keys(FETCH_EXCEPTION) as (keyof typeof FETCH_EXCEPTION)[]) {
      const e = FetchException.of(kind, 'm');
      expect(ERROR_CODES).toContain(e.code);
      expect(e.fetchException).toBe(FETCH_EXCEPTION[kind]);
    }
  });
});
