import { MD } from '../model/keys.js';
import type { MetadataView, URLFilter } from './types.js';
import { equalsIgnoreCase, firstValue, isTrue } from './url.js';

/*
 * Filters that decide from the page a link was found on (its URL or its metadata) rather than from
 * the link itself. All of them let seeds (no source) through.
 */

const INTEGER = /^-?\d+$/;

function readInt(md: MetadataView | null, key: string, fallback: number): number {
  const v = firstValue(md, key);
  if (v === undefined || !INTEGER.test(v)) return fallback;
  const n = Number(v);
  return Number.isSafeInteger(n) ? n : fallback;
}

/**
 * Limits how far the crawl goes from its seeds. With source depth `d` (metadata `depth`, 0 when
 * missing) and limit `m` (the source's `max.depth` metadata, a per-seed override that outlinks
 * inherit, else `maxDepth`), an outlink is rejected when `m >= 0 && d >= m`. So maxDepth 0 follows
 * no links at all, 1 only the seeds' links, and a negative limit means no limit.
 *
 * Decisions on StormCrawler's quirks:
 * - Seeds (source URL `null`) always pass: the limit is about links followed from pages, and a
 *   seed is depth 0 itself. StormCrawler passes seeds as `{depth: "-1"}` for that purpose, but
 *   its number parsing refuses the sign, so with `maxDepth: 0` it rejects its own seeds.
 * - Signed integers are read as such: a `max.depth` of "-1" means "no limit for this seed's
 *   links" instead of falling back to `maxDepth`, and a `depth` of "-1" is -1, not 0.
 * - Values that are not integers are ignored, as in StormCrawler (depth 0, limit `maxDepth`).
 */
export class MaxDepthFilter implements URLFilter {
  /** It judges links to follow, not the requests a rendered page makes. */
  readonly subrequestsPass = true;
  constructor(
    private readonly maxDepth = -1,
    readonly name = 'MaxDepthFilter',
  ) {}

  filter(sourceUrl: URL | null, sourceMetadata: MetadataView | null, url: string): string | null {
    if (sourceUrl === null) return url;
    const max = readInt(sourceMetadata, MD.maxDepth, this.maxDepth);
    if (max < 0) return url;
    return readInt(sourceMetadata, MD.depth, 0) >= max ? null : url;
  }
}

/**
 * Drops every link of pages whose metadata has one of the given key/value pairs (values compared
 * ignoring case), e.g. `{"noFollow": "true"}`. Configured in urlfilters.json as params
 * `{"key": "value", ...}`; numbers and booleans are read as their text. Sources without metadata
 * pass.
 */
export class MetadataFilter implements URLFilter {
  /** It judges links to follow, not the requests a rendered page makes. */
  readonly subrequestsPass = true;
  private readonly pairs: readonly (readonly [string, string])[];

  constructor(
    pairs: Readonly<Record<string, string>>,
    readonly name = 'MetadataFilter',
  ) {
    this.pairs = Object.entries(pairs).map(([k, v]) => [k, v.toLowerCase()] as const);
  }

  filter(_sourceUrl: URL | null, sourceMetadata: MetadataView | null, url: string): string | null {
    if (sourceMetadata === null) return url;
    for (const [key, value] of this.pairs) {
      const values = sourceMetadata.getValues(key);
      if (!values) continue;
      for (const v of values) {
        if (v.length === value.length && v.toLowerCase() === value) return null;
      }
    }
    return url;
  }
}

/**
 * Drops links from a page to itself: the link equals the source URL's `href`, ignoring case (as
 * StormCrawler, which compares `toExternalForm()` with equalsIgnoreCase). Seeds pass.
 *
 * Put it after BasicURLNormalizer so that `page#section` and `PAGE` spellings of the page compare
 * in normalised form. Ignoring case also drops a link from `/Page` to `/page`, which on a
 * case-sensitive server is another page; StormCrawler does the same, and such pairs are rare.
 */
export class SelfURLFilter implements URLFilter {
  /** It judges links to follow, not the requests a rendered page makes. */
  readonly subrequestsPass = true;
  private lastSource: URL | null = null;
  private lastHref = '';

  constructor(readonly name = 'SelfURLFilter') {}

  filter(sourceUrl: URL | null, _md: MetadataView | null, url: string): string | null {
    if (sourceUrl === null) return url;
    if (sourceUrl !== this.lastSource) {
      this.lastSource = sourceUrl;
      this.lastHref = sourceUrl.href;
    }
    return equalsIgnoreCase(this.lastHref, url) ? null : url;
  }
}

/**
 * Restricts the crawl of sites that publish sitemaps to the URLs of their sitemaps: when sitemap
 * discovery is on, a link found on a page that is not a sitemap (`isSitemap` not "true") of a site
 * whose robots.txt named a sitemap (`foundSitemap` "true") is dropped. Sites without sitemaps are
 * crawled by their links as usual.
 *
 * Discovery is the `sitemap.discovery` config key, overridden per URL by the source's
 * `sitemap.discovery` metadata ("true"/"false", any case), as in StormCrawler. Seeds and sources
 * without metadata pass.
 */
export class SitemapFilter implements URLFilter {
  /** It judges links to follow, not the requests a rendered page makes. */
  readonly subrequestsPass = true;
  constructor(
    private readonly discovery = false,
    readonly name = 'SitemapFilter',
  ) {}

  filter(_sourceUrl: URL | null, sourceMetadata: MetadataView | null, url: string): string | null {
    if (sourceMetadata === null) return url;
    const local = firstValue(sourceMetadata, MD.sitemapDiscovery)?.toLowerCase();
    const discovery = local === 'true' ? true : local === 'false' ? false : this.discovery;
    if (!discovery) return url;
    const fromSitemap = isTrue(firstValue(sourceMetadata, MD.isSitemap));
    const siteHasSitemap = isTrue(firstValue(sourceMetadata, MD.foundSitemap));
    return !fromSitemap && siteHasSitemap ? null : url;
  }
}
