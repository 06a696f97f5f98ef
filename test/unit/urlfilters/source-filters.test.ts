import { describe, expect, it } from 'vitest';
import {
  MaxDepthFilter,
  MetadataFilter,
  SelfURLFilter,
  SitemapFilter,
} from '../../../src/urlfilters/source.js';
import type { MetadataView } from '../../../src/urlfilters/types.js';

/** A minimal stand-in for the model's Metadata. */
function md(record: Record<string, string | string[]> = {}): MetadataView {
  const get = (k: string) => {
    const v = record[k];
    return v === undefined ? undefined : Array.isArray(v) ? v : [v];
  };
  return { getFirstValue: (k) => get(k)?.[0], getValues: get };
}

const page = new URL('http://www.sourcedomain.com/');
const link = 'http://www.sourcedomain.com/next';

describe('MaxDepthFilter', () => {
  it('maxDepth 0 follows no links at all', () => {
    expect(new MaxDepthFilter(0).filter(page, md(), link)).toBeNull();
  });

  it('rejects links of a page at the maximum depth', () => {
    expect(new MaxDepthFilter(2).filter(page, md({ depth: '2' }), link)).toBeNull();
    expect(new MaxDepthFilter(2).filter(page, md({ depth: '1' }), link)).toBe(link);
  });

  it('a max.depth in the source metadata overrides maxDepth', () => {
    expect(new MaxDepthFilter(3).filter(page, md({ 'max.depth': '0' }), link)).toBeNull();
    expect(new MaxDepthFilter(1).filter(page, md({ 'max.depth': '2', depth: '1' }), link)).toBe(link);
  });

  it('a negative limit means no limit', () => {
    expect(new MaxDepthFilter(-1).filter(page, md({ depth: '99' }), link)).toBe(link);
    // DIFFERS FROM STORMCRAWLER: "-1" is read as -1 (no limit), not as missing (fall back to maxDepth).
    expect(new MaxDepthFilter(1).filter(page, md({ 'max.depth': '-1', depth: '5' }), link)).toBe(link);
    expect(new MaxDepthFilter(0).filter(page, md({ depth: '-1' }), link)).toBe(link);
  });

  it('lets seeds through even with maxDepth 0 (StormCrawler rejects them)', () => {
    expect(new MaxDepthFilter(0).filter(null, null, link)).toBe(link);
    expect(new MaxDepthFilter(0).filter(null, md({ depth: '-1' }), link)).toBe(link);
  });

  it('ignores values that are not integers', () => {
    expect(new MaxDepthFilter(2).filter(page, md({ depth: 'two' }), link)).toBe(link);
    expect(new MaxDepthFilter(2).filter(page, md({ 'max.depth': '1.5', depth: '2' }), link)).toBeNull();
  });
});

describe('MetadataFilter', () => {
  const filter = new MetadataFilter({ key: 'val' });

  it('rejects links of pages with the key and value, ignoring the value’s case', () => {
    expect(filter.filter(page, md({ key: 'val' }), link)).toBeNull();
    expect(filter.filter(page, md({ key: ['other', 'VAL'] }), link)).toBeNull();
  });

  it('keeps the others', () => {
    expect(filter.filter(page, md(), link)).toBe(link);
    expect(filter.filter(page, md({ key: ['val2', 'val3'] }), link)).toBe(link);
    expect(filter.filter(null, null, link)).toBe(link);
  });
});

describe('SelfURLFilter', () => {
  const filter = new SelfURLFilter();

  it('rejects a link to the page itself, ignoring case', () => {
    expect(filter.filter(page, null, 'http://www.sourcedomain.com/')).toBeNull();
    expect(filter.filter(page, null, 'HTTP://WWW.SOURCEDOMAIN.COM/')).toBeNull();
    expect(filter.filter(page, null, link)).toBe(link);
    expect(filter.filter(null, null, link)).toBe(link);
  });
});

describe('SitemapFilter', () => {
  const site = { foundSitemap: 'true' };

  it('with discovery on, drops links of non-sitemap pages of sites that have sitemaps', () => {
    const filter = new SitemapFilter(true);
    expect(filter.filter(page, md({ ...site, isSitemap: 'false' }), link)).toBeNull();
    expect(filter.filter(page, md(site), link)).toBeNull();
    expect(filter.filter(page, md({ ...site, isSitemap: 'TRUE' }), link)).toBe(link);
    expect(filter.filter(page, md({ foundSitemap: 'false' }), link)).toBe(link);
    expect(filter.filter(null, null, link)).toBe(link);
  });

  it('does nothing with discovery off', () => {
    expect(new SitemapFilter(false).filter(page, md(site), link)).toBe(link);
  });

  it('the source’s sitemap.discovery metadata overrides the configuration', () => {
    expect(
      new SitemapFilter(false).filter(page, md({ ...site, 'sitemap.discovery': 'True' }), link),
    ).toBeNull();
    expect(new SitemapFilter(true).filter(page, md({ ...site, 'sitemap.discovery': 'false' }), link)).toBe(
      link,
    );
    expect(
      new SitemapFilter(true).filter(page, md({ ...site, 'sitemap.discovery': 'maybe' }), link),
    ).toBeNull();
  });
});
