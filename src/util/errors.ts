/**
 * Errors with stable codes. Codes end up in logs and, for URL-level failures, as `error.cause` or
 * `fetch.exception` keywords, so they never change once published.
 */
export class CrawlerError extends Error {
  constructor(
    readonly code: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** Invalid configuration; the message names every bad key, its value and what was expected. */
export class ConfigError extends CrawlerError {
  constructor(readonly problems: readonly string[]) {
    super(
      'CONFIG_INVALID',
      problems.length === 1 ? problems[0]! : `invalid configuration:\n  ${problems.join('\n  ')}`,
    );
  }
}

/** The cluster could not be reached or refused us; the message names the URL and the fix. */
export class ClusterError extends CrawlerError {}

export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
