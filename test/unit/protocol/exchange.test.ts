import { describe, expect, it } from 'vitest';
import { contentDecoded, sentHeaders } from '../../../src/protocol/exchange.js';

describe('the exchange kept for WARC output', () => {
  it('a body counts as decoded only when every Content-Encoding is one the crawler undoes', () => {
    expect(contentDecoded(['gzip'])).toBe(true);
    expect(contentDecoded(['deflate, br'])).toBe(true);
    expect(contentDecoded(['identity'])).toBe(false);
    expect(contentDecoded(undefined)).toBe(false);
    // Kept as sent: zstd is not undone, so neither is the gzip around it.
    expect(contentDecoded(['gzip, zstd'])).toBe(false);
  });

  it('the request fields are what undici writes: host, connection, then ours in order', () => {
    const h = sentHeaders(new URL('http://example.org:8080/a?b'), 'GET', {
      'user-agent': 'bot',
      accept: '*/*',
    });
    expect(h).toEqual([
      ['host', 'example.org:8080'],
      ['connection', 'keep-alive'],
      ['user-agent', 'bot'],
      ['accept', '*/*'],
    ]);
    expect(sentHeaders(new URL('https://example.org/'), 'HEAD', {})).toEqual([
      ['host', 'example.org'],
      ['connection', 'close'],
    ]);
  });
});
