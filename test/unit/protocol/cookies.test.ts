import { describe, expect, it } from 'vitest';
import { cookieHeader, stampSetCookies } from '../../../src/protocol/http/cookies.js';
import { RequestHeaders } from '../../../src/protocol/http/headers.js';
import { metadataOf } from '../../../src/protocol/types.js';

const NOW = Date.UTC(2025, 0, 1);

/** The Cookie header `target` gets from what `page` answered with `setCookies`. */
function sent(page: string, setCookies: string[], target: string): string | undefined {
  return cookieHeader(stampSetCookies(setCookies, page), new URL(target), NOW);
}

describe('cookies by RFC 6265', () => {
  it('refuse a Domain that is a public suffix', () => {
    for (const target of ['http://www.example.co.uk/', 'http://other.co.uk/']) {
      expect(sent('http://www.example.co.uk/', ['a=1; Domain=co.uk'], target)).toBeUndefined();
    }
    for (const target of ['http://www.example.com/', 'http://evil.com/']) {
      expect(sent('http://www.example.com/', ['a=1; Domain=.com'], target)).toBeUndefined();
    }
    // Private suffixes too: one github.io site cannot set cookies for all of them.
    expect(sent('http://me.github.io/', ['a=1; Domain=github.io'], 'http://you.github.io/')).toBeUndefined();
  });

  it('refuse a Domain that does not cover the setting host', () => {
    expect(sent('http://www.example.com/', ['a=1; Domain=other.com'], 'http://other.com/')).toBeUndefined();
    expect(
      sent('http://www.example.com/', ['a=1; Domain=shop.example.com'], 'http://shop.example.com/'),
    ).toBe(undefined);
    expect(sent('http://127.0.0.1/', ['a=1; Domain=localhost'], 'http://localhost/')).toBeUndefined();
  });

  it('send a Domain cookie to the hosts under its Domain only', () => {
    const set = ['a=1; Domain=.example.com'];
    expect(sent('http://www.example.com/', set, 'http://shop.example.com/')).toBe('a=1');
    expect(sent('http://www.example.com/', set, 'http://example.com/')).toBe('a=1');
    expect(sent('http://www.example.com/', set, 'http://badexample.com/')).toBeUndefined();
    expect(sent('http://www.example.com/', set, 'http://example.org/')).toBeUndefined();
  });

  it('keep a cookie without Domain on its exact host', () => {
    const set = ['a=1'];
    expect(sent('http://www.example.com/', set, 'http://www.example.com/other')).toBe('a=1');
    expect(sent('http://www.example.com/', set, 'http://shop.www.example.com/')).toBeUndefined();
    expect(sent('http://www.example.com/', set, 'http://example.com/')).toBeUndefined();
    expect(sent('http://127.0.0.1:8080/', set, 'http://localhost:8080/')).toBeUndefined();
    // A Domain equal to a public suffix that is the host itself makes a host-only cookie (5.3 step 5).
    expect(sent('http://localhost/', ['b=2; Domain=localhost'], 'http://localhost/x')).toBe('b=2');
  });

  it('ignore a Set-By sent by the server: the crawler says who set the cookie', () => {
    expect(sent('http://evil.com/', ['a=1; Set-By=bank.com'], 'http://bank.com/')).toBeUndefined();
  });

  it('send a cookie under its Path, by default the directory of the page that set it', () => {
    const page = 'http://example.com/shop/cart/add';
    expect(sent(page, ['a=1'], 'http://example.com/shop/cart/view')).toBe('a=1');
    expect(sent(page, ['a=1'], 'http://example.com/shop/cart')).toBe('a=1');
    expect(sent(page, ['a=1'], 'http://example.com/shop/other')).toBeUndefined();
    expect(sent(page, ['a=1'], 'http://example.com/shop/cartography')).toBeUndefined();
    expect(sent(page, ['b=2; Path=/'], 'http://example.com/elsewhere')).toBe('b=2');
    expect(sent(page, ['c=3; Path=/account'], 'http://example.com/shop/cart/view')).toBeUndefined();
  });

  it('send a Secure cookie over https only', () => {
    expect(sent('https://example.com/', ['a=1; Secure'], 'http://example.com/')).toBeUndefined();
    expect(sent('https://example.com/', ['a=1; Secure'], 'https://example.com/')).toBe('a=1');
  });

  it('take the linking page as the setter of cookies that carry none (seeds, older documents)', () => {
    const headers = new RequestHeaders({
      userAgent: 'bot',
      accept: '*/*',
      acceptLanguage: '',
      custom: [],
      useCookies: true,
      prefix: 'protocol.',
    });
    const md = (path: string[]) => metadataOf({ 'protocol.set-cookie': ['sid=1; Path=/'], 'url.path': path });
    const other = new URL('http://other.org/');
    expect(headers.build(other, md(['http://example.com/']), NOW).cookie).toBeUndefined();
    expect(headers.build(other, md(['http://example.com/', 'http://other.org/list']), NOW).cookie).toBe(
      'sid=1',
    );
    // A seed (no linking page): its own cookies, as the user gave them.
    expect(headers.build(other, md([]), NOW).cookie).toBe('sid=1');
  });
});
