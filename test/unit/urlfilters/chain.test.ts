import { describe, expect, it } from 'vitest';
import { URLFilterChain } from '../../../src/urlfilters/chain.js';
import type { URLFilter, WarnLogger } from '../../../src/urlfilters/types.js';
import { silentLogger } from '../../../src/util/log.js';

function recorder(): WarnLogger & { calls: { obj: object; msg: string }[] } {
  const calls: { obj: object; msg: string }[] = [];
  return { calls, warn: (obj, msg) => calls.push({ obj, msg }) };
}

const named = (name: string, fn: (url: string) => string | null): URLFilter => ({
  name,
  filter: (_s, _m, url) => fn(url),
});

const upper = named('upper-path', (u) => u.replace('/a', '/A'));
const throwing = named('broken', () => {
  throw new Error('boom');
});

describe('URLFilterChain', () => {
  it('runs the filters in order and stops at the first rejection', () => {
    const seen: string[] = [];
    const step = (name: string, fn: (url: string) => string | null) =>
      named(name, (u) => {
        seen.push(name);
        return fn(u);
      });
    const chain = new URLFilterChain([
      step('one', (u) => `${u}1`),
      step('reject', () => null),
      step('never', (u) => u),
    ]);
    expect(chain.filter(null, null, 'http://a.com/')).toBeNull();
    expect(seen).toEqual(['one', 'reject']);
  });

  it('passes valid http(s) URLs unchanged when it has no filters', () => {
    const chain = new URLFilterChain([]);
    expect(chain.filter(null, null, 'https://a.com/x#y')).toBe('https://a.com/x#y');
  });

  it('never lets other schemes or malformed URLs through, whatever the filters say', () => {
    const keepAll = new URLFilterChain([named('keep', (u) => u)]);
    for (const url of [
      'javascript:void(0)',
      'mailto:a@b.com',
      'data:text/html,hi',
      'ftp://a.com/',
      'file:///etc/passwd',
      'tel:123',
      '/relative/path',
      '',
      'http://',
      'http://a b.com/',
      'https://a{b/',
    ]) {
      expect(keepAll.filter(null, null, url), url).toBeNull();
    }
    const toJavascript = new URLFilterChain([named('evil', () => 'javascript:alert(1)')]);
    expect(toJavascript.filter(null, null, 'http://a.com/')).toBeNull();
  });

  it('skips a filter that throws, keeps the URL as it was, and reports it once', () => {
    const logger = recorder();
    const chain = new URLFilterChain([throwing, upper], { logger });
    expect(chain.filter(null, null, 'http://x.com/a')).toBe('http://x.com/A');
    expect(chain.filter(null, null, 'http://x.com/b')).toBe('http://x.com/b');
    expect(logger.calls).toHaveLength(1);
    expect(logger.calls[0]!.obj).toMatchObject({ filter: 'broken', url: 'http://x.com/a' });
    expect(chain.failures.get('broken')).toBe(2);
  });

  it('still applies later rejections after a filter throws', () => {
    const chain = new URLFilterChain([throwing, named('reject', () => null)], { logger: silentLogger });
    expect(chain.filter(null, null, 'http://x.com/')).toBeNull();
  });

  it('treats a filter answering undefined as a rejection', () => {
    const sloppy = named('sloppy', () => undefined as unknown as null);
    expect(new URLFilterChain([sloppy]).filter(null, null, 'http://x.com/')).toBeNull();
  });

  it('traces what each filter did', () => {
    const chain = new URLFilterChain([upper, throwing, named('reject', () => null)]);
    expect(chain.trace(null, null, 'http://x.com/a')).toEqual([
      { filter: 'upper-path', result: 'http://x.com/A' },
      { filter: 'broken', result: 'http://x.com/A', error: 'boom' },
      { filter: 'reject', result: null },
    ]);
    expect(chain.trace(null, null, 'mailto:a@b.c')).toEqual([
      { filter: '(http or https scheme)', result: null },
    ]);
  });

  it('accepts pino’s logger', () => {
    const logger: WarnLogger = silentLogger;
    expect(new URLFilterChain([], { logger }).filters).toEqual([]);
  });
});

describe('URLFilterChain drop counts and sitemaps', () => {
  it('counts the URLs each filter dropped', () => {
    const noGif = named('noGif', (u) => (u.endsWith('.gif') ? null : u));
    const chain = new URLFilterChain([noGif]);
    chain.filter(null, null, 'http://h.test/a.gif');
    chain.filter(null, null, 'http://h.test/a.gif');
    chain.filter(null, null, 'mailto:x@h.test');
    chain.filter(null, null, 'http://h.test/ok');
    expect(Object.fromEntries(chain.drops)).toEqual({ noGif: 2, '(http or https scheme)': 1 });
  });

  it('tells each drop to onDrop with the filter name', () => {
    const dropped: string[] = [];
    const chain = new URLFilterChain([named('never', () => null)], {
      onDrop: (f, u) => dropped.push(`${f} ${u}`),
    });
    chain.filter(null, null, 'http://h.test/');
    expect(dropped).toEqual(['never http://h.test/']);
  });

  it('lets URLs known to be sitemaps past filters that judge by name, not past the others', () => {
    const byName = {
      ...named('extensions', (u) => (u.endsWith('.gz') ? null : u)),
      sitemapsPass: true,
    };
    const hosts = named('hosts', (u) => (u.includes('other.test') ? null : u));
    const chain = new URLFilterChain([byName, hosts]);
    expect(chain.filter(null, null, 'http://h.test/sitemap.xml.gz')).toBeNull();
    expect(chain.filter(null, null, 'http://h.test/sitemap.xml.gz', { sitemap: true })).toBe(
      'http://h.test/sitemap.xml.gz',
    );
    expect(chain.filter(null, null, 'http://other.test/sitemap.xml.gz', { sitemap: true })).toBeNull();
  });
});
