import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FastURLFilter, parseFastRules } from '../../../src/urlfilters/fast-filter.js';
import type { MetadataView } from '../../../src/urlfilters/types.js';

const md = (record: Record<string, string> = {}): MetadataView => ({
  getFirstValue: (k) => record[k],
  getValues: (k) => (record[k] === undefined ? undefined : [record[k]!]),
});

function fastFilter(json: unknown): FastURLFilter {
  const problems: string[] = [];
  const filter = new FastURLFilter(parseFastRules(json, (m) => problems.push(m)));
  expect(problems).toEqual([]);
  return filter;
}

const fixture = JSON.parse(readFileSync(new URL('fixtures/fast.urlfilter.json', import.meta.url), 'utf8'));

describe('FastURLFilter with StormCrawler’s example rules', () => {
  const filter = fastFilter(fixture);
  const check = (url: string, metadata = md()) => filter.filter(new URL(url), metadata, url);

  it('GLOBAL: denies .jpg in path or query', () => {
    expect(check('http://www.somedomain.com/image.jpg')).toBeNull();
    expect(check('http://www.somedomain.com/img?f=a.jpg')).toBeNull();
    expect(check('http://www.somedomain.com/page.html')).toBe('http://www.somedomain.com/page.html');
  });

  it('domain: allows /bla/ and denies the rest of the domain, subdomains included', () => {
    expect(check('http://stormcrawler.net/')).toBeNull();
    expect(check('http://www.stormcrawler.net/other')).toBeNull();
    expect(check('http://stormcrawler.net/bla/')).toBe('http://stormcrawler.net/bla/');
  });

  it('metadata: denies the links of pages whose metadata has key=value (value ignoring case)', () => {
    expect(check('http://somedomain.net/', md({ key: 'value' }))).toBeNull();
    expect(check('http://somedomain.net/', md({ key: 'VALUE' }))).toBeNull();
    expect(check('http://somedomain.net/', md({ key: 'other' }))).toBe('http://somedomain.net/');
    expect(filter.filter(null, null, 'http://somedomain.net/')).toBe('http://somedomain.net/');
  });
});

describe('FastURLFilter scopes', () => {
  it('tries host, then domain suffixes from the TLD, then metadata, then GLOBAL; the first match decides', () => {
    const filter = fastFilter({
      rules: [
        { scope: 'GLOBAL', patterns: ['DenyPath .*'] },
        { scope: 'domain:com', patterns: ['DenyPath ^/com-denied'] },
        { scope: 'domain:example.com', patterns: ['AllowPath .*'] },
        { scope: 'host:WWW.example.com', patterns: ['DenyPath ^/private'] },
      ],
    });
    const check = (url: string) => filter.filter(null, null, url);
    expect(check('http://www.example.com/private/x')).toBeNull();
    expect(check('http://www.example.com/com-denied')).toBeNull();
    expect(check('http://www.example.com/public')).toBe('http://www.example.com/public');
    // DIFFERS FROM STORMCRAWLER (its code, not its documentation): lets the GLOBAL deny remove this one too.
    expect(check('http://shop.example.com/anything')).toBe('http://shop.example.com/anything');
    expect(check('http://other.org/')).toBeNull();
  });

  it('keeps URLs no rule matches, and matches the query only for *PathQuery rules', () => {
    const filter = fastFilter([{ scope: 'GLOBAL', patterns: ['denypath \\?', 'DENYPATHQUERY sid='] }]);
    expect(filter.filter(null, null, 'http://a.com/x?y')).toBe('http://a.com/x?y');
    expect(filter.filter(null, null, 'http://a.com/x?sid=1')).toBeNull();
  });

  it('adds the patterns of a scope listed twice to the first ones', () => {
    const filter = fastFilter({
      rules: [
        { scope: 'GLOBAL', patterns: ['DenyPath ^/a'] },
        { scope: 'GLOBAL', patterns: ['DenyPath ^/b'] },
      ],
    });
    expect(filter.filter(null, null, 'http://x.com/a')).toBeNull();
    expect(filter.filter(null, null, 'http://x.com/b')).toBeNull();
  });

  it('reports invalid scopes, rule types and regexes', () => {
    const problems: string[] = [];
    parseFastRules(
      {
        rules: [
          { scope: 'planet:earth', patterns: [] },
          { scope: 'GLOBAL', patterns: ['BlockPath x', 'DenyPath (x'] },
          { scope: 'metadata:novalue', patterns: [] },
          { patterns: [] },
        ],
      },
      (m) => problems.push(m),
    );
    expect(problems).toEqual([
      expect.stringMatching(/^rules\[0\]: invalid scope "planet:earth"/),
      expect.stringMatching(/^rules\[1\] \(GLOBAL\) patterns\[0\]: expected "DenyPath\|/),
      expect.stringMatching(/^rules\[1\] \(GLOBAL\) patterns\[1\]: invalid regular expression/),
      expect.stringMatching(/^rules\[2\]: invalid scope "metadata:novalue"/),
      expect.stringMatching(/^rules\[3\]: "scope" must be a string/),
    ]);
  });
});
