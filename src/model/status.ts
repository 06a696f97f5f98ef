/**
 * The five states of a URL in the status index, stored as these exact strings (StormCrawler's
 * `Status` enum), so a status index written by StormCrawler reads the same here.
 */
export const STATUSES = ['DISCOVERED', 'FETCHED', 'FETCH_ERROR', 'REDIRECTION', 'ERROR'] as const;

export type Status = (typeof STATUSES)[number];

export function isStatus(value: unknown): value is Status {
  return typeof value === 'string' && (STATUSES as readonly string[]).includes(value);
}

/**
 * The status an HTTP answer leads to. 304 counts as FETCHED because the stored copy is still good;
 * every code that is neither 200, 304 nor another 3xx is a FETCH_ERROR (201, 204, 404 and 410
 * included): a URL only becomes ERROR after `max.fetch.errors` of them, so a page that is briefly
 * missing is not dropped for good on the first 404.
 */
export function statusFromHttpCode(code: number): Status {
  if (code === 200 || code === 304) return 'FETCHED';
  if (code >= 300 && code < 400) return 'REDIRECTION';
  return 'FETCH_ERROR';
}
