import { describe, expect, it } from 'vitest';
import { hostOf } from '../../../src/render/protocol.js';

describe('the host of a page (the key of its render decision)', () => {
  it('is the URL parser hostname, for plain and unusual URLs', () => {
    for (const url of [
      'http://example.com/a',
      'https://Example.COM:8443/a?b#c',
      'http://example.com',
      'http://example.com?x=1',
      'http://user:pw@example.com/',
      'http://[::1]:8080/x',
      'http://127.0.24.1:4000/app/1',
    ])
      expect(hostOf(url), url).toBe(new URL(url).hostname);
  });
});
