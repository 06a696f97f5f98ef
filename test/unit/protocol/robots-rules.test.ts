import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROBOTS_PARSE_LIMIT, RobotRules, robotsAgents } from '../../../src/protocol/robots/rules.js';

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/robots/${name}`, import.meta.url));
const ORIGIN = 'http://example.com';

function allowed(txt: string | Buffer, path: string, agents: readonly string[] = ['mybot']): boolean {
  return RobotRules.parse(txt, agents, `${ORIGIN}/robots.txt`).isAllowed(ORIGIN + path);
}

describe('robots.txt rules (RFC 9309 on robots-parser)', () => {
  describe('what robots-parser already gets right', () => {
    it('lets the longest matching rule win, whichever comes first', () => {
      expect(allowed('User-agent: *\nDisallow: /a\nAllow: /a/b', '/a/b/c')).toBe(true);
      expect(allowed('User-agent: *\nAllow: /a\nDisallow: /a/b', '/a/b/c')).toBe(false);
      expect(allowed('User-agent: *\nAllow: /a\nDisallow: /a/b', '/a/c')).toBe(true);
    });

    it('lets Allow win a tie between rules of equal length', () => {
      expect(allowed('User-agent: *\nDisallow: /page\nAllow: /page', '/page')).toBe(true);
      expect(allowed('User-agent: *\nAllow: /page\nDisallow: /page', '/page')).toBe(true);
    });

    it('treats * as any sequence and $ as the end of the path', () => {
      const txt = 'User-agent: *\nDisallow: /*.php$\nDisallow: /priv*/x';
      expect(allowed(txt, '/index.php')).toBe(false);
      expect(allowed(txt, '/index.php?q=1')).toBe(true);
      expect(allowed(txt, '/a/b.php')).toBe(false);
      expect(allowed(txt, '/private/stuff/x')).toBe(false);
      expect(allowed(txt, '/public/x')).toBe(true);
    });

    it('reads $ in the middle of a rule literally', () => {
      expect(allowed('User-agent: *\nDisallow: /a$b', '/a$b')).toBe(false);
      expect(allowed('User-agent: *\nDisallow: /a$b', '/a')).toBe(true);
    });

    it('matches query strings as part of the path', () => {
      expect(allowed('User-agent: *\nDisallow: /*?sort=', '/list?sort=asc')).toBe(false);
      expect(allowed('User-agent: *\nDisallow: /*?sort=', '/list')).toBe(true);
    });

    it('merges every group that names the same agent', () => {
      const txt = fixture('merged-groups.txt');
      expect(allowed(txt, '/a/1')).toBe(false);
      expect(allowed(txt, '/b/1')).toBe(false);
      expect(allowed(txt, '/c/1')).toBe(true);
    });

    it('matches the user-agent line case-insensitively', () => {
      expect(allowed('User-agent: MyBot\nDisallow: /', '/x', ['mybot'])).toBe(false);
      expect(allowed('USER-AGENT: mybot\nDISALLOW: /', '/x', ['mybot'])).toBe(false);
    });

    it('falls back to the * group only when no group names us', () => {
      const txt = 'User-agent: *\nDisallow: /\n\nUser-agent: mybot\nDisallow: /private';
      expect(allowed(txt, '/public')).toBe(true);
      expect(allowed(txt, '/x', ['otherbot'])).toBe(false);
    });

    it('puts consecutive user-agent lines in one group, blank lines between them too', () => {
      expect(allowed('User-agent: otherbot\n\nUser-agent: mybot\nDisallow: /', '/x')).toBe(false);
    });

    it('ignores a UTF-8 byte order mark, comments and an empty Disallow', () => {
      expect(allowed('\uFEFFUser-agent: *\nDisallow: /x # not /y', '/x')).toBe(false);
      expect(allowed('\uFEFFUser-agent: *\nDisallow: /x # not /y', '/y')).toBe(true);
      expect(allowed('User-agent: *\nDisallow:', '/anything')).toBe(true);
    });

    it('matches a non-ASCII rule against the percent-encoded path', () => {
      expect(allowed('User-agent: *\nDisallow: /foo/bar/ツ', '/foo/bar/%E3%83%84')).toBe(false);
      expect(allowed('User-agent: *\nDisallow: /foo/bar/%e3%83%84', '/foo/bar/ツ')).toBe(false);
    });

    it('follows the example of RFC 9309 section 5.1', () => {
      const txt = fixture('rfc9309-example.txt');
      expect(allowed(txt, '/example/x', ['somebot'])).toBe(false);
      expect(allowed(txt, '/publications/x', ['somebot'])).toBe(true);
      expect(allowed(txt, '/img/a.gif', ['somebot'])).toBe(false);
      expect(allowed(txt, '/', ['foobot'])).toBe(false);
      expect(allowed(txt, '/example/page.html', ['foobot'])).toBe(true);
      expect(allowed(txt, '/example/allowed.gif', ['foobot'])).toBe(true);
      expect(allowed(txt, '/example/page.html', ['bazbot'])).toBe(false);
      expect(allowed(txt, '/example/other.html', ['barbot'])).toBe(true);
    });
  });

  describe('what the wrapper fixes', () => {
    it('merges the groups of all our agents: http.agent.name and http.robots.agents', () => {
      const txt = fixture('merged-groups.txt');
      const agents = ['mybot', 'google-extended'];
      expect(allowed(txt, '/ai/model', agents)).toBe(false);
      expect(allowed(txt, '/a/1', agents)).toBe(false);
      expect(allowed(txt, '/c/1', agents)).toBe(true);
      expect(allowed(txt, '/c/1', ['google-extended'])).toBe(true);
      expect(allowed(txt, '/a/1', ['google-extended'])).toBe(true);
    });

    it('matches the product token of a user-agent line, ignoring what follows it', () => {
      expect(allowed('User-agent: mybot extended edition\nDisallow: /', '/x')).toBe(false);
      expect(allowed('User-agent: mybot/1.0\nDisallow: /', '/x')).toBe(false);
      expect(allowed('User-agent: mybotx\nDisallow: /', '/x')).toBe(true);
    });

    it('matches percent-encoded unreserved characters as the characters (RFC 9309 2.2.2)', () => {
      expect(allowed('User-agent: *\nDisallow: /foo/bar/%62%61%7A', '/foo/bar/baz')).toBe(false);
      expect(allowed('User-agent: *\nDisallow: /foo/bar/baz', '/foo/bar/%62%61%7a')).toBe(false);
      expect(allowed('User-agent: *\nDisallow: /a%2fb', '/a/b')).toBe(true);
    });

    it('always allows /robots.txt itself', () => {
      expect(allowed('User-agent: *\nDisallow: /', '/robots.txt')).toBe(true);
      expect(RobotRules.FORBID_ALL.isAllowed(`${ORIGIN}/robots.txt`)).toBe(true);
      expect(RobotRules.FORBID_ALL.isAllowed(`${ORIGIN}/`)).toBe(false);
    });

    it('obeys an empty group that names us instead of falling back to *', () => {
      expect(allowed(fixture('rfc9309-example.txt'), '/example/x', ['quxbot'])).toBe(true);
      expect(allowed('User-agent: *\nDisallow: /\n\nUser-agent: mybot\n', '/x')).toBe(true);
    });

    it('exposes Crawl-delay in milliseconds for our group, ignoring values that are not positive', () => {
      expect(RobotRules.parse(fixture('merged-groups.txt'), ['mybot']).crawlDelayMs).toBe(2500);
      expect(RobotRules.parse('User-agent: *\nCrawl-delay: 10', ['mybot']).crawlDelayMs).toBe(10_000);
      expect(RobotRules.parse('User-agent: *\nCrawl-delay: -1', ['mybot']).crawlDelayMs).toBeUndefined();
      expect(RobotRules.parse('User-agent: *\nCrawl-delay: soon', ['mybot']).crawlDelayMs).toBeUndefined();
      expect(RobotRules.parse('User-agent: *\nDisallow: /', ['mybot']).crawlDelayMs).toBeUndefined();
    });

    it('lists Sitemap URLs made absolute against the robots.txt URL', () => {
      const rules = RobotRules.parse(
        'Sitemap: https://example.com/a.xml\nsitemap: /b.xml\nSitemap: ftp://x/c.xml\nSitemap: https://example.com/a.xml',
        ['mybot'],
        `${ORIGIN}/robots.txt`,
      );
      expect(rules.sitemaps).toEqual(['https://example.com/a.xml', 'http://example.com/b.xml']);
    });

    it('parses 500 KiB and more, but no more than ROBOTS_PARSE_LIMIT, cut at a line end', () => {
      const head = 'User-agent: *\nDisallow: /early\n';
      const padding = `# ${'x'.repeat(1000)}\n`.repeat(Math.ceil((500 * 1024) / 1003));
      const at500k = Buffer.from(`${head}${padding}Disallow: /late\n`);
      expect(at500k.length).toBeGreaterThan(500 * 1024);
      expect(allowed(at500k, '/late')).toBe(false);
      const beyond = Buffer.from(`${head}${padding}${'#'.repeat(ROBOTS_PARSE_LIMIT)}\nDisallow: /too-late\n`);
      expect(allowed(beyond, '/early')).toBe(false);
      expect(allowed(beyond, '/too-late')).toBe(true);
    });
  });

  describe('blanket rules', () => {
    it('allow or forbid every URL and carry no delay or sitemap', () => {
      expect(RobotRules.ALLOW_ALL.isAllowed(`${ORIGIN}/x`)).toBe(true);
      expect(RobotRules.FORBID_ALL.isAllowed(`${ORIGIN}/x`)).toBe(false);
      expect(RobotRules.ALLOW_ALL.sitemaps).toEqual([]);
      expect(RobotRules.FORBID_ALL.crawlDelayMs).toBeUndefined();
    });

    it('refuse a URL that does not parse instead of throwing', () => {
      expect(RobotRules.ALLOW_ALL.isAllowed('not a url')).toBe(false);
    });
  });
});

describe('robots agents', () => {
  it('are the agent name first, then http.robots.agents, lowercased and without repeats', () => {
    expect(
      robotsAgents({
        'http.agent.name': 'MyBot',
        'http.robots.agents': ['mybot', 'Google-Extended', 'CCBot'],
      }),
    ).toEqual(['mybot', 'google-extended', 'ccbot']);
  });

  it('keep the agent name when the list does not start with it (StormCrawler 3.x would drop it)', () => {
    expect(robotsAgents({ 'http.agent.name': 'mybot', 'http.robots.agents': ['otherbot'] })).toEqual([
      'mybot',
      'otherbot',
    ]);
  });

  it('refuse names that are not RFC 9309 product tokens, naming the key and value', () => {
    expect(() => robotsAgents({ 'http.agent.name': 'my bot', 'http.robots.agents': [] })).toThrow(
      /http\.agent\.name.*"my bot"/,
    );
    expect(() => robotsAgents({ 'http.agent.name': 'mybot', 'http.robots.agents': ['bot/1.0'] })).toThrow(
      /http\.robots\.agents.*"bot\/1\.0"/,
    );
  });
});
