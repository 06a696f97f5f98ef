import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Metadata } from '../../../src/model/metadata.js';
import { isFeedDocument } from '../../../src/parse/feed/detect.js';
import type { ParseResult } from '../../../src/parse/types.js';
import { ManualClock } from '../../../src/util/clock.js';
import { expectParsed, expectStatus, fixture, parse, urls } from './support.js';

const feedFile = (name: string) => fixture(`feed/${name}`);
const SITE = 'https://news.example.org';
const FEED = `${SITE}/rss.xml`;
const RSS = { 'content-type': 'application/rss+xml; charset=utf-8' };
const XML = { 'content-type': 'text/xml' };
const md = (r: ParseResult, url: string) => r.outlinks.find((o) => o.url === url)?.metadata.toJSON();
const noMd = new Metadata();

describe('is it a feed?', () => {
  it('metadata isFeed=true decides, whatever the document says it is', () => {
    expect(isFeedDocument(Metadata.of({ isFeed: 'TRUE' }), Buffer.from('<html>'), 'text/html', false)).toBe(
      true,
    );
  });

  it('with feed.sniffContent, a feed media type decides', () => {
    for (const type of [
      'application/rss+xml',
      'application/atom+xml; charset=utf-8',
      'application/feed+json',
    ])
      expect(isFeedDocument(noMd, Buffer.from(''), type, true), type).toBe(true);
  });

  it('with feed.sniffContent, the root element of XML, JSON, text or untyped content decides', () => {
    const cases: [string, string | undefined][] = [
      ['rss2.xml', 'text/xml'],
      ['atom.xml', 'application/xml'],
      ['rss1.rdf', 'application/rdf+xml'],
      ['rss091.xml', undefined], // after an XML declaration and a DOCTYPE
      ['feed.json', 'application/json'],
      ['rss2-guid.xml', 'text/plain'],
    ];
    for (const [file, type] of cases)
      expect(isFeedDocument(noMd, feedFile(file), type, true), file).toBe(true);
    // A sitemap, an XHTML page and JSON that is not a JSON Feed are not feeds.
    expect(isFeedDocument(noMd, fixture('sitemap-urlset.xml'), 'application/xml', true)).toBe(false);
    expect(isFeedDocument(noMd, Buffer.from('{"version": 2, "items": []}'), 'application/json', true)).toBe(
      false,
    );
    expect(isFeedDocument(noMd, fixture('article.html'), undefined, true)).toBe(false);
  });

  it('a document served as HTML is never sniffed, nor anything without feed.sniffContent', () => {
    expect(isFeedDocument(noMd, feedFile('rss2.xml'), 'text/html', true)).toBe(false);
    expect(isFeedDocument(noMd, feedFile('rss2.xml'), 'application/rss+xml', false)).toBe(false);
    expect(isFeedDocument(noMd, feedFile('atom.xml'), 'application/xml', false)).toBe(false);
  });
});

describe('entries become DISCOVERED outlinks with feed.* metadata; the feed is FETCHED with isFeed=true', () => {
  const bridge = `${SITE}/2025/06/harbour-bridge`;
  const cafe = `${SITE}/2025/05/cafe-rivage`;
  const library = `${SITE}/2025/05/library`;
  const ferry = `${SITE}/2015/03/ferry-timetable`;

  it.each([
    ['RSS 2.0', 'rss2.xml', RSS],
    ['Atom 1.0', 'atom.xml', { 'content-type': 'application/atom+xml' }],
    ['JSON Feed', 'feed.json', { 'content-type': 'application/feed+json' }],
    ['Atom served as XML', 'atom.xml', XML],
    ['JSON Feed served as JSON', 'feed.json', { 'content-type': 'application/json' }],
  ])('%s', (_name, file, headers) => {
    const r = expectStatus(parse(FEED, feedFile(file), headers));
    expect(r.status).toBe('FETCHED');
    expect(r.metadata.getFirstValue('isFeed')).toBe('true');
    expect(r.metadata.has('error.source')).toBe(false);
    expect(urls(r)).toEqual([bridge, cafe, library, ferry]);
    expect(md(r, bridge)).toEqual({
      'url.path': [FEED],
      depth: ['1'],
      'feed.title': ['Harbour bridge reopens after repairs'],
      'feed.publishedDate': ['2025-06-01T08:30:00.000Z'],
      'feed.description': ['The harbour bridge is open again, two weeks early & under budget.'],
    });
    expect(md(r, cafe)?.['feed.title']).toEqual(['Café «Rivage» opens on the quay']);
    expect(md(r, ferry)?.['feed.publishedDate']).toEqual(['2015-03-01T07:00:00.000Z']);
    // The long description is cut at feed.description.maxlength (500) characters.
    const long = md(r, library)?.['feed.description']?.[0] ?? '';
    expect(long.length).toBeLessThanOrEqual(500);
    expect(long.length).toBeGreaterThan(480);
    expect(long.startsWith('The council voted for the new library by the water. The council')).toBe(true);
  });

  it('RSS 1.0 (RDF): item links, dc:date, descriptions as text', () => {
    const r = expectStatus(
      parse(`${SITE}/notices.rdf`, feedFile('rss1.rdf'), { 'content-type': 'application/rdf+xml' }),
    );
    expect(r.status).toBe('FETCHED');
    expect(urls(r)).toEqual([
      `${SITE}/2025/06/tides`,
      `${SITE}/2025/05/lighthouse`,
      `${SITE}/2016/01/dredging`,
    ]);
    expect(md(r, `${SITE}/2025/06/tides`)).toMatchObject({
      'feed.title': ['Tide tables for June'],
      'feed.publishedDate': ['2025-06-02T05:00:00.000Z'],
      'feed.description': ['High water at 06:12 & 18:40.'],
    });
  });

  it('RSS 0.91: entries without dates have no feed.publishedDate', () => {
    const r = expectStatus(parse(`${SITE}/notices.xml`, feedFile('rss091.xml'), XML));
    expect(urls(r)).toHaveLength(3);
    expect(md(r, `${SITE}/2025/05/lighthouse`)).toEqual({
      'url.path': [`${SITE}/notices.xml`],
      depth: ['1'],
      'feed.title': ['Lighthouse open day'],
      'feed.description': ['Climb the 120 steps on Sunday.'],
    });
  });

  it('an item without a link is found by its permalink guid; a guid that names no page is skipped', () => {
    const r = expectStatus(parse(`${SITE}/notices.xml`, feedFile('rss2-guid.xml'), RSS));
    // "notice-2025-117" (isPermaLink=false) is not resolved into a bogus URL, as StormCrawler would.
    expect(urls(r)).toEqual([`${SITE}/2025/06/tides`, `${SITE}/2025/05/lighthouse`]);
  });

  it('links resolve against the feed URL, and Atom links against xml:base', () => {
    const rss = feedFile('rss2.xml').toString().replaceAll(`<link>${SITE}/`, '<link>');
    const r = expectStatus(parse('https://mirror.example.net/news/rss.xml', Buffer.from(rss), RSS));
    expect(urls(r)[0]).toBe('https://mirror.example.net/news/2025/06/harbour-bridge');
    const atom = feedFile('atom.xml')
      .toString()
      .replace(
        '<feed xmlns="http://www.w3.org/2005/Atom">',
        '<feed xmlns="http://www.w3.org/2005/Atom" xml:base="https://cdn.example.net/a/">',
      )
      .replaceAll(`<link href="${SITE}/`, '<link href="');
    const a = expectStatus(parse(FEED, Buffer.from(atom), XML));
    expect(urls(a)[0]).toBe('https://cdn.example.net/a/2025/06/harbour-bridge');
  });

  it('the URL filters apply to entries', () => {
    const r = expectStatus(
      parse(FEED, feedFile('rss2.xml'), RSS, { urlFilter: (_s, _m, t) => (t.includes('/2015/') ? null : t) }),
    );
    expect(urls(r)).toEqual([bridge, cafe, library]);
  });

  it('feed.filter.hours.since.published drops older entries by the injected clock; undated ones stay', () => {
    const clock = new ManualClock(Date.parse('2025-06-02T00:00:00Z'));
    const config = { 'feed.filter.hours.since.published': 48 };
    const r = expectStatus(parse(FEED, feedFile('atom.xml'), XML, { clock, config }));
    expect(urls(r)).toEqual([bridge]);
    expect(r.status).toBe('FETCHED');
    const undated = expectStatus(parse(`${SITE}/n.xml`, feedFile('rss091.xml'), XML, { clock, config }));
    expect(urls(undated)).toHaveLength(3);
  });

  it('feed.description.maxlength bounds the description; 0 keeps none', () => {
    const short = expectStatus(
      parse(FEED, feedFile('rss2.xml'), RSS, { config: { 'feed.description.maxlength': 20 } }),
    );
    expect(md(short, bridge)?.['feed.description']).toEqual(['The harbour bridge i']);
    const none = expectStatus(
      parse(FEED, feedFile('rss2.xml'), RSS, { config: { 'feed.description.maxlength': 0 } }),
    );
    expect(md(none, bridge)).not.toHaveProperty('feed.description');
  });
});

describe('a feed that cannot be parsed ends ERROR with error.source "feed parsing" and the reason', () => {
  const error = (r: ParseResult) => ({
    status: expectStatus(r).status,
    source: r.metadata.getFirstValue('error.source'),
    message: r.metadata.getFirstValue('error.message'),
    isFeed: r.metadata.getFirstValue('isFeed'),
    outlinks: r.outlinks.length,
  });

  it('a feed cut short', () => {
    expect(error(parse(FEED, feedFile('rss2-truncated.xml'), RSS))).toEqual({
      status: 'ERROR',
      source: 'feed parsing',
      message: `Exception while parsing ${FEED}: truncated rss feed: the document ends before its root element closes`,
      isFeed: 'true',
      outlinks: 0,
    });
  });

  it('a feed the fetcher cut at http.content.limit keeps the entries read so far', () => {
    const r = expectStatus(
      parse(FEED, feedFile('rss2-truncated.xml'), RSS, { metadata: { 'http.trimmed': 'true' } }),
    );
    expect(r.status).toBe('FETCHED');
    expect(urls(r)).toEqual([`${SITE}/2025/06/harbour-bridge`]);
  });

  it('a JSON Feed that is not JSON, or not a JSON Feed', () => {
    const json = feedFile('feed.json').toString();
    const cut = error(
      parse(`${SITE}/feed.json`, Buffer.from(json.slice(0, 300)), {
        'content-type': 'application/feed+json',
      }),
    );
    expect(cut).toMatchObject({ status: 'ERROR', source: 'feed parsing', isFeed: 'true' });
    expect(cut.message).toMatch(
      /^Exception while parsing https:\/\/news\.example\.org\/feed\.json: not a JSON feed: .*JSON/,
    );
    const other = error(
      parse(`${SITE}/feed.json`, Buffer.from(json.replace('https://jsonfeed.org/version/1', '2')), {
        'content-type': 'application/feed+json',
      }),
    );
    expect(other.message).toMatch(/not a JSON feed: "version" is "2"/);
  });

  it('a document marked as a feed whose root is not a feed; an HTML page loses the mark', () => {
    // Any XML that is not a feed: the crawler's own URL normaliser rules.
    const rules = readFileSync(new URL('../../../conf/default-regex-normalizers.xml', import.meta.url));
    const xml = error(parse(FEED, rules, XML, { metadata: { isFeed: 'true' } }));
    expect(xml).toMatchObject({ status: 'ERROR', isFeed: 'true' });
    expect(xml.message).toMatch(/not a feed: the root element is <regex-normalize>$/);
    const html = error(parse(FEED, fixture('article.html'), undefined, { metadata: { isFeed: 'true' } }));
    expect(html).toMatchObject({ status: 'ERROR', source: 'feed parsing', isFeed: undefined });
    expect(html.message).toMatch(/not a feed: the root element is <html>$/);
  });
});

describe('an HTML page announces its feeds with <link rel="alternate">', () => {
  const page = (head: string, body = '') =>
    `<!doctype html><html><head><title>Home</title>${head}</head><body>${body}</body></html>`;

  it('each feed link becomes an outlink with isFeed=true, other alternates stay out', () => {
    const r = expectParsed(
      parse(
        `${SITE}/`,
        page(
          '<link rel="alternate" type="application/rss+xml" title="News" href="/rss.xml">' +
            '<link rel="alternate" type="application/atom+xml" href="atom.xml">' +
            '<link rel="Alternate" type="application/feed+json" href="/feed.json">' +
            '<link rel="alternate" hreflang="fr" href="/fr/">' +
            '<link rel="stylesheet" type="text/css" href="/style.css">',
          '<a href="/rss.xml">RSS</a> <a href="/about">About</a>',
        ),
      ),
    );
    expect(urls(r)).toEqual([`${SITE}/rss.xml`, `${SITE}/atom.xml`, `${SITE}/feed.json`, `${SITE}/about`]);
    for (const u of [`${SITE}/rss.xml`, `${SITE}/atom.xml`, `${SITE}/feed.json`])
      expect(md(r, u)?.isFeed, u).toEqual(['true']);
    // An <a> to the same feed keeps the mark and adds its anchor.
    expect(md(r, `${SITE}/rss.xml`)?.anchors).toEqual(['RSS']);
    expect(md(r, `${SITE}/about`)).not.toHaveProperty('isFeed');
  });

  it('a nofollow page announces nothing', () => {
    const r = expectParsed(
      parse(
        `${SITE}/`,
        page(
          '<meta name="robots" content="nofollow"><link rel="alternate" type="application/rss+xml" href="/rss.xml">',
        ),
      ),
    );
    expect(urls(r)).toEqual([]);
  });
});

describe('the feed parser never throws', () => {
  const marked = { metadata: { isFeed: 'true' } };
  const files = ['rss2.xml', 'atom.xml', 'feed.json', 'rss1.rdf', 'rss091.xml', 'rss2-guid.xml'];

  it('on every prefix-and-suffix cut of the fixtures: FETCHED or ERROR "feed parsing"', () => {
    fc.assert(
      fc.property(fc.constantFrom(...files), fc.nat(), fc.nat(), (file, a, b) => {
        const bytes = feedFile(file);
        const [from, to] = [a % bytes.length, b % bytes.length].sort((x, y) => x - y) as [number, number];
        const r = expectStatus(parse(FEED, bytes.subarray(from, to + 1), XML, marked));
        expect(['FETCHED', 'ERROR']).toContain(r.status);
        if (r.status === 'ERROR') expect(r.metadata.getFirstValue('error.source')).toBe('feed parsing');
      }),
      { numRuns: 300 },
    );
  });

  it('on arbitrary bytes and text marked as a feed', () => {
    fc.assert(
      fc.property(fc.oneof(fc.uint8Array({ maxLength: 300 }), fc.string({ maxLength: 300 })), (content) => {
        const bytes = typeof content === 'string' ? Buffer.from(content) : Buffer.from(content);
        const r = expectStatus(parse(FEED, bytes, { 'content-type': 'application/rss+xml' }, marked));
        expect(['FETCHED', 'ERROR']).toContain(r.status);
      }),
      { numRuns: 300 },
    );
  });
});
