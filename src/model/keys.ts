/**
 * Every metadata key the crawler reads or writes, in one place, named as StormCrawler names them so
 * that status documents, seeds files and configurations carry over. Any layer may import this file
 * (it imports nothing). Response headers are stored under `protocol.md.prefix` + their lowercased
 * name (`protocol.content-type`); those names are HTTP's, not listed here.
 */
export const MD = {
  // --- The status rules (src/model) ---
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
  /** A per-seed depth limit that outlinks inherit (MaxDepthFilter). */
  maxDepth: 'max.depth',

  // --- AdaptiveScheduler bookkeeping ---
  /** The page signature, written by a signature parse filter. */
  signature: 'signature',
  /** The previous signature, copied by that parse filter before it writes the new one. */
  signatureOld: 'signatureOld',
  /** The current interval in minutes. */
  fetchInterval: 'fetchInterval',
  /** When the signature last changed (ISO-8601). */
  signatureChangeDate: 'signatureChangeDate',
  /** Sent back as If-Modified-Since; only written with `scheduler.adaptive.setLastModified`. */
  lastModified: 'last-modified',

  // --- Written by the fetcher ---
  fetchStatusCode: 'fetch.statusCode',
  fetchByteLength: 'fetch.byteLength',
  fetchLoadingTime: 'fetch.loadingTime',
  fetchTimeInQueues: 'fetch.timeInQueues',
  /** The `fetch.exception` keyword of a fetch that got no answer (see protocol/http/errors.ts). */
  fetchException: 'fetch.exception',
  /** The absolute target of a redirect (HTTP or meta refresh). */
  redirTo: '_redirTo',
  /** "true" when the body was cut at a limit; the reason is in `trimmedReason`. */
  trimmed: 'http.trimmed',
  trimmedReason: 'http.trimmed.reason',
  /**
   * The validators of a response, stored after `protocol.md.prefix` as HTTP names them; kept for
   * conditional GET (`http.conditional.get`) and sent back as If-None-Match / If-Modified-Since.
   */
  etagHeader: 'etag',
  lastModifiedHeader: 'last-modified',
  /** "true"/"false": the host's robots.txt names sitemaps (SitemapFilter reads it). */
  foundSitemap: 'foundSitemap',

  // --- Deferrals: a URL the fetcher put back unfetched, due again later, not counted as an error ---
  /** A DEFER_CAUSE value. Always persisted; removed by the next update that is not a deferral. */
  deferCause: 'defer.cause',
  /** When the URL was put back (ISO-8601); its nextFetchDate says when it is tried again. */
  deferDate: 'defer.date',
  /** For the operator: what the host (or its robots.txt) did. */
  deferMessage: 'defer.message',

  // --- Per-URL overrides read by the fetcher and the protocol (set in seeds or by filters) ---
  /** Crawl delay of the URL's queue, ms. */
  crawlDelay: 'crawl.delay',
  /** Minimum delay of the URL's queue, ms. */
  crawlMinDelay: 'crawl.min.delay',
  /** Fetch threads of the URL's queue. */
  maxThreadsQueue: 'max.threads.queue',
  /** "true": send HEAD instead of GET. */
  httpMethodHead: 'http.method.head',
  /** Body limit in bytes for this URL (overrides http.content.limit). */
  httpContentLimit: 'http.content.limit',
  httpAccept: 'http.accept',
  httpAcceptLanguage: 'http.accept.language',
  /** "true"/"false": sitemap discovery for this URL's links (overrides sitemap.discovery). */
  sitemapDiscovery: 'sitemap.discovery',
  /** The address the URL's host resolved to, for partition.url.mode byIP. */
  ip: 'ip',

  // --- Written by the parsers ---
  title: 'parse.title',
  description: 'parse.description',
  keywords: 'parse.keywords',
  canonical: 'canonical',
  contentType: 'parse.Content-Type',
  contentEncoding: 'parse.Content-Encoding',
  parsedBy: 'parsed.by',
  noIndex: 'robots.noIndex',
  noFollow: 'robots.noFollow',
  noCache: 'robots.noCache',
  anchors: 'anchors',
  /** "true" on sitemaps and the URLs a sitemap index lists; "false" on pages. */
  isSitemap: 'isSitemap',
  sitemapLastModified: 'sitemap.lastModified',
  /** "true" on feeds (set by the feed parser, a seed, or an HTML page's <link rel="alternate">). */
  isFeed: 'isFeed',
  /** On the entries of a feed: title, publication date (ISO-8601) and description (as text, cut). */
  feedTitle: 'feed.title',
  feedPublishedDate: 'feed.publishedDate',
  feedDescription: 'feed.description',

  // --- WARC output: where an answer was archived; persisted only when listed in metadata.persist
  // (e.g. "warc.*"). With warc.date and warc.digest kept, a later 304 is written as a revisit that
  // names the capture it refers to.
  warcFile: 'warc.file',
  /** Byte offset of the response (or revisit) record in that file, and its compressed length. */
  warcOffset: 'warc.offset',
  warcLength: 'warc.length',
  warcDate: 'warc.date',
  warcDigest: 'warc.digest',

  // --- Rendering (src/render): set on pages rendered in a browser, describing that render ---
  /** "playwright" or "http": how this URL is fetched, whatever the rules and the adaptive choice say. */
  fetchWith: 'fetch.with',
  /** `rendered`, `timeout` (the DOM so far was kept) or `failed` (a sample that could not render). */
  renderOutcome: 'render.outcome',
  /** Why it was rendered: `fetch.with`, `rule:<id>`, `host` (its host's decision) or `sample`. */
  renderReason: 'render.reason',
  /** Requests of the page fetched for it, and refused (type, cap, URL or address filter). */
  renderSubrequests: 'render.subrequests',
  renderRefused: 'render.subrequests.refused',

  // --- Written by the parse filters (their default `key` params) ---
  domain: 'domain',
  format: 'format',
  collections: 'collections',
  lang: 'lang',

  // --- Near-duplicates and soft 404s (src/dedup, src/soft404) ---
  /** SimhashParseFilter: the 64-bit simhash of the main text, 16 hex digits (texts of 80+ tokens). */
  simhash: 'simhash',
  /** SimhashParseFilter: the exact signature of a short text's tokens, 16 hex digits. */
  simhashExact: 'simhash.exact',
  /** SimhashParseFilter: the number of tokens of the main text. */
  simhashTokens: 'simhash.tokens',
  /** SimhashParseFilter: the fingerprint without the words of the page's own URL (soft 404s). */
  simhashUrlBlind: 'simhash.urlblind',
  /** SimhashParseFilter: the MinHash signature of the main text's shingles (texts of 80+ tokens). */
  minhash: 'minhash',
  /**
   * SimhashParseFilter (main texts of 10+ tokens): the MinHash signature of the whole body's text
   * (fingerprint/body.ts): a duplicate's whole page must be alike too, not only its main text.
   */
  bodyMinhash: 'minhash.body',
  /** SimhashParseFilter, with `minhash.body`: the number of tokens of the whole body's text. */
  bodyTokens: 'body.tokens',
  /** A page whose main text shares 60-85% of its shingles with an indexed page's: that page's URL. Persisted. */
  similarTo: 'similar.to',
  /** With `similar.to`: the exact Jaccard similarity of the two main texts' word 3-shingles. Persisted. */
  similarSimilarity: 'similar.similarity',
  /** A near-duplicate: the URL of the page it duplicates (its canonical). Persisted. */
  duplicateOf: 'duplicate.of',
  /** A near-duplicate: the Hamming distance of its fingerprint to the canonical's. Persisted. */
  duplicateDistance: 'duplicate.distance',
  /** A near-duplicate: the exact Jaccard similarity of its main text to the canonical's. Persisted. */
  duplicateSimilarity: 'duplicate.similarity',
  /** A soft 404: what it was compared with and how close it came. Persisted. */
  soft404Evidence: 'soft404.evidence',
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
  /**
   * http.filter.ipaddress.exclude refused the address the host resolves to. The cause is the key:
   * a refusal by the crawl's own settings (see SETTING_CAUSES) is judged again when its URL is seeded again.
   */
  blockedAddress: 'http.filter.ipaddress.exclude',
  /**
   * ERROR: the content type is neither HTML nor text nor a document Tika reads, and
   * jsoup.treat.non.html.as.error is true (error.source "content-type checking"; parse.Content-Type
   * names the type).
   */
  nonHtmlContent: 'jsoup.treat.non.html.as.error',
  /** Neither http nor https. */
  unsupportedScheme: 'unsupported scheme',
  /** A compressed body decoded past http.decoded.limit: a decompression bomb, not parsed. */
  decodedSizeLimit: 'decoded size limit',
  /** A compressed body cut at http.content.limit after inflating past http.decoded.max.ratio. */
  inflationRatioLimit: 'inflation ratio limit',
  /** Content that claims to be text (or says nothing) but holds NUL bytes. */
  binaryContent: 'binary content',
  /** A 200 page that answers like the host's answer to URLs that cannot exist (FETCH_ERROR). */
  soft404: 'soft404',

  // --- Documents through Apache Tika (src/tika); error.source is "TIKA" ---
  /** FETCH_ERROR: Tika gave no answer within parser.tika.timeout. */
  tikaTimeout: 'tika.timeout',
  /** FETCH_ERROR: the connection to Tika broke while it held the document (it died or was killed). */
  tikaCrashed: 'tika.crashed',
  /** FETCH_ERROR: Tika could not be reached or started. */
  tikaUnavailable: 'tika.unavailable',
  /** FETCH_ERROR: Tika answered with an error status or something that is not its answer. */
  tikaServerError: 'tika.server.error',
  /** ERROR: the document is encrypted (password-protected); Tika cannot read it. */
  tikaEncrypted: 'tika.encrypted',
  /** ERROR: Tika cannot parse the document (corrupt, unsupported): it will not read it next time either. */
  tikaParseError: 'tika.parse.error',
  /** ERROR: the document was cut at http.content.limit; a cut document cannot be parsed. */
  tikaTrimmed: 'tika.trimmed',
  /** ERROR: Tika's answer for the document is larger than http.decoded.limit. */
  tikaOutputLimit: 'tika.output.limit',
} as const;

/**
 * The `error.cause` values that are refusals by this crawl's own settings, not facts about the web:
 * a URL so refused is judged again (made due now) when it is given again as a seed.
 */
export const SETTING_CAUSES: readonly string[] = [ERROR_CAUSE.blockedAddress, ERROR_CAUSE.nonHtmlContent];

/**
 * `defer.cause` keywords: why a URL was put back unfetched (status unchanged, due again later, no
 * fetch error counted). Stable, documented values that operators filter on.
 */
export const DEFER_CAUSE = {
  /** Its host failed to connect too many times in a row; it is tried again after the host's backoff. */
  hostDown: 'host.down',
  /** Its host answered 429 or 503 with a Retry-After the fetcher honours. */
  retryAfter: 'host.retry-after',
  /** Its host answered 429 without Retry-After: the host's delay grows. */
  tooManyRequests: 'host.too-many-requests',
  /** robots.txt answered 429 or 5xx, or could not be fetched: disallowed for now, not for good. */
  robotsUnavailable: 'robots.txt unavailable',
  /** It waited longer than fetcher.timeout.queue in its queue. */
  queueTimeout: 'fetcher.timeout.queue',
  /** Its answer could not be written to the WARC files (the crawl stops); due again at once. */
  archiveFailed: 'warc.write.failed',
} as const;

/** `error.source` values: the stage that ended a page (StormCrawler's names where it has them). */
export const ERROR_SOURCE = {
  /**
   * The fetch: the server's answer (a 404, a 503), no answer (`fetch.exception`), or a URL refused
   * before any request (the address filter, a protocol it does not speak).
   */
  fetching: 'fetching',
  contentType: 'content-type checking',
  parsing: 'content parsing',
  filtering: 'content filtering',
  sitemap: 'sitemap parsing',
  feed: 'feed parsing',
  indexing: 'OpenSearch indexing',
  /** The page answered like its host's answer to URLs that cannot exist (src/soft404). */
  soft404: 'soft-404 detection',
  /** The Tika stage (StormCrawler's external/tika ParserBolt uses the same name). */
  tika: 'TIKA',
} as const;
