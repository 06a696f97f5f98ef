/**
 * Metadata keys with a meaning to the crawl rules, named as StormCrawler names them so that status
 * documents, seeds files and configurations carry over.
 */
export const MD = {
  /** Consecutive FETCH_ERRORs; always persisted, removed by any other status. */
  fetchErrorCount: 'fetch.error.count',
  errorCause: 'error.cause',
  errorMessage: 'error.message',
  errorSource: 'error.source',
  /** Set by the status updater on DISCOVERED (ISO-8601); persisted only if listed. */
  discoveryDate: 'discoveryDate',
  /** Set by the status updater on every other status (ISO-8601); persisted only if listed. */
  lastProcessedDate: 'lastProcessedDate',
  /** An ISO-8601 instant: store the event with this nextFetchDate and skip every other rule. */
  storeAsIs: 'status.store.as.is.with.nextfetchdate',
  /** Per-URL interval in minutes (an integer), for any status; sitemaps use it for staggering. */
  delayMins: 'scheduler.delay.mins',
  /** The chain of pages that led to a URL, from the seed. */
  urlPath: 'url.path',
  /** Hops from the seed. */
  depth: 'depth',
  maxDepth: 'max.depth',
  fetchStatusCode: 'fetch.statusCode',
  fetchException: 'fetch.exception',
  /** The Location of a redirect, as sent. */
  redirTo: '_redirTo',
} as const;

/** `error.cause` keywords: stable, documented values that operators filter on. */
export const ERROR_CAUSE = {
  /** Set by the status updater when a URL reached `max.fetch.errors` consecutive FETCH_ERRORs. */
  maxFetchErrors: 'maxFetchErrors',
  /** robots.txt forbids the URL. */
  robots: 'robots.txt',
  /** robots.txt asks for a crawl delay above `fetcher.max.crawl.delay`. */
  crawlDelay: 'crawl_delay',
  malformedUrl: 'malformed URL',
} as const;
