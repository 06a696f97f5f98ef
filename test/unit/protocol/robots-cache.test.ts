import { describe, expect, it } from 'vitest';
import { parseCacheSpec } from '../../../src/model/cache-spec.js';
import { TtlCache } from '../../../src/protocol/robots/cache.js';
import { robotsCacheKey, rulesForStatus } from '../../../src/protocol/robots/fetch-robots.js';
import { RobotRules } from '../../../src/protocol/robots/rules.js';
import { ManualClock } from '../../../src/util/clock.js';

const HOUR = 3_600_000;

describe('robots cache', () => {
  it('forgets an entry expireAfterWrite after it was written, however often it is read', () => {
    const clock = new ManualClock();
    const cache = new TtlCache<string>(parseCacheSpec('maximumSize=10,expireAfterWrite=6h', 'k'), clock);
    cache.set('a', 'rules');
    clock.advance(6 * HOUR - 1);
    expect(cache.get('a')).toBe('rules');
    clock.advance(1);
    expect(cache.get('a')).toBeUndefined();
  });

  it('keeps an entry read within expireAfterAccess', () => {
    const clock = new ManualClock();
    const cache = new TtlCache<string>(parseCacheSpec('expireAfterAccess=1h', 'k'), clock);
    cache.set('a', 'x');
    for (let i = 0; i < 5; i++) {
      clock.advance(HOUR - 1);
      expect(cache.get('a')).toBe('x');
    }
    clock.advance(HOUR);
    expect(cache.get('a')).toBeUndefined();
  });

  it('drops the least recently used entry beyond maximumSize', () => {
    const cache = new TtlCache<number>(parseCacheSpec('maximumSize=2', 'k'), new ManualClock());
    cache.set('a', 1);
    cache.set('b', 2);
    cache.get('a');
    cache.set('c', 3);
    expect(cache.get('a')).toBe(1);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('c')).toBe(3);
    expect(cache.size).toBe(2);
  });

  it('holds nothing with maximumSize=0', () => {
    const cache = new TtlCache<number>(parseCacheSpec('maximumSize=0', 'k'), new ManualClock());
    cache.set('a', 1);
    expect(cache.get('a')).toBeUndefined();
  });

  it('refuses a spec it cannot honour, naming the key', () => {
    expect(() => parseCacheSpec('maximumSize=lots', 'robots.cache.spec')).toThrow(/robots\.cache\.spec/);
  });
});

describe('robots cache key', () => {
  it('is scheme:host:port with the default port filled in', () => {
    expect(robotsCacheKey(new URL('http://Example.COM/a'))).toBe('http:example.com:80');
    expect(robotsCacheKey(new URL('https://example.com/a'))).toBe('https:example.com:443');
    expect(robotsCacheKey(new URL('https://example.com:443/a'))).toBe('https:example.com:443');
    expect(robotsCacheKey(new URL('http://example.com:8080/a'))).toBe('http:example.com:8080');
    expect(robotsCacheKey(new URL('http://[::1]:8080/'))).toBe('http:[::1]:8080');
  });
});

describe('robots.txt outcome by final status code (StormCrawler HttpRobotRulesParser)', () => {
  const defaults = { 'http.robots.403.allow': true, 'http.robots.5xx.allow': false };
  const verdict = (status: number, s = defaults) => {
    const { rules, error } = rulesForStatus(status, s);
    return [rules === RobotRules.ALLOW_ALL ? 'allow' : 'forbid', error ? 'error cache' : 'cache'];
  };

  it.each([
    [300, 'allow', 'cache'],
    [399, 'allow', 'cache'],
    [400, 'allow', 'cache'],
    [401, 'allow', 'cache'],
    [403, 'allow', 'cache'],
    [404, 'allow', 'cache'],
    [410, 'allow', 'cache'],
    [499, 'allow', 'cache'],
    [299, 'allow', 'cache'],
    [777, 'allow', 'cache'],
    [429, 'forbid', 'error cache'],
    [500, 'forbid', 'error cache'],
    [503, 'forbid', 'error cache'],
    [599, 'forbid', 'error cache'],
  ])('%i -> %s, %s', (status, rules, cache) => {
    expect(verdict(status)).toEqual([rules, cache]);
  });

  it('forbids on 403 when http.robots.403.allow is false', () => {
    expect(verdict(403, { ...defaults, 'http.robots.403.allow': false })).toEqual(['forbid', 'cache']);
  });

  it('allows on 5xx when http.robots.5xx.allow is true, still in the error cache; 429 still forbids', () => {
    const s = { ...defaults, 'http.robots.5xx.allow': true };
    expect(verdict(500, s)).toEqual(['allow', 'error cache']);
    expect(verdict(429, s)).toEqual(['forbid', 'error cache']);
  });
});
