import { describe, expect, it } from 'vitest';
import { cookieHeader } from '../../../src/protocol/http/cookies.js';
import { headerBlock, headersByName, httpDate, RequestHeaders } from '../../../src/protocol/http/headers.js';
import { metadataOf } from '../../../src/protocol/types.js';
import { ConfigError } from '../../../src/util/errors.js';

const base = {
  userAgent: 'mybot/1.0',
  accept: 'text/html',
  acceptLanguage: 'en',
  custom: [] as string[],
  useCookies: false,
  prefix: 'protocol.',
};
const NOW = Date.UTC(2025, 0, 1);
const url = new URL('https://shop.example.com/cart/view');

describe('request headers', () => {
  it('send the user agent, Accept, Accept-Language and the encodings we decode', () => {
    expect(new RequestHeaders(base).build(url, metadataOf(), NOW)).toEqual({
      'user-agent': 'mybot/1.0',
      accept: 'text/html',
      'accept-language': 'en',
      'accept-encoding': 'gzip, deflate, br',
    });
  });

  it('take Accept and Accept-Language from the URL metadata when it has them', () => {
    const h = new RequestHeaders(base).build(
      url,
      metadataOf({ 'http.accept': 'application/xml', 'http.accept.language': 'fr' }),
      NOW,
    );
    expect(h.accept).toBe('application/xml');
    expect(h['accept-language']).toBe('fr');
  });

  it('add http.custom.headers and per-URL protocol.set-header, replacing defaults of the same name', () => {
    const h = new RequestHeaders({ ...base, custom: ['X-Crawl=yes', 'Accept=*/*', 'X-List=a, b'] }).build(
      url,
      metadataOf({ 'protocol.set-header': ['X-Token=abc=def', 'bad header=1', 'X-Evil=a\r\nHost: x'] }),
      NOW,
    );
    expect(h['x-crawl']).toBe('yes');
    expect(h.accept).toBe('*/*');
    expect(h['x-list']).toBe('a, b');
    expect(h['x-token']).toBe('abc=def');
    expect(Object.keys(h)).not.toContain('bad header');
    expect(Object.keys(h)).not.toContain('x-evil');
  });

  it('refuse at start-up a custom header that is not Name=Value', () => {
    expect(() => new RequestHeaders({ ...base, custom: ['NoEquals'] })).toThrow(ConfigError);
    expect(() => new RequestHeaders({ ...base, custom: ['NoEquals'] })).toThrow(
      /http\.custom\.headers.*"NoEquals"/,
    );
  });

  it('send If-None-Match from the persisted ETag under the protocol prefix', () => {
    const h = new RequestHeaders({ ...base, prefix: 'p.' }).build(url, metadataOf({ 'p.etag': '"v1"' }), NOW);
    expect(h['if-none-match']).toBe('"v1"');
  });

  it("send the server's Last-Modified as If-Modified-Since rather than AdaptiveScheduler's fetch time", () => {
    const h = new RequestHeaders(base).build(
      url,
      metadataOf({
        'protocol.last-modified': 'Sat, 02 Mar 2024 08:00:00 GMT',
        'last-modified': '2024-03-05T10:20:30.000Z',
      }),
      NOW,
    );
    expect(h['if-modified-since']).toBe('Sat, 02 Mar 2024 08:00:00 GMT');
    const unreadable = new RequestHeaders(base).build(
      url,
      metadataOf({ 'protocol.last-modified': 'soon', 'last-modified': '2024-03-05T10:20:30.000Z' }),
      NOW,
    );
    expect(unreadable['if-modified-since']).toBe('Tue, 05 Mar 2024 10:20:30 GMT');
  });

  it('send If-Modified-Since from last-modified, an ISO instant or an HTTP date', () => {
    const iso = new RequestHeaders(base).build(
      url,
      metadataOf({ 'last-modified': '2024-03-05T10:20:30.000Z' }),
      NOW,
    );
    expect(iso['if-modified-since']).toBe('Tue, 05 Mar 2024 10:20:30 GMT');
    const http = new RequestHeaders(base).build(
      url,
      metadataOf({ 'last-modified': 'Tue, 05 Mar 2024 10:20:30 GMT' }),
      NOW,
    );
    expect(http['if-modified-since']).toBe('Tue, 05 Mar 2024 10:20:30 GMT');
    const junk = new RequestHeaders(base).build(url, metadataOf({ 'last-modified': 'yesterday' }), NOW);
    expect(junk['if-modified-since']).toBeUndefined();
  });

  it('send cookies back only when http.use.cookies is on', () => {
    const md = metadataOf({ 'protocol.set-cookie': ['sid=1; Path=/'] });
    expect(new RequestHeaders(base).build(url, md, NOW).cookie).toBeUndefined();
    expect(new RequestHeaders({ ...base, useCookies: true }).build(url, md, NOW).cookie).toBe('sid=1');
  });
});

describe('HTTP dates', () => {
  it('read ISO instants without an offset as UTC', () => {
    expect(httpDate('2024-03-05T10:20:30')).toBe('Tue, 05 Mar 2024 10:20:30 GMT');
    expect(httpDate('2024-03-05T12:20:30+02:00')).toBe('Tue, 05 Mar 2024 10:20:30 GMT');
  });
});

describe('cookies sent back', () => {
  it('keep the cookies whose Domain, Path and Secure fit the URL, dropping expired ones', () => {
    const set = [
      'a=1',
      'b=2; Domain=.example.com; Path=/cart',
      'c=3; Domain=other.com',
      'd=4; Path=/account',
      'e=5; Secure',
      'f=6; Max-Age=0',
      'g=7; Expires=Wed, 01 Jan 2020 00:00:00 GMT',
      'h=8; Expires=Wed, 01 Jan 2031 00:00:00 GMT',
      'garbage',
      'i=9; Path=/cartography',
    ];
    expect(cookieHeader(set, url, NOW)).toBe('a=1; b=2; e=5; h=8');
    expect(cookieHeader(set, new URL('http://shop.example.com/cart'), NOW)).toBe('a=1; b=2; h=8');
    expect(cookieHeader(['x=1; Domain=example.com'], new URL('http://badexample.com/'), NOW)).toBeUndefined();
  });
});

describe('response headers', () => {
  const raw = [
    'Content-Type',
    'text/html',
    'Set-Cookie',
    'a=1',
    'set-cookie',
    'b=2',
    'ETag',
    '"x"',
    '__proto__',
    'p',
  ];

  it('are grouped by lowercased name, values in the order received', () => {
    const h = headersByName(raw);
    expect(h['content-type']).toEqual(['text/html']);
    expect(h['set-cookie']).toEqual(['a=1', 'b=2']);
    expect(h.etag).toEqual(['"x"']);
    expect(Object.entries(h)).toContainEqual(['__proto__', ['p']]);
  });

  it('are kept verbatim, names in their case, after the status line for http.store.headers', () => {
    expect(headerBlock(200, 'OK', raw.slice(0, 4))).toBe(
      'HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nSet-Cookie: a=1\r\n',
    );
    expect(headerBlock(204, '', [])).toBe('HTTP/1.1 204\r\n');
  });
});
