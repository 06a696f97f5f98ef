import { afterEach, describe, expect, it } from 'vitest';
import { ProxyRotation, proxyUrls, redact } from '../../../src/protocol/http/proxies.js';
import { protocolSettings } from '../../../src/protocol/settings.js';
import { ConfigError } from '../../../src/util/errors.js';

const settings = (entries: Record<string, unknown>) => protocolSettings(entries);
const file = (text: string) => () => text;

describe('proxy list', () => {
  it('is empty without http.proxy.host or http.proxy.file', () => {
    expect(proxyUrls(settings({}))).toEqual([]);
  });

  it('is http.proxy.host and port, with user and password encoded', () => {
    expect(proxyUrls(settings({ 'http.proxy.host': 'proxy.local', 'http.proxy.port': 3128 }))).toEqual([
      'http://proxy.local:3128/',
    ]);
    expect(
      proxyUrls(
        settings({ 'http.proxy.host': 'proxy.local', 'http.proxy.user': 'me', 'http.proxy.pass': 'p@ss:w' }),
      ),
    ).toEqual(['http://me:p%40ss%3Aw@proxy.local:8080/']);
  });

  it('is the lines of http.proxy.file, skipping blanks and # or // comments, winning over the host', () => {
    const text = '# proxies\nhttp://a.local:3128\n\n  // old one\nhttp://user:pw@b.local:8080\n';
    expect(
      proxyUrls(settings({ 'http.proxy.file': 'proxies.txt', 'http.proxy.host': 'ignored' }), file(text)),
    ).toEqual(['http://a.local:3128/', 'http://user:pw@b.local:8080/']);
  });

  it('refuses a bad line naming the file and the line', () => {
    expect(() =>
      proxyUrls(settings({ 'http.proxy.file': 'p.txt' }), file('http://ok:1\nsocks://x:1')),
    ).toThrow(/p\.txt line 2/);
    expect(() => proxyUrls(settings({ 'http.proxy.file': 'p.txt' }), file('# nothing'))).toThrow(ConfigError);
    expect(() =>
      proxyUrls(settings({ 'http.proxy.file': 'missing.txt' }), () => {
        throw new Error('ENOENT');
      }),
    ).toThrow(/http\.proxy\.file.*missing\.txt/);
  });

  it('hides passwords in messages', () => {
    expect(redact('http://user:secret@host:1/')).toBe('http://user:***@host:1/');
  });
});

describe('proxy rotation', () => {
  const urls = ['http://a.local:1', 'http://b.local:2', 'http://c.local:3'];
  let rotation: ProxyRotation | undefined;
  afterEach(async () => rotation?.close());

  const picks = (r: ProxyRotation, n: number) => Array.from({ length: n }, () => r.next().index);

  it('ROUND_ROBIN takes the proxies in turn', () => {
    rotation = new ProxyRotation(urls, 'ROUND_ROBIN');
    expect(picks(rotation, 7)).toEqual([0, 1, 2, 0, 1, 2, 0]);
    expect(rotation.usageCounts()).toEqual([3, 2, 2]);
  });

  it('RANDOM draws from the random source', () => {
    const draws = [0.9, 0.1, 0.5, 0.99];
    rotation = new ProxyRotation(urls, 'RANDOM', {}, () => draws.shift()!);
    expect(picks(rotation, 4)).toEqual([2, 0, 1, 2]);
  });

  it('LEAST_USED takes the proxy used least so far, the first on a tie', () => {
    rotation = new ProxyRotation(urls, 'LEAST_USED');
    expect(picks(rotation, 6)).toEqual([0, 1, 2, 0, 1, 2]);
  });
});
