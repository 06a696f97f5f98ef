import { describe, expect, it } from 'vitest';
import type { ParseResult } from '../../../src/parse/types.js';
import { expectStatus, fixture, parse } from './support.js';

const XML = { 'content-type': 'application/xml' };
const SM = 'https://www.example.com/sitemap.xml';
const _marked = { metadata: { isSitemap: 'true' } };
const _md = (r: ParseResult, url: string) => r.outlinks.find((o) => o.url === url)!.metadata;

describe('extensions', () => {
  const all = { config: { 'sitemap.extensions': ['IMAGE', 'LINKS', 'MOBILE', 'NEWS', 'VIDEO'] } };

  it('no extension attributes unless listed in sitemap.extensions', () => {
    const r = expectStatus(parse(SM, fixture('sitemap-extensions.xml'), XML));
    expect(r.outlinks[0]!.metadata.keySet()).toEqual(['url.path', 'depth', 'isSitemap']);
  });

  it('IMAGE, NEWS and LINKS attributes as <EXT>.<attr>', () => {
    const r = expectStatus(parse(SM, fixture('sitemap-extensions.xml'), XML, all));
    const a = r.outlinks[0]!.metadata.toJSON();
    expect(a['IMAGE.loc']).toEqual([
      'https://www.example.com/image1.jpg',
      'https://www.example.com/image2.jpg',
    ]);
    expect(a['IMAGE.caption']).toEqual(['First image']);
    expect(a['NEWS.name']).toEqual(['The Example Times']);
    expect(a['NEWS.language']).toEqual(['en']);
    expect(a['NEWS.genres']).toEqual(['PressRelease', 'Blog']);
    expect(a['NEWS.keywords']).toEqual(['business', 'merger', 'acquisition']);
    expect(a['NEWS.stock_tickers']).toEqual(['NASDAQ:A', 'NASDAQ:B']);
    expect(a['NEWS.publication_date']).toEqual(['2008-12-23T00:00:00.000Z']);
    expect(a['NEWS.title']).toEqual(['Companies A, B in Merger Talks']);
    expect(a['LINKS.href']).toEqual([
      'https://www.example.com/de/article',
      'https://www.example.com/fr/article',
    ]);
    expect(a['LINKS.params.hreflang']).toEqual(['de', 'fr']);
    expect(a['LINKS.params.rel']).toEqual(['alternate', 'alternate']);
    expect(Object.keys(a).some((k) => k.startsWith('MOBILE'))).toBe(false);
  });

  it('VIDEO attributes with crawler-commons renames', () => {
    const r = expectStatus(parse(SM, fixture('sitemap-extensions.xml'), XML, all));
    const v = r.outlinks[1]!.metadata.toJSON();
    expect(v['VIDEO.title']).toEqual(['Grilling steaks for summer']);
    expect(v['VIDEO.content_loc']).toEqual(['https://www.example.com/video123.mp4']);
    expect(v['VIDEO.publication_date']).toEqual(['2007-11-05T11:20:30.000Z']);
    expect(v['VIDEO.family_friendly']).toEqual(['true']);
    expect(v['VIDEO.allowed_countries']).toEqual(['IE', 'GB', 'US', 'CA']);
    expect(v['VIDEO.tags']).toEqual(['steak', 'grill']);
    expect(v['VIDEO.is_live']).toEqual(['false']);
    expect(v['VIDEO.uploader']).toEqual(['GrillyMcGrillerson']);
    expect(v['VIDEO.uploader_info']).toEqual(['https://www.example.com/users/grillymcgrillerson']);
    expect(v['VIDEO.duration']).toEqual(['600']);
  });

  it('only the listed extensions', () => {
    const r = expectStatus(
      parse(SM, fixture('sitemap-extensions.xml'), XML, { config: { 'sitemap.extensions': ['image'] } }),
    );
    const keys = r.outlinks[0]!.metadata.keySet().filter((k) => /^[A-Z]+\./.test(k));
    expect(keys).toEqual(['IMAGE.loc', 'IMAGE.caption']);
  });
});
