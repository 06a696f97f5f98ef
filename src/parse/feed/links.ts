import { MD } from '../../model/keys.js';
import { mediaType } from '../mime.js';
import type { OutlinkCollector } from '../outlinks.js';

/** The `type` of a `<link rel="alternate">` that announces a feed. */
const FEED_LINK_TYPES = new Set(['application/rss+xml', 'application/atom+xml', 'application/feed+json']);

/** A `<link>` whose rel holds "alternate" and whose type is a feed's. */
export function isFeedLink(rel: string | undefined, type: string | undefined): boolean {
  if (rel === undefined || type === undefined || !FEED_LINK_TYPES.has(mediaType(type))) return false;
  return rel
    .toLowerCase()
    .split(/[\t\n\f\r ]+/)
    .includes('alternate');
}

/**
 * The feeds a page announces become outlinks marked `isFeed=true`, so they are parsed as feeds
 * whatever their server calls them. Added before the page's other links, so that an `<a>` to the
 * same feed keeps the mark. Nofollow as for every link of the page.
 * DIFFERS FROM STORMCRAWLER: it does not follow `<link>` elements, so a feed is found only when a
 * seed or an `<a>` names it (and then parsed only with feed.sniffContent and an RSS media type).
 */
export function addFeedLinks(
  collector: OutlinkCollector,
  hrefs: readonly string[],
  base: URL,
  policy: { readonly pageNoFollow: boolean; readonly strict: boolean },
): void {
  if (hrefs.length === 0 || (policy.pageNoFollow && policy.strict)) return;
  for (const href of hrefs) collector.add(href, base)?.setValue(MD.isFeed, 'true');
}
