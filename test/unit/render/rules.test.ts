import { describe, expect, it } from 'vitest';
import { Metadata } from '../../../src/model/metadata.js';
import { parseDelegatorRules, RouteRules, routeOfClass } from '../../../src/render/rules.js';
import { ConfigError } from '../../../src/util/errors.js';

const md = (entries: Record<string, string | string[]> = {}) => Metadata.of(entries);

/** StormCrawler's DelegationProtocolTest configuration, with routes for its dummy protocols. */
const SC_TEST = [
  { id: 'first', className: 'playwright', filters: { domain: 'example.com', depth: '3', test: 'true' } },
  { id: 'second', className: 'playwright', filters: { js: 'true' } },
  { id: 'third', className: 'adaptive', filters: { ping: null, pong: '' }, operator: 'OR' },
  { id: 'fourth', className: 'http', regex: ['\\.pdf', '\\.doc'], operator: 'OR' },
  { id: 'default', className: 'adaptive' },
];

describe('protocol.delegator.config (StormCrawler DelegatorProtocol rules)', () => {
  const rules = new RouteRules(parseDelegatorRules(SC_TEST), 'http');
  const reason = (url: string, m: Metadata) => rules.choose(url, m).reason;

  it("chooses as StormCrawler's own test asserts", () => {
    expect(reason('https://x.org/', md({ js: 'true' }))).toBe('rule:second');
    expect(reason('https://x.org/', md())).toBe('rule:default');
    expect(reason('https://x.org/', md({ domain: 'example.com' }))).toBe('rule:default');
    expect(reason('https://x.org/', md({ domain: 'example.com', depth: '3', test: 'true' }))).toBe(
      'rule:first',
    );
    expect(reason('https://x.org/a.pdf', md())).toBe('rule:fourth');
    expect(reason('https://x.org/a.doc', md())).toBe('rule:fourth');
    // Executed but not asserted there; what the algorithm gives.
    expect(reason('https://x.org/', md({ test: 'false' }))).toBe('rule:default');
    expect(reason('https://x.org/', md({ ping: 'x' }))).toBe('rule:third');
  });

  it('lets metadata fetch.with decide before any rule', () => {
    expect(rules.choose('https://x.org/a.pdf', md({ 'fetch.with': 'playwright' }))).toEqual({
      route: 'playwright',
      reason: 'fetch.with',
    });
    expect(rules.choose('https://x.org/', md({ js: 'true', 'fetch.with': 'http' })).route).toBe('http');
  });

  it('takes the default when no rule matches (the last has only a regex)', () => {
    const only = new RouteRules(
      parseDelegatorRules([{ className: 'playwright', regex: ['/app/'] }]),
      'adaptive',
    );
    expect(only.choose('https://x.org/app/1', md()).route).toBe('playwright');
    expect(only.choose('https://x.org/blog', md())).toEqual({ route: 'adaptive', reason: 'default' });
  });

  it("maps StormCrawler's class names", () => {
    expect(routeOfClass('org.apache.stormcrawler.protocol.okhttp.HttpProtocol')).toBe('http');
    expect(routeOfClass('org.apache.stormcrawler.protocol.playwright.HttpProtocol')).toBe('playwright');
    expect(routeOfClass('org.apache.stormcrawler.protocol.selenium.RemoteDriverProtocol')).toBe('playwright');
    expect(routeOfClass('com.example.Mine')).toBeUndefined();
  });

  it('refuses what StormCrawler refuses, naming the key and the entry', () => {
    const refused = (value: unknown) => {
      try {
        parseDelegatorRules(value);
      } catch (e) {
        expect(e).toBeInstanceOf(ConfigError);
        return (e as ConfigError).problems.join(' ');
      }
      return 'accepted';
    };
    expect(refused({ className: 'http' })).toMatch(/protocol\.delegator\.config.*single object/);
    expect(refused([{ className: 'http', filters: { a: 'b' } }])).toMatch(/last entry has filters/);
    expect(refused([{ className: 'com.example.Mine' }])).toMatch(
      /entry 1 has className "com\.example\.Mine"/,
    );
    expect(refused([{ className: 'http', operator: 'or' }])).toMatch(/operator "or"; expected AND or OR/);
    expect(refused([{ className: 'http', regex: ['('] }])).toMatch(/invalid regex/);
    expect(refused([])).toBe('accepted');
  });
});
