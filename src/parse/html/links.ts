import type { OutlinkCollector } from '../outlinks.js';
import type { RawLink } from './extract.js';

/**
 * The base URL links resolve against: the first `<base href>` (itself resolved against the page)
 * when it is a usable http(s) URL, else the page URL.
 * DIFFERS FROM STORMCRAWLER: it ignores `<base href>` and resolves against the page URL, which
 * sends the links of such pages to the wrong place; browsers and the HTML standard use the base.
 */
export function baseUrlOf(pageUrl: string, baseHref: string | undefined): URL {
  const page = new URL(pageUrl);
  if (baseHref === undefined || baseHref.trim() === '') return page;
  try {
    const base = new URL(baseHref, page);
    return base.protocol === 'http:' || base.protocol === 'https:' ? base : page;
  } catch {
    return page;
  }
}

export interface NoFollowPolicy {
  /** The page said nofollow (meta robots or X-Robots-Tag). */
  readonly pageNoFollow: boolean;
  /** `robots.noFollow.strict`. */
  readonly strict: boolean;
}

/**
 * Feeds the page's links to the collector, honouring nofollow as StormCrawler does: strict, a
 * nofollow page gives no links at all and rel=nofollow links are skipped; not strict, they are kept
 * without their anchor texts.
 */
export function addPageLinks(
  collector: OutlinkCollector,
  links: readonly RawLink[],
  base: URL,
  policy: NoFollowPolicy,
): void {
  if (policy.pageNoFollow && policy.strict) return;
  for (const link of links) {
    const nofollow = policy.pageNoFollow || link.nofollow;
    if (nofollow && policy.strict) continue;
    collector.addLink(link.href, base, nofollow ? undefined : link.anchor);
  }
}
