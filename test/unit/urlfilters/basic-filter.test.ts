import { describe, expect, it } from 'vitest';
import { BasicURLFilter } from '../../../src/urlfilters/basic-filter.js';

const check = (filter: BasicURLFilter, url: string) => filter.filter(new URL(url), null, url);

describe('BasicURLFilter', () => {
  it('rejects a path part repeated maxPathRepetition times, wherever the repeats are', () => {
    const filter = new BasicURLFilter({ maxLength: -1, maxPathRepetition: 3 });
    expect(check(filter, 'http://www.sourcedomain.com/a/a/a/index.html')).toBeNull();
    expect(check(filter, 'http://www.sourcedomain.com/a/b/a/index.html')).toBe(
      'http://www.sourcedomain.com/a/b/a/index.html',
    );
    expect(check(filter, 'http://www.sourcedomain.com/a/b/a/c/a')).toBeNull();
  });

  it('rejects URLs longer than maxLength', () => {
    const filter = new BasicURLFilter({ maxLength: 32, maxPathRepetition: -1 });
    expect(check(filter, 'http://www.sourcedomain.com/a/a/a/index.html')).toBeNull();
    expect(check(filter, 'http://www.sourcedomain.com/')).toBe('http://www.sourcedomain.com/');
  });

  it('counts the whole URL split on "/", as StormCrawler does', () => {
    const twice = new BasicURLFilter({ maxPathRepetition: 2 });
    // The host and a query part count like path parts.
    expect(check(twice, 'http://a.com/b/c/a.com')).toBeNull();
    expect(check(twice, 'http://a.com/x?u=a/b/b')).toBeNull();
    // At most 4 parts once trailing empty parts are dropped (Java's split): always kept.
    expect(check(twice, 'http://a/a')).toBe('http://a/a');
    expect(check(twice, 'http://a/a///')).toBe('http://a/a///');
    // Empty parts between slashes are not counted.
    expect(check(twice, 'http://a.com//x//y')).toBe('http://a.com//x//y');
  });

  it('does nothing with its defaults except the repetition check at 3', () => {
    const filter = new BasicURLFilter();
    expect(check(filter, `http://a.com/${'x'.repeat(5000)}`)).not.toBeNull();
    expect(check(filter, 'http://a.com/p/p/p')).toBeNull();
    expect(new BasicURLFilter({ maxPathRepetition: 1 }).filter(null, null, 'http://a.com/p/p/p')).toBe(
      'http://a.com/p/p/p',
    );
  });
});
