import { CrawlerError } from '../util/errors.js';

const UNIT_MS: Record<string, number> = {
  m: 60_000,
  min: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * A time option (`--since`, `--until`) as an ISO-8601 instant in UTC: an ISO-8601 date or date-time
 * (UTC unless it has an offset), a time ago such as `30m`, `2h`, `1d`, `1w`, `now`, or a time ahead
 * such as `+2h` (`crawler urls --due-before +1h`: due within the hour). Anything else, an
 * impossible date (2026-13-45, 2026-02-30) included, is refused with a message naming the option:
 * read as text it would silently match nothing.
 */
export function timeOption(option: string, value: string, now: number): string {
  const v = value.trim();
  if (v.toLowerCase() === 'now') return new Date(now).toISOString();
  const ago = /^(\+)?(\d+)\s*(m|min|h|d|w)$/i.exec(v);
  if (ago) {
    const ms = Number(ago[2]) * UNIT_MS[ago[3]!.toLowerCase()]!;
    return new Date(ago[1] ? now + ms : now - ms).toISOString();
  }
  const m = ISO.exec(v);
  if (m) {
    const [, y, mo, d, h = '00', mi = '00', s = '00', zone] = m;
    const t = Date.parse(`${y}-${mo}-${d}T${h}:${mi}:${s}${v.match(/\.\d+/)?.[0] ?? ''}${zone ?? 'Z'}`);
    // Date.parse rolls 2026-02-30 over to March; a date that does not round-trip does not exist.
    const check = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
    const exists =
      check.getUTCFullYear() === Number(y) &&
      check.getUTCMonth() === Number(mo) - 1 &&
      check.getUTCDate() === Number(d) &&
      Number(h) < 24 &&
      Number(mi) < 60 &&
      Number(s) < 60;
    if (!Number.isNaN(t) && exists) return new Date(t).toISOString();
  }
  throw new CrawlerError(
    'BAD_OPTION',
    `--${option} "${value}" is not a time: give an ISO-8601 date or date-time (2026-01-31, ` +
      '2026-01-31T08:00:00Z), a time ago (30m, 2h, 1d, 1w), now, or a time ahead (+1h)',
  );
}
