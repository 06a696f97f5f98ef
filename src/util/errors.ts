/**
 * The codes of the crawler's own errors, one closed list (as undici's lib/core/errors.js): they end
 * up in logs and exit messages, so they never change once published; add new ones, never rename.
 * A URL's failures have their own closed lists, which become its `error.cause` (model/keys.ts
 * ERROR_CAUSE) or `fetch.exception` (protocol/http/errors.ts FETCH_EXCEPTION).
 */
export const ERROR_CODES = [
  // Settings and arguments (exit 2).
  'CONFIG_INVALID',
  'BAD_OPTION',
  'BAD_ARGUMENT',
  'TOO_MANY_INSTANCES',
  'TOO_MANY_WORKERS',
  /** A command line a command cannot use (cli/command.ts UsageError). */
  'USAGE',
  /** Input a command cannot use before doing anything: a missing file, a seed that is no URL. */
  'BAD_INPUT',
  // The cluster.
  'CLUSTER_UNREACHABLE',
  'CLUSTER_REFUSED',
  'CLUSTER_CREDENTIALS',
  'INDEX_NOT_FOUND',
  /** The status index has a shard without an active copy: the spout waits (opensearch/spout). */
  'INDEX_RED',
  'EMBEDDED_START_FAILED',
  'PORT_TAKEN',
  // Sharing the status index.
  'SHARE_LEASED',
  'LEASE_FAILED',
  'LEASE_LOST',
  // Members of one crawl (crawler run --join).
  'SETTINGS_DIFFER',
  // The process and its parts.
  'PARSER_THREADS_UNAVAILABLE',
  'WORKER_KEEPS_DYING',
  // Parsing: the message becomes the URL's parse error (a sitemap or feed that is none).
  'SITEMAP_FORMAT',
  'FEED_FORMAT',
  // Documents: an answer of Tika past http.decoded.limit (becomes the error.cause tika.output.limit).
  'TIKA_OUTPUT_LIMIT',
  // Rendering, inside the renderer: each ends in FETCH_RENDER_FAILED ("Render failed").
  'RENDER_BROWSER_UNAVAILABLE',
  'RENDER_HUNG',
  'RENDER_TIMEOUT',
  // WARC output.
  'WARC_DIR_UNUSABLE',
  'WARC_CLOSE_FAILED',
  'WARC_INCOMPLETE',
  'WARC_UNREADABLE',
  'WARC_WRITE_FAILED',
  // A fetch without an HTTP answer: each becomes the URL's fetch.exception (FETCH_EXCEPTION).
  'FETCH_TIMEOUT',
  'FETCH_UNKNOWN_HOST',
  'FETCH_CONNECTION_REFUSED',
  'FETCH_CONNECTION_RESET',
  'FETCH_TLS',
  'FETCH_PROTOCOL',
  'FETCH_BLOCKED_ADDRESS',
  'FETCH_UNSUPPORTED_SCHEME',
  'FETCH_PROXY',
  'FETCH_ABORTED',
  'FETCH_RENDER_FAILED',
  /** Anything else: `Fetch error (CODE)` with the Node/undici code. */
  'FETCH_FAILED',
  'FETCH_CLOSED',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** An error of the crawler's own, with a code of ERROR_CODES. */
export class CrawlerError extends Error {
  constructor(
    readonly code: ErrorCode,
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
