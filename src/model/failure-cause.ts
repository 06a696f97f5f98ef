import { ERROR_CAUSE, ERROR_SOURCE, MD } from './keys.js';
import type { Metadata } from './metadata.js';
import type { Status } from './status.js';

/**
 * Every FETCH_ERROR and ERROR carries an `error.cause`, so that `crawler stats`, `crawler url` and the
 * dashboards' "by error.cause" panels count all of them. A stage that knows its cause sets it; for
 * the rest the status updater derives one, first of:
 * 1. error.source "content-type checking": `jsoup.treat.non.html.as.error` (the setting that refused it);
 * 2. another error.source (`content parsing`, `sitemap parsing`...) but `fetching`: that stage's name;
 * 3. `fetch.exception` (no answer: `Socket timeout fetching`...);
 * 4. `http.<code>` from `fetch.statusCode` (a 404 is `http.404`);
 * 5. `unspecified`.
 */
export function derivedErrorCause(md: Metadata): string {
  const source = md.getFirstValue(MD.errorSource);
  if (source === ERROR_SOURCE.contentType) return ERROR_CAUSE.nonHtmlContent;
  // "fetching" names no stage after the fetch: the answer itself says more.
  if (source && source !== ERROR_SOURCE.fetching) return source;
  const exception = md.getFirstValue(MD.fetchException);
  if (exception) return exception;
  const code = md.getFirstValue(MD.fetchStatusCode);
  if (code) return `http.${code}`;
  return 'unspecified';
}

/**
 * Keys a FETCH_ERROR or ERROR keeps in the status index whatever `metadata.persist` says: what
 * explains the failure (its cause, the HTTP status of the fetch, the content type that was refused).
 */
export const FAILURE_KEYS: readonly string[] = [MD.errorCause, MD.fetchStatusCode, MD.contentType];

export const isFailure = (status: Status) => status === 'FETCH_ERROR' || status === 'ERROR';
