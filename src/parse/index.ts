export { charsetDisplayName, decode, detectCharset } from './charset.js';
export { parsePage } from './dispatch.js';
export { parseDocument, type TikaDocument } from './document.js';
export { PARSED_BY, type ParserDeps, parseHtml } from './html/page.js';
export { detectMediaType, mediaType } from './mime.js';
export { ParseFilters } from './parsefilters/chain.js';
export {
  BUILT_IN_FILTERS,
  buildParseFilters,
  loadParseFilters,
  resolveFiltersFile,
} from './parsefilters/load.js';
export type { FactoryContext, ParseContext, ParseFilter, ParseFilterFactory } from './parsefilters/types.js';
export { defaultParseConfig, type ParseConfig, type ParseSettings, parseSettings } from './settings.js';
export { type DocumentShunt, documentShunt, documentSignature, sniffZipDocument } from './shunt.js';
export { isSitemapDocument } from './sitemap/detect.js';
export { parseSitemap, type SitemapDeps } from './sitemap/page.js';
export { createPageParser, type InlineParser, type PageParserDeps, type ParseLogger } from './stage.js';
export { detach } from './strings.js';
export * from './types.js';
