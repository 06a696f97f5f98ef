import { describe, expect, it } from 'vitest';
import { refreshTarget } from '../../../src/parse/html/robots-meta.js';
import { expectParsed, expectStatus, fixture, parse, urls } from './support.js';

describe('meta refresh', () => {
  it('turns the page into a REDIRECTION with an absolute _redirTo and the target as outlink', () => {
    const r = expectStatus(parse('https://www.example.com/old/page.html', fixture('meta-refresh.html')));
    expect(r.status).toBe('REDIRECTION');
    expect(r.metadata.getFirstValue('_redirTo')).toBe('https://www.example.com/new-location?x=1');
    expect(urls(r)).toEqual(['https://www.example.com/new-location?x=1']);
    expect(r.outlinks[0]!.metadata.getFirstValue('depth')).toBe('1');
    expect(r.metadata.getFirstValue('robots.noIndex')).toBe('false');
  });

  it('without redirections.allowed the target is not emitted', () => {
    const r = expectStatus(
      parse('https://www.example.com/', fixture('meta-refresh.html'), undefined, {
        config: { 'redirections.allowed': false },
      }),
    );
    expect(r.status).toBe('REDIRECTION');
    expect(r.metadata.getFirstValue('_redirTo')).toBe('https://www.example.com/new-location?x=1');
    expect(r.outlinks).toEqual([]);
  });

  it('a target the URL filters reject is still the redirect, but no outlink', () => {
    const r = expectStatus(
      parse('https://www.example.com/', fixture('meta-refresh.html'), undefined, { urlFilter: () => null }),
    );
    expect(r.status).toBe('REDIRECTION');
    expect(r.outlinks).toEqual([]);
  });

  it('jsoup.ignore.meta.redirections parses the page as usual', () => {
    const r = expectParsed(
      parse('https://www.example.com/', fixture('meta-refresh.html'), undefined, {
        config: { 'jsoup.ignore.meta.redirections': true },
      }),
    );
    expect(urls(r)).toEqual(['https://www.example.com/new-location?x=1']);
  });

  it('a refresh without URL, to the page itself or to javascript: is not a redirection', () => {
    for (const content of ['30', '0; URL=https://x.test/same', '0;url=javascript:alert(1)']) {
      const r = parse(
        'https://x.test/same',
        `<meta http-equiv="refresh" content="${content}"><a href="/a">a</a>`,
      );
      expect(r.kind, content).toBe('parsed');
    }
  });

  it("reads the URL as StormCrawler's pattern does, quotes and case aside", () => {
    expect(refreshTarget("0; URL='http://a.test/x'")).toBe('http://a.test/x');
    expect(refreshTarget('5;url=/rel')).toBe('/rel');
    expect(refreshTarget('0 ; Url = "b.html"')).toBe('b.html');
    expect(refreshTarget('10')).toBeUndefined();
  });
});
