import type { CheerioAPI } from 'cheerio/slim';
import type { Metadata } from '../../model/metadata.js';
import type { Outlink } from '../types.js';

/**
 * What a parse filter sees of the page being parsed, and may change.
 */
export interface ParseContext {
  /** The page's metadata: add or replace keys here. Values must be copies (see `ParseFilter`). */
  readonly metadata: Metadata;
  /** The extracted text ("" for sitemaps and non-HTML content); a filter may replace it. */
  text: string;
  /**
   * The text without nav, header, footer and aside elements, on HTML pages when a filter asked for
   * it (`needsMainText`); undefined otherwise (read `text` then).
   */
  readonly mainText?: string;
  /** The content as fetched (decompressed for gzip sitemaps). Do not keep a reference. */
  readonly content: Buffer;
  /** The outlinks found so far. */
  readonly outlinks: readonly Outlink[];
  /**
   * Adds a link as the parser would: resolved against the page's base URL, through the URL
   * filters, merged with an equal outlink, within `parser.emitOutlinks.max.per.page`, and not at
   * all when robots nofollow forbids links. Returns the new outlink's metadata, or undefined.
   */
  addOutlink(href: string, anchor?: string): Metadata | undefined;
}

/**
 * A parse filter (StormCrawler's ParseFilter): enriches a parsed page, typically its metadata.
 *
 * Lifecycle contract:
 * - **Configured once at start-up** by its factory from the `params` of `parsefilters.json`,
 *   synchronously. All validation (selectors, regexes, files) happens there and fails with a
 *   `ConfigError`; `filter` reads nothing lazily, from disk or network. Set-up that must be async
 *   (importing a language model) runs in the background and is exposed as `ready`, which the
 *   pipeline awaits before the first page (`PageParser.ready`).
 * - **Synchronous and CPU-bound.** `filter` runs on the parser's thread (the event loop, or a
 *   parser thread with `parser.threads`), once per HTML page, text page and sitemap, after links and
 *   text are extracted, in the order of the configuration file.
 * - **`doc`** is a Cheerio API over the page's DOM when the filter sets `needsDom` and the page is
 *   HTML, else `null` (sitemaps, text/plain, non-HTML content; every filter when none needs a
 *   DOM). Building a DOM costs about as much again as the streaming parse, so the default filters do
 *   without. Keep no reference to `doc` or `parse.content` after returning.
 * - **Strings kept must not be views of the page**: V8 substrings keep their parent alive. Metadata
 *   values are copied by the parser after the filters ran; anything stored elsewhere must be copied
 *   by the filter (see `detach`).
 * - **Throwing** ends the page as ERROR with `error.source` "content filtering" and an
 *   `error.message` naming the filter, as StormCrawler does (an ERROR is visible in the status index
 *   and can be reset; a skipped filter would silently index incomplete documents).
 */
export interface ParseFilter {
  /** The name in the configuration (or the class name), for messages. */
  readonly name: string;
  /** Asks for a DOM. Leave unset when metadata, text and outlinks are enough. */
  readonly needsDom?: boolean;
  /** Asks for `ParseContext.mainText` (collected in the same pass, at a small cost). */
  readonly needsMainText?: boolean;
  filter(url: string, doc: CheerioAPI | null, parse: ParseContext): void;
  /**
   * Settles when background set-up (loading a model) is done; rejects if it failed. Until then the
   * filter does nothing. Absent when the filter is ready on construction.
   */
  readonly ready?: Promise<void>;
}

/** Builds a filter from its `params`, synchronously (slow set-up goes into `ParseFilter.ready`). */
export type ParseFilterFactory = (
  params: Readonly<Record<string, unknown>>,
  context: FactoryContext,
) => ParseFilter;

export interface FactoryContext {
  /** The `name` of the entry, or its class. */
  readonly name: string;
  /** Directory of the configuration file, for relative resource paths; the cwd when built in code. */
  readonly baseDir: string;
}
