import { describe, expect, it } from 'vitest';
import { timeOption } from '../../../src/cli/time-option.js';

const NOW = Date.parse('2026-03-10T12:00:00.000Z');

describe('--since and --until values', () => {
  it.each([
    ['2026-01-31', '2026-01-31T00:00:00.000Z'],
    ['2026-01-31T08:15:00Z', '2026-01-31T08:15:00.000Z'],
    ['2026-01-31T08:15', '2026-01-31T08:15:00.000Z'],
    ['2026-01-31T08:15:30.250+02:00', '2026-01-31T06:15:30.250Z'],
    ['2024-02-29', '2024-02-29T00:00:00.000Z'],
  ])('reads the ISO-8601 %s as %s', (value, expected) => {
    expect(timeOption('since', value, NOW)).toBe(expected);
  });

  it.each([
    ['30m', '2026-03-10T11:30:00.000Z'],
    ['2h', '2026-03-10T10:00:00.000Z'],
    ['1d', '2026-03-09T12:00:00.000Z'],
    ['1w', '2026-03-03T12:00:00.000Z'],
  ])('reads the time ago %s as %s', (value, expected) => {
    expect(timeOption('since', value, NOW)).toBe(expected);
  });

  it.each([
    ['now', '2026-03-10T12:00:00.000Z'],
    ['+1h', '2026-03-10T13:00:00.000Z'],
    ['+2d', '2026-03-12T12:00:00.000Z'],
  ])('reads now and the time ahead %s as %s (crawler urls --due-before +1h)', (value, expected) => {
    expect(timeOption('due-before', value, NOW)).toBe(expected);
  });

  it.each(['yesterday', '2026-13-45', '2026-02-30', '2025-02-29', '2026-01-31T25:00', '', '1y', '-2h'])(
    'refuses %j, naming the option and the forms it accepts',
    (value) => {
      expect(() => timeOption('since', value, NOW)).toThrow(
        new RegExp(
          `^--since "${value}" is not a time: give an ISO-8601 date .* a time ago \\(30m, 2h, 1d, 1w\\), now, or a time ahead \\(\\+1h\\)$`,
        ),
      );
    },
  );
});
