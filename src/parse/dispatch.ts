import { MD } from '../model/keys.js';
import { parseIfFeed } from './feed/index.js';
import { refuseContent } from './guard.js';
import { parseHtml } from './html/page.js';
import { isSitemapDocument } from './sitemap/detect.js';
import { parseSitemap, type SitemapDeps } from './sitemap/page.js';
import type { ParseInput, ParseResult } from './types.js';

/**
 * The parse stage for one fetched page: the sitemap parser first (as StormCrawler's topology puts
 * SiteMapParserBolt before JSoupParserBolt), then the HTML parser for everything else, with
 * `isSitemap=false` recorded as StormCrawler does; before either, what must not be parsed as text
 * (a decompression bomb, binary content claiming to be text) ends ERROR. Synchronous, never throws.
 * Between the two, the feed stage (feed/index.ts) takes feeds, as FeedParserBolt does.
 */
export function parsePage(input: ParseInput, deps: SitemapDeps): ParseResult {
  const s = deps.settings;
  const refusal = refuseContent(input, s);
  if (refusal) return refusal;
  let sitemap = false;
  try {
    const contentType = input.metadata.getFirstValue(s.protocolPrefix + 'content-type');
    sitemap = isSitemapDocument(input.metadata, input.content, contentType, s.sitemap.sniffLength);
  } catch {
    // Sniffing only reads bytes; should it fail anyway, the HTML parser decides what the page is.
  }
  if (sitemap) return parseSitemap(input, deps);
  const feed = parseIfFeed(input, deps);
  if (feed) return feed;
  const metadata = input.metadata.copy();
  metadata.setValue(MD.isSitemap, 'false');
  return parseHtml({ url: input.url, metadata, content: input.content }, deps);
}
