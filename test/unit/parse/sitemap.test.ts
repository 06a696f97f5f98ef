import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { Metadata } from '../../../src/model/metadata.js';
import { isSitemapDocument } from '../../../src/parse/sitemap/detect.js';
import type { ParseResult } from '../../../src/parse/types.js';
import { ManualClock } from '../../../src/util/clock.js';
import { expectParsed, expectStatus, fixture, parse, urls } from './support.js';

const XML = { 'content-type': 'application/xml' };
const SM = 'https://www.example.com/sitemap.xml';
const marked = { metadata: { isSitemap: 'true' } };
const md = (r: ParseResult, url: string) => r.outlinks.find((o) => o.url === url)!.metadata;

describe('is it a sitemap?', () => {
  const content = fixture('sitemap-urlset.xml');
  it('isSitemap decides when present', () => {
    expect(
      isSitemapDocument(Metadata.of({ isSitemap: 'TRUE' }), Buffer.from('<html>'), 'text/html', 1024),
    ).toBe(true);
    expect(isSitemapDocument(Metadata.of({ isSitemap: 'false' }), content, 'application/xml', 1024)).toBe(
      false,
    );
  });

  it('when absent, the sitemaps.org namespace in the first sitemap.offset.guess bytes decides', () => {
    expect(isSitemapDocument(new Metadata(), content, 'application/xml', 1024)).toBe(true);
    // StormCrawler's 300 bytes miss this sitemap: its namespace is at byte 315
    expect(isSitemapDocument(new Metadata(), content, 'application/xml', 300)).toBe(false);
    expect(isSitemapDocument(new Metadata(), content, undefined, 1024)).toBe(true);
    expect(isSitemapDocument(new Metadata(), gzipSync(content), 'application/x-gzip', 1024)).toBe(true);
  });

  it('a page served as HTML is never promoted to a sitemap by its text', () => {
    expect(isSitemapDocument(new Metadata(), content, 'text/html', 1024)).toBe(false);
    expect(isSitemapDocument(new Metadata(), content, 'application/xhtml+xml', 1024)).toBe(false);
  });

  it('a non-sitemap page is parsed as HTML with isSitemap=false', () => {
    const r = expectParsed(parse('https://x.test/', '<p>x</p>'));
    expect(r.metadata.getFirstValue('isSitemap')).toBe('false');
  });
});

describe('urlset', () => {
  it('entries become DISCOVERED outlinks with isSitemap=false and an ISO lastModified; the sitemap is FETCHED', () => {
    const r = expectStatus(parse(SM, fixture('sitemap-urlset.xml'), XML));
    expect(r.status).toBe('FETCHED');
    expect(r.metadata.getFirstValue('isSitemap')).toBe('true');
    expect(urls(r)).toEqual([
      'https://www.example.com/',
      'https://www.example.com/catalog?item=12&desc=vacation_hawaii',
      'https://www.example.com/catalog?item=73&desc=vacation_new_zealand',
      'https://www.example.com/no-date',
      'https://www.example.com/bad-date',
    ]);
    expect(md(r, 'https://www.example.com/').toJSON()).toEqual({
      'url.path': [SM],
      depth: ['1'],
      isSitemap: ['false'],
      'sitemap.lastModified': ['2025-01-01T00:00:00.000Z'],
    });
    expect(
      md(r, 'https://www.example.com/catalog?item=12&desc=vacation_hawaii').getFirstValue(
        'sitemap.lastModified',
      ),
    ).toBe('2024-12-31T16:30:00.000Z');
    expect(md(r, 'https://www.example.com/no-date').has('sitemap.lastModified')).toBe(false);
    expect(md(r, 'https://www.example.com/bad-date').has('sitemap.lastModified')).toBe(false);
    expect(r.sitemap).toEqual({ type: 'urlset', entries: 7, overLimit: 0, tooOld: 0, rejected: 1 });
  });

  it('sitemap.filter.hours.since.modified drops older entries, by the injected clock', () => {
    const clock = new ManualClock(Date.UTC(2025, 0, 2));
    const r = expectStatus(
      parse(SM, fixture('sitemap-urlset.xml'), XML, {
        clock,
        config: { 'sitemap.filter.hours.since.modified': 48 },
      }),
    );
    expect(urls(r)).toEqual([
      'https://www.example.com/',
      'https://www.example.com/catalog?item=12&desc=vacation_hawaii',
      'https://www.example.com/no-date',
      'https://www.example.com/bad-date',
    ]);
    expect(r.sitemap?.tooOld).toBe(1);
  });

  it('the URL filters and metadata transfer apply to entries', () => {
    const r = expectStatus(
      parse(SM, fixture('sitemap-urlset.xml'), XML, {
        metadata: { depth: '4' },
        urlFilter: (source, _md, t) => (source.href === SM && !t.includes('catalog') ? t : null),
      }),
    );
    expect(urls(r)).toEqual([
      'https://www.example.com/',
      'https://www.example.com/no-date',
      'https://www.example.com/bad-date',
    ]);
    expect(r.outlinks[0]!.metadata.getFirstValue('depth')).toBe('5');
  });

  it('60,000 entries: the first sitemap.max.urls (50,000) are kept, the rest dropped and counted', () => {
    const entries = Array.from(
      { length: 60_000 },
      (_, i) => `<url><loc>https://big.example.com/p/${i}</loc></url>`,
    );
    const xml = `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${entries.join('\n')}</urlset>`;
    const r = expectStatus(parse('https://big.example.com/sitemap.xml', xml, XML));
    expect(r.status).toBe('FETCHED');
    expect(r.outlinks).toHaveLength(50_000);
    expect(r.outlinks[49_999]!.url).toBe('https://big.example.com/p/49999');
    expect(r.sitemap).toMatchObject({ entries: 60_000, overLimit: 10_000 });
    const all = expectStatus(
      parse('https://big.example.com/sitemap.xml', xml, XML, { config: { 'sitemap.max.urls': -1 } }),
    );
    expect(all.outlinks).toHaveLength(60_000);
  });
});

describe('encodings and markup variants', () => {
  it('CDATA locations, an XML-declared legacy encoding and no namespace at all', () => {
    const xml = Buffer.from(
      '<?xml version="1.0" encoding="ISO-8859-1"?><urlset><url><loc><![CDATA[https://www.example.com/caf\xe9?a=1&b=2]]></loc></url></urlset>',
      'latin1',
    );
    const r = expectStatus(parse(SM, xml, XML, marked));
    expect(urls(r)).toEqual(['https://www.example.com/caf%C3%A9?a=1&b=2']);
  });
});

describe('sitemap index', () => {
  it('sub-sitemaps are outlinks with isSitemap=true; the index itself is FETCHED with isSitemap=true', () => {
    const r = expectStatus(
      parse('https://www.example.com/sitemap_index.xml', fixture('sitemap-index.xml'), XML),
    );
    expect(r.status).toBe('FETCHED');
    expect(r.outlinks).toHaveLength(4);
    expect(r.outlinks.every((o) => o.metadata.getFirstValue('isSitemap') === 'true')).toBe(true);
    expect(r.metadata.getFirstValue('isSitemap')).toBe('true');
    expect(r.outlinks[0]!.metadata.getFirstValue('sitemap.lastModified')).toBe('2024-10-01T18:23:17.000Z');
    expect(r.outlinks.some((o) => o.metadata.has('scheduler.delay.mins'))).toBe(false);
    expect(r.sitemap?.type).toBe('sitemapindex');
  });

  it('sitemap.schedule.delay staggers the sub-sitemaps: the n-th gets (n-1) × delay minutes', () => {
    const r = expectStatus(
      parse('https://www.example.com/sitemap_index.xml', fixture('sitemap-index.xml'), XML, {
        config: { 'sitemap.schedule.delay': 30 },
      }),
    );
    expect(r.outlinks.map((o) => o.metadata.getFirstValue('scheduler.delay.mins'))).toEqual([
      undefined,
      '30',
      '60',
      '90',
    ]);
  });

  it('with the age filter, only kept sub-sitemaps count for the staggering', () => {
    const r = expectStatus(
      parse('https://www.example.com/sitemap_index.xml', fixture('sitemap-index.xml'), XML, {
        config: { 'sitemap.schedule.delay': 10, 'sitemap.filter.hours.since.modified': 48 },
      }),
    );
    expect(urls(r)).toEqual([
      'https://www.example.com/sitemap2.xml.gz',
      'https://www.example.com/sitemap3.xml',
      'https://www.example.com/sitemap4.xml',
    ]);
    expect(r.outlinks.map((o) => o.metadata.getFirstValue('scheduler.delay.mins'))).toEqual([
      undefined,
      '10',
      '20',
    ]);
  });
});

describe('gzip, text and feeds', () => {
  it('a gzip sitemap is recognised by its magic bytes, whatever its type', () => {
    const gz = gzipSync(fixture('sitemap-urlset.xml'));
    const types: Record<string, string>[] = [
      { 'content-type': 'application/x-gzip' },
      { 'content-type': 'application/octet-stream' },
      {},
    ];
    for (const headers of types) {
      const r = expectStatus(parse('https://www.example.com/sitemap.xml.gz', gz, headers));
      expect(r.status).toBe('FETCHED');
      expect(r.outlinks).toHaveLength(5);
    }
  });

  it('a gzip sitemap that inflates beyond 50 MiB is broken', () => {
    const bomb = gzipSync(Buffer.alloc(51 * 1024 * 1024, 0x20));
    const r = expectStatus(parse(SM, bomb, {}, marked));
    expect(r.status).toBe('FETCH_ERROR');
    expect(r.metadata.getFirstValue('error.message')).toContain('inflates beyond');
  });

  it('a plain-text sitemap: one URL per line, other lines ignored', () => {
    const r = expectStatus(
      parse(
        'https://www.example.com/sitemap.txt',
        fixture('sitemap.txt'),
        { 'content-type': 'text/plain' },
        marked,
      ),
    );
    expect(r.status).toBe('FETCHED');
    expect(urls(r)).toEqual([
      'https://www.example.com/one',
      'https://www.example.com/two',
      'https://www.example.com/three',
    ]);
    expect(r.outlinks[0]!.metadata.getFirstValue('isSitemap')).toBe('false');
    expect(r.sitemap?.type).toBe('text');
  });

  it('an RSS feed marked as sitemap gives its item links', () => {
    const r = expectStatus(parse('https://www.example.com/feed.xml', fixture('feed-rss.xml'), XML, marked));
    expect(urls(r)).toEqual(['https://www.example.com/post/1', 'https://www.example.com/post/2']);
    expect(r.outlinks[0]!.metadata.getFirstValue('sitemap.lastModified')).toBe('2025-06-10T04:00:00.000Z');
  });
});

describe('broken sitemaps end FETCH_ERROR "sitemap parsing" and lose their mark', () => {
  const broken: [string, Buffer, string][] = [
    ['truncated', fixture('sitemap-truncated.xml'), 'truncated urlset'],
    ['wrong root', fixture('sitemap-wrong-root.xml'), 'root element <html>'],
    ['not XML', Buffer.from('this is not a sitemap\nat all'), 'no XML and no URL lines'],
    ['empty', Buffer.alloc(0), 'no XML and no URL lines'],
    [
      'corrupt gzip',
      Buffer.concat([gzipSync(fixture('sitemap-urlset.xml')).subarray(0, 200)]),
      'corrupt gzip',
    ],
    [
      'HTML page',
      Buffer.from('<!doctype html><html><body><a href="/x">x</a></body></html>'),
      'root element <html>',
    ],
  ];
  for (const [what, content, message] of broken) {
    it(what, () => {
      const r = expectStatus(parse(SM, content, XML, marked));
      expect(r.status).toBe('FETCH_ERROR');
      expect(r.metadata.getFirstValue('error.source')).toBe('sitemap parsing');
      expect(r.metadata.getFirstValue('error.message')).toContain(message);
      expect(r.metadata.has('isSitemap')).toBe(false);
      expect(r.outlinks).toEqual([]);
    });
  }

  it('a sitemap the fetcher cut at http.content.limit keeps the entries read so far', () => {
    const r = expectStatus(
      parse(SM, fixture('sitemap-truncated.xml'), XML, {
        metadata: { isSitemap: 'true', 'http.trimmed': 'true' },
      }),
    );
    expect(r.status).toBe('FETCHED');
    expect(urls(r)).toEqual(['https://www.example.com/a', 'https://www.example.com/b']);
  });
});
