import { describe, expect, it } from 'vitest';
import { isoDate, parseInstant, parseInteger, roundDate } from '../../../src/model/values.js';

const at = (s: string) => Date.parse(s);

describe('parseInteger reads integers as Java does', () => {
  it('accepts a sign and digits', () => {
    expect(parseInteger('42')).toBe(42);
    expect(parseInteger('+7')).toBe(7);
    expect(parseInteger('-1')).toBe(-1);
    expect(parseInteger('007')).toBe(7);
  });

  it('rejects decimals, spaces, empty strings and values beyond 32 bits', () => {
    for (const v of ['5.0', ' 5', '5 ', '', 'abc', '1e3', '0x10', '2147483648', undefined]) {
      expect(parseInteger(v)).toBeUndefined();
    }
    expect(parseInteger('2147483647')).toBe(2147483647);
    expect(parseInteger('-2147483648')).toBe(-2147483648);
  });
});

describe('parseInstant reads ISO-8601 instants', () => {
  it('accepts Z, offsets and fractions of up to 9 digits', () => {
    expect(parseInstant('2025-07-01T10:11:12Z')).toBe(at('2025-07-01T10:11:12.000Z'));
    expect(parseInstant('2025-07-01T10:11:12.345Z')).toBe(at('2025-07-01T10:11:12.345Z'));
    expect(parseInstant('2025-07-01T10:11:12.345678912Z')).toBe(at('2025-07-01T10:11:12.345Z'));
    expect(parseInstant('2025-07-01T12:11:12+02:00')).toBe(at('2025-07-01T10:11:12.000Z'));
    expect(parseInstant('2025-07-01T08:41:12-01:30')).toBe(at('2025-07-01T10:11:12.000Z'));
  });

  it('rejects dates without time, zone or seconds, and days that do not exist', () => {
    for (const v of [
      '2025-07-01',
      '2025-07-01T10:11:12',
      '2025-07-01T10:11Z',
      '2025-02-30T00:00:00Z',
      '2025-13-01T00:00:00Z',
      '2025-07-01T24:00:00Z',
      'Tue, 01 Jul 2025 10:11:12 GMT',
      'tomorrow',
      '',
    ]) {
      expect(parseInstant(v), v).toBeUndefined();
    }
  });
});

describe('roundDate rounds half-up on the next smaller field', () => {
  it('to the second at 500 ms', () => {
    expect(isoDate(roundDate(at('2025-01-01T00:00:10.499Z'), 'SECOND'))).toBe('2025-01-01T00:00:10.000Z');
    expect(isoDate(roundDate(at('2025-01-01T00:00:10.500Z'), 'SECOND'))).toBe('2025-01-01T00:00:11.000Z');
    expect(isoDate(roundDate(at('2025-01-01T23:59:59.999Z'), 'SECOND'))).toBe('2025-01-02T00:00:00.000Z');
  });

  it('to the minute at 30 seconds, ignoring the milliseconds', () => {
    expect(isoDate(roundDate(at('2025-01-01T12:00:29.999Z'), 'MINUTE'))).toBe('2025-01-01T12:00:00.000Z');
    expect(isoDate(roundDate(at('2025-01-01T12:00:30.000Z'), 'MINUTE'))).toBe('2025-01-01T12:01:00.000Z');
  });

  it('to the hour at 30 minutes, ignoring the seconds', () => {
    expect(isoDate(roundDate(at('2025-01-01T12:29:59.999Z'), 'HOUR'))).toBe('2025-01-01T12:00:00.000Z');
    expect(isoDate(roundDate(at('2025-01-01T12:30:00.000Z'), 'HOUR'))).toBe('2025-01-01T13:00:00.000Z');
  });

  it('leaves whole units alone', () => {
    const t = at('2025-01-01T12:00:00.000Z');
    expect(roundDate(t, 'SECOND')).toBe(t);
    expect(roundDate(t, 'MINUTE')).toBe(t);
    expect(roundDate(t, 'HOUR')).toBe(t);
  });
});
