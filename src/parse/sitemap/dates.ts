/**
 * Dates of sitemaps and feeds: the W3C Datetime profile of ISO-8601 used by `<lastmod>` (YYYY,
 * YYYY-MM, YYYY-MM-DD, then "T" hh:mm[:ss[.s+]] and a zone; a missing zone is read as UTC, as
 * crawler-commons does), and RFC 822 dates of RSS `<pubDate>`. Nothing here throws: an unreadable
 * date is undefined, and the entry is kept without `sitemap.lastModified`.
 */

const W3C =
  /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?)?)?)?$/i;

/** Milliseconds since the epoch, or undefined. */
export function w3cDate(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const s = value.trim();
  const m = W3C.exec(s);
  if (!m) return rfc822(s);
  const [year, month, day, hour, minute, second] = [1, 2, 3, 4, 5, 6].map((i) =>
    Number(m[i] ?? (i <= 3 ? 1 : 0)),
  ) as [number, number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 24 || minute > 59 || second > 60)
    return undefined;
  const millis = Number((m[7] ?? '').padEnd(3, '0').slice(0, 3));
  let t = Date.UTC(year, month - 1, day, hour, minute, Math.min(second, 59), millis);
  if (new Date(t).getUTCDate() !== day && hour < 24) return undefined;
  const zone = m[8];
  if (zone && zone.toUpperCase() !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    t -= sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4) || 0)) * 60_000;
  }
  return Number.isFinite(t) ? t : undefined;
}

// "Tue, 10 Jun 2003 04:00:00 GMT" and friends; Date.parse reads these consistently in V8.
const RFC822 = /^(?:[A-Za-z]{3},?\s+)?\d{1,2}\s+[A-Za-z]{3}\s+\d{2,4}\s+\d{1,2}:\d{2}/;

function rfc822(s: string): number | undefined {
  if (!RFC822.test(s)) return undefined;
  const t = Date.parse(s);
  return Number.isNaN(t) ? undefined : t;
}
