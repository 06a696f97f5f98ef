import { describe, expect, it } from 'vitest';
import type { ParseResult } from '../../../src/parse/types.js';
import { expectParsed, parse, urls } from './support.js';

const page = (robots?: string, body = '') =>
  `<html><head>${robots === undefined ? '' : `<meta name="robots" content="${robots}">`}</head><body>${body}</body></html>`;

const flags = (r: ParseResult) =>
  ['robots.noIndex', 'robots.noFollow', 'robots.noCache'].map((k) => r.metadata.getFirstValue(k) === 'true');

// StormCrawler's answers table (its comments are shifted by one row: noindex,nofollow is (T,T,F)).
describe('meta robots (StormCrawler JSoupParserBoltTest cases)', () => {
  const cases: [string | undefined, boolean[]][] = [
    ['NONE', [true, true, true]],
    ['none', [true, true, true]],
    ['nOnE', [true, true, true]],
    ['noindex,nofollow', [true, true, false]],
    ['noindex,follow', [true, false, false]],
    ['index,nofollow', [false, true, false]],
    ['index,follow', [false, false, false]],
    ['all', [false, false, false]],
    [undefined, [false, false, false]],
    ['noarchive', [false, false, true]],
    ['NoIndex , NoFollow , NoArchive', [true, true, true]],
  ];
  for (const [content, expected] of cases) {
    it(`${content ?? 'missing'} → (noIndex, noFollow, noCache) = (${expected})`, () => {
      const r = expectParsed(parse('https://x.test/', page(content)));
      expect(flags(r)).toEqual(expected);
      expect(r.noIndex).toBe(expected[0]);
    });
  }

  it('a robots meta without content is no directive', () => {
    expect(flags(parse('https://x.test/', '<meta name="robots"><p>x</p>'))).toEqual([false, false, false]);
  });

  it('only the first robots meta counts; names containing "robots" count too', () => {
    expect(flags(parse('https://x.test/', page('index', '<meta name="robots" content="noindex">')))).toEqual([
      false,
      false,
      false,
    ]);
    const r = parse('https://x.test/', '<meta name="ROBOTS" content="noindex">');
    expect(flags(r)).toEqual([true, false, false]);
  });

  it('http.robots.meta.skip ignores the meta tag', () => {
    const r = parse('https://x.test/', page('none'), undefined, {
      config: { 'http.robots.meta.skip': true },
    });
    expect(flags(r)).toEqual([false, false, false]);
  });
});

describe('X-Robots-Tag header', () => {
  it('read from protocol.x-robots-tag, split on commas (StormCrawler reads a key nobody writes)', () => {
    const r = expectParsed(
      parse('https://x.test/', page(), { 'content-type': 'text/html', 'X-Robots-Tag': 'noindex,nofollow' }),
    );
    expect(flags(r)).toEqual([true, true, false]);
    expect(r.kind).toBe('parsed');
    expect(r.noIndex).toBe(true);
  });

  it('adds up with the meta tag', () => {
    const r = parse('https://x.test/', page('noarchive'), {
      'content-type': 'text/html',
      'x-robots-tag': 'noindex',
    });
    expect(flags(r)).toEqual([true, false, true]);
  });

  it('values for a named crawler are ignored', () => {
    const r = parse('https://x.test/', page(), {
      'content-type': 'text/html',
      'x-robots-tag': 'otherbot: noindex',
    });
    expect(flags(r)).toEqual([false, false, false]);
  });

  it('http.robots.headers.skip ignores the header', () => {
    const r = parse(
      'https://x.test/',
      page(),
      { 'content-type': 'text/html', 'x-robots-tag': 'none' },
      {
        config: { 'http.robots.headers.skip': true },
      },
    );
    expect(flags(r)).toEqual([false, false, false]);
  });

  it('applies to text/plain too', () => {
    const r = parse('https://x.test/a.txt', 'text', {
      'content-type': 'text/plain',
      'x-robots-tag': 'noindex',
    });
    expect(flags(r)).toEqual([true, false, false]);
  });
});

describe('nofollow', () => {
  const body =
    '<a href="/a">A</a><a href="/b" rel="nofollow">B</a><a href="/c" rel="ugc NOFOLLOW">C</a><a href="/d">D</a>';

  it('strict (default): rel=nofollow links are skipped', () => {
    expect(urls(parse('https://x.test/', page(undefined, body)))).toEqual([
      'https://x.test/a',
      'https://x.test/d',
    ]);
  });

  it('strict: a nofollow page gives no links at all', () => {
    expect(parse('https://x.test/', page('nofollow', body)).outlinks).toEqual([]);
    const header = parse('https://x.test/', page(undefined, body), {
      'content-type': 'text/html',
      'x-robots-tag': 'nofollow',
    });
    expect(header.outlinks).toEqual([]);
  });

  it('not strict: nofollow links are kept without anchors', () => {
    const config = { 'robots.noFollow.strict': false };
    const r = parse('https://x.test/', page(undefined, body), undefined, { config });
    expect(urls(r)).toEqual(['https://x.test/a', 'https://x.test/b', 'https://x.test/c', 'https://x.test/d']);
    expect(r.outlinks.map((o) => o.metadata.getFirstValue('anchors'))).toEqual([
      'A',
      undefined,
      undefined,
      'D',
    ]);
    const pageWide = parse('https://x.test/', page('nofollow', body), undefined, { config });
    expect(pageWide.outlinks).toHaveLength(4);
    expect(pageWide.outlinks.every((o) => !o.metadata.has('anchors'))).toBe(true);
  });
});
