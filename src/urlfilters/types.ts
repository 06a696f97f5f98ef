/**
 * The extension point of URL filtering: a filter is any object with a name and a `filter` method.
 * Built-ins live beside this file; custom filters are plain objects or classes passed to
 * `loadURLFilters` under a class name of their choice.
 */

/**
 * What filters read of a page's metadata. Structural, so that the model's `Metadata` class (a
 * multi-valued string map with StormCrawler's semantics) fits without this folder depending on it.
 * A key with no values may answer `undefined` or `null`; filters treat both as missing.
 */
export interface MetadataView {
  getFirstValue(key: string): string | null | undefined;
  getValues(key: string): readonly string[] | null | undefined;
}

/** The part of a logger the chain needs; pino's logger fits. */
export interface WarnLogger {
  warn(obj: object, msg: string): void;
}

/**
 * A URL filter or normaliser, as in StormCrawler: it returns the URL to keep (possibly rewritten)
 * or `null` to drop it.
 *
 * Lifecycle contract:
 * - **Configured once at start-up.** All parsing of params and files, and all regex compilation,
 *   happens in the constructor or factory, which throws (a `ConfigError` when loaded from
 *   `urlfilters.json`) on anything invalid. Nothing is read lazily.
 * - **Pure.** The result depends only on the arguments and the configuration: no I/O, no clock, no
 *   state that changes the answer. Caches keyed on the arguments are fine.
 * - **Hot path.** It runs on every seed, outlink and redirect target (tens of thousands per second),
 *   so it must be cheap: no parsing of the URL when the string is enough, and `parseWebUrl` (which
 *   memoises the last parse) when it is not.
 * - **Must not throw.** A URL that cannot be handled is rejected with `null`. If a filter throws
 *   anyway, `URLFilterChain` reports it once per filter and **skips that filter**, keeping the URL as
 *   it was before it; the rest of the chain still runs.
 *
 * Arguments:
 * - `sourceUrl`: the page the URL was found on, parsed once by the caller and shared by all its
 *   outlinks (filters may cache by identity); `null` for seeds. Never mutate it.
 * - `sourceMetadata`: that page's metadata; `null` when there is none (seeds may pass theirs).
 * - `url`: the URL as the previous filter left it. The chain only lets in strings that start with
 *   `http:` or `https:`; they may still be malformed (the chain rejects those after the last
 *   filter), and a previous normaliser may have produced anything.
 */
export interface URLFilter {
  readonly name: string;
  /**
   * True when URLs known to be sitemaps (robots.txt `Sitemap:` lines, sitemap index entries) skip
   * this filter: for filters that judge what a URL probably serves by its name (`.gz`, `.xml`...),
   * which says nothing about a sitemap the site itself names.
   */
  readonly sitemapsPass?: boolean;
  /**
   * True when the requests a rendered page makes (its scripts, XHR, frames) skip this filter: for
   * filters about which links to follow (depth, the source's metadata, the page itself, sitemaps)
   * or what a URL probably serves by its name, which says nothing about where a request may go.
   */
  readonly subrequestsPass?: boolean;
  filter(
    sourceUrl: URL | null,
    sourceMetadata: MetadataView | null,
    url: string,
    hints?: FilterHints,
  ): string | null;
}

/** What the caller knows about the URL being filtered, besides the URL itself. */
export interface FilterHints {
  /** The URL is a sitemap: a robots.txt `Sitemap:` line or a sitemap index entry. */
  readonly sitemap?: boolean;
  /** The URL is a request a rendered page makes (src/render), not a link to follow. */
  readonly subrequest?: boolean;
}
