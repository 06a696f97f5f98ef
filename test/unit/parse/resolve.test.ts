import { describe, expect, it } from 'vitest';
import { resolveCached, resolveHref } from '../../../src/parse/resolve.js';

describe('resolveCached (the URL cache the outlinks and the Markdown share)', () => {
  it('resolves as the URL parser does, cached or not', () => {
    const base = new URL('http://a.test/dir/page.html');
    for (const href of ['/x/../y.html', '/x/../y.html', 'HTTP://B.test/Z', 'rel.html', 'mailto:me@a.test'])
      expect(resolveCached(href, base)).toBe(resolveHref(href, base));
    expect(resolveCached('/x/../y.html', base)).toBe('http://a.test/y.html');
    expect(resolveCached('mailto:me@a.test', base)).toBe('mailto:me@a.test');
    expect(resolveCached('http://[bad', base)).toBeUndefined();
  });

  it('keys root-relative links by the origin of the base', () => {
    expect(resolveCached('/same.html', new URL('http://a.test/p'))).toBe('http://a.test/same.html');
    expect(resolveCached('/same.html', new URL('https://b.test/p'))).toBe('https://b.test/same.html');
  });

  it('never shares a root-relative link between bases whose origin is opaque', () => {
    // Both origins read "null": keyed by it, the second page would get the first page's host.
    expect(resolveCached('/opaque.html', new URL('foo://one/x'))).toBe('foo://one/opaque.html');
    expect(resolveCached('/opaque.html', new URL('foo://two/x'))).toBe('foo://two/opaque.html');
  });
});
