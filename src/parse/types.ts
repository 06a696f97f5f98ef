import type { Metadata } from '../model/metadata.js';
import type { Status } from '../model/status.js';

/** A page answered 200, as the fetcher hands it over. */
export interface ParseInput {
  readonly url: string;
  /** The URL's metadata plus the response headers under `protocol.md.prefix` (lowercased names). */
  readonly metadata: Metadata;
  readonly content: Buffer;
}

/**
 * The URL filter chain as the parser sees it (URLFilterChain fits): the URL to keep (possibly
 * rewritten) or `null`. `source` is the page the link was found on, parsed once per page.
 */
export interface OutlinkFilter {
  /** `hints.sitemap`: the target is a sitemap (a sitemap index entry). */
  filter(
    source: URL,
    sourceMetadata: Metadata,
    target: string,
    hints?: { readonly sitemap?: boolean },
  ): string | null;
}

/** A link to emit as DISCOVERED. */
export interface Outlink {
  /** Absolute and filtered. */
  readonly url: string;
  /** From `MetadataTransfer.forOutlink`, plus `anchors` or the sitemap keys. */
  readonly metadata: Metadata;
}

/** An HTML or text page that parsed: on its way to the indexer, which then makes it FETCHED. */
export interface ParsedPage {
  readonly kind: 'parsed';
  readonly url: string;
  /** The input metadata plus `parse.*`, `robots.*`, `canonical` and what the parse filters added. */
  readonly metadata: Metadata;
  /** The extracted text; a copy, so it does not keep the page in memory. */
  readonly text: string;
  /** The main content as Markdown (HTML pages with textextractor.markdown on); a copy too. */
  readonly markdown?: string;
  /** Empty when `parser.emitOutlinks` is false. */
  readonly outlinks: readonly Outlink[];
  /** robots noindex (meta or header): the indexer must not index the text. */
  readonly noIndex: boolean;
}

/** Counts of a sitemap parse, for logs and metrics. */
export interface SitemapStats {
  readonly type: 'urlset' | 'sitemapindex' | 'text' | 'rss' | 'atom';
  /** Entries with a location, before any limit or filter. */
  readonly entries: number;
  /** Entries past `sitemap.max.urls`. */
  readonly overLimit: number;
  /** Entries older than `sitemap.filter.hours.since.modified`. */
  readonly tooOld: number;
  /** Entries the URL filters rejected, or that were not URLs. */
  readonly rejected: number;
}

/**
 * The page ends here with a status of its own: REDIRECTION (meta refresh), ERROR (not HTML, parse
 * or filter failure), FETCHED (a sitemap: never indexed) or FETCH_ERROR (a broken sitemap).
 */
export interface ParseStatus {
  readonly kind: 'status';
  readonly url: string;
  readonly status: Extract<Status, 'REDIRECTION' | 'ERROR' | 'FETCHED' | 'FETCH_ERROR'>;
  readonly metadata: Metadata;
  /** The refresh target or the sitemap entries, to emit as DISCOVERED. */
  readonly outlinks: readonly Outlink[];
  readonly sitemap?: SitemapStats;
}

/**
 * A document for the Tika stage (the shunt: PDF, Office, ...): not parsed here. The pipeline sends
 * its content to Tika and extracts Tika's XHTML as a page (`parseDocument`).
 */
export interface DocumentHandOff {
  readonly kind: 'document';
  readonly url: string;
  /** The input metadata plus `parse.Content-Type` (the crawler's guess; Tika's answer replaces it). */
  readonly metadata: Metadata;
  /** The media type the shunt matched, sent to Tika as a hint. */
  readonly mediaType: string;
  /** None yet: Tika's links come with its answer. */
  readonly outlinks: readonly Outlink[];
}

export type ParseResult = ParsedPage | ParseStatus | DocumentHandOff;

/**
 * The parse stage as the crawl loop uses it: on the event loop (`createPageParser`, synchronous) or
 * on parser threads (`ParserPool`, a promise). A page it cannot handle is a 'status' result (ERROR
 * or FETCH_ERROR with error.source and error.message), never an exception; a rejected promise means
 * the parser itself failed (a thread died), and the crawl loop ends that page as ERROR.
 */
export interface PageParser {
  parse(page: ParseInput): ParseResult | Promise<ParseResult>;
}
