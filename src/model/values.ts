/**
 * Parsing of the values that metadata carries as strings (integers, instants) and rounding of dates.
 * Nothing here throws: a value that does not parse gives `undefined`, and the caller decides what
 * bad input means, because the status updater must never crash on a URL's metadata.
 */

export type RoundUnit = 'SECOND' | 'MINUTE' | 'HOUR';

const INT = /^[+-]?\d+$/;
const INT32_MIN = -2_147_483_648;
const INT32_MAX = 2_147_483_647;

/**
 * Reads an integer the way Java's `Integer.parseInt` does, so that values written by StormCrawler
 * and by us agree: an optional sign and ASCII digits, nothing else ("5.0", " 5", "" are not integers),
 * within the 32-bit range.
 */
export function parseInteger(value: string | undefined): number | undefined {
  if (value === undefined || !INT.test(value)) return undefined;
  const n = Number(value);
  return n >= INT32_MIN && n <= INT32_MAX ? n : undefined;
}

// Java's Instant.parse: date, "T", time with seconds, an optional fraction of up to 9 digits, and
// "Z" or a numeric offset. Anything looser (a bare date, RFC 1123) is rejected rather than guessed.
const INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:(Z)|([+-])(\d{2}):(\d{2}))$/;

/** Milliseconds since the epoch of an ISO-8601 instant, or undefined if it is not one. */
export function parseInstant(value: string | undefined): number | undefined {
  const m = value === undefined ? null : INSTANT.exec(value);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const millis = Number((m[7] ?? '').padEnd(3, '0').slice(0, 3));
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return undefined;
  const local = Date.UTC(year, month - 1, day, hour, minute, second, millis);
  // Date.UTC rolls 2025-02-30 over into March; a day that does not exist is an error instead.
  if (new Date(local).getUTCDate() !== day) return undefined;
  const offsetMinutes = m[8] ? 0 : (m[9] === '-' ? -1 : 1) * (Number(m[10]) * 60 + Number(m[11]));
  return local - offsetMinutes * 60_000;
}

/** The one date format of the status index and the transition log: ISO-8601 UTC with milliseconds. */
export function isoDate(ms: number): string {
  // The same instants come again and again (now, and now + an interval, for every update of a
  // page): the last two formattings are kept, as a Date and its string cost more than comparisons.
  if (ms === isoMs[0]) return isoText[0]!;
  if (ms === isoMs[1]) return isoText[1]!;
  const text = new Date(ms).toISOString();
  isoMs[1] = isoMs[0]!;
  isoText[1] = isoText[0]!;
  isoMs[0] = ms;
  isoText[0] = text;
  return text;
}

const isoMs = [Number.NaN, Number.NaN];
const isoText = ['', ''];

const UNIT_MS: Record<RoundUnit, number> = { SECOND: 1000, MINUTE: 60_000, HOUR: 3_600_000 };

/**
 * Rounds half-up to the unit, deciding on the next smaller field only, as commons-lang
 * `DateUtils.round` does for StormCrawler: to the SECOND when the milliseconds are >= 500, to the
 * MINUTE when the seconds are >= 30 (12:00:29.999 rounds down), to the HOUR when the minutes are
 * >= 30. Times are UTC.
 */
export function roundDate(ms: number, unit: RoundUnit): number {
  const size = UNIT_MS[unit];
  const floor = Math.floor(ms / size) * size;
  const below = unit === 'SECOND' ? 1 : unit === 'MINUTE' ? 1000 : 60_000;
  const nextField = Math.floor((ms - floor) / below);
  const half = unit === 'SECOND' ? 500 : 30;
  return nextField >= half ? floor + size : floor;
}
