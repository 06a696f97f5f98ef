import type { SitemapDeps } from '../sitemap/page.js';
import type { ParseInput, ParseStatus } from '../types.js';
import { isFeedDocument } from './detect.js';
import { parseFeed } from './page.js';

/**
 * The feed stage, between the sitemap and the HTML parsers: the document's result when it is a
 * feed (see `isFeedDocument`, `parseFeed`), undefined when it goes on to the next parser.
 * Synchronous, never throws.
 */
export function parseIfFeed(input: ParseInput, deps: SitemapDeps): ParseStatus | undefined {
  let feed = false;
  try {
    const s = deps.settings;
    const contentType = input.metadata.getFirstValue(s.protocolPrefix + 'content-type');
    feed = isFeedDocument(input.metadata, input.content, contentType, s.feed.sniff);
  } catch {
    // Sniffing only reads bytes; should it fail anyway, the next parser decides what the page is.
  }
  return feed ? parseFeed(input, deps) : undefined;
}
