import { MetadataTransfer, type MetadataTransferConfig } from '../model/metadata-transfer.js';
import type { Clock } from '../util/clock.js';
import { parsePage } from './dispatch.js';
import { parseDocument, type TikaDocument } from './document.js';
import type { ParseFilters } from './parsefilters/chain.js';
import { loadParseFilters } from './parsefilters/load.js';
import { type ParseConfig, type ParseSettings, parseSettings } from './settings.js';
import type { OutlinkFilter, PageParser, ParseInput, ParseResult } from './types.js';

/** The part of a logger the parser needs at start-up; pino's logger fits. */
export interface ParseLogger {
  info(obj: object, msg: string): void;
  debug(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface PageParserDeps {
  /** The URL filter chain, for outlinks, refresh targets and sitemap entries. */
  readonly filter: OutlinkFilter;
  /** For `sitemap.filter.hours.since.modified`. */
  readonly clock: Clock;
  readonly log?: ParseLogger;
  /** Parse filters built in code; by default they are loaded from `parsefilters.config.file`. */
  readonly filters?: ParseFilters;
}

/** The parse stage on the calling thread, ready to use: one instance per thread. */
export interface InlineParser extends PageParser {
  /** Sitemap or page; synchronous, never throws (see `parsePage`). */
  parse(page: ParseInput): ParseResult;
  /** A document's Tika output extracted as a page (see `parseDocument`); never throws. */
  parseDocument(page: ParseInput, tika: TikaDocument): ParseResult;
  /** Settles when the parse filters finished loading (a language model); await it before crawling. */
  readonly ready: Promise<void>;
  readonly settings: ParseSettings;
  readonly filters: ParseFilters;
}

/**
 * Builds the parse stage from the configuration: validates the parse keys (ConfigError on a bad
 * selector or extension name) and loads the parse filters, all synchronously so that a bad
 * configuration stops start-up at once.
 */
export function createPageParser(
  config: ParseConfig & MetadataTransferConfig,
  deps: PageParserDeps,
): InlineParser {
  const filters = deps.filters ?? loadParseFilters(config['parsefilters.config.file']);
  const parsed = parseSettings(config);
  // The main text is collected only when a filter reads it (the near-duplicate fingerprint).
  const settings = filters.needsMainText ? { ...parsed, text: { ...parsed.text, mainText: true } } : parsed;
  // An internal of the parser: shown at --log-level debug, not on every start-up.
  deps.log?.debug(
    { parseFilters: filters.filters.map((f) => f.name), file: filters.source, dom: filters.needsDom },
    filters.filters.length > 0 ? `parse filters from ${filters.source}` : 'no parse filters',
  );
  filters.ready.catch((e: unknown) =>
    deps.log?.error({ err: e }, 'a parse filter failed to load; it does nothing on every page'),
  );
  const parserDeps = {
    settings,
    transfer: MetadataTransfer.fromConfig(config),
    urlFilter: deps.filter,
    filters,
    clock: deps.clock,
  };
  return {
    parse: (page) => parsePage(page, parserDeps),
    parseDocument: (page, tika) => parseDocument(page, tika, parserDeps),
    ready: filters.ready,
    settings,
    filters,
  };
}
