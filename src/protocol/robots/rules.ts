import { createRequire } from 'node:module';
import { checkAgentName } from '../http/user-agent.js';

/*
 * robots-parser 3.0.1 checked against RFC 9309 (test/unit/protocol/robots-rules.test.ts pins each point):
 *
 * right as is: longest match wins; Allow wins a tie; "*" anywhere and "$" at the end; groups for the
 * same agent are merged; user-agent lines match case-insensitively; consecutive user-agent lines
 * (blank lines between them included) form one group; a UTF-8 BOM is ignored (String.trim drops it);
 * non-ASCII rules match percent-encoded paths; there is no size limit (it parses everything given).
 *
 * wrong, and fixed here by rewriting the text before parsing and the path before matching:
 * 1. It matches one agent only. We have several (http.agent.name + http.robots.agents): every
 *    user-agent line naming one of them is rewritten to the first, so their groups merge.
 * 2. It compares the whole user-agent value ("MyBot/1.0" minus the version); RFC 9309 §2.2.1 matches
 *    the product token, so "User-agent: mybot extended" is our group too.
 * 3. It compares percent-encodings as text: "/%62%61%7A" does not match "/baz" (RFC 9309 §2.2.2
 *    says it does). Encoded unreserved characters are decoded in rules and paths before matching.
 * 4. "/robots.txt" is not implicitly allowed (RFC 9309 §2.2.2): checked first here.
 * 5. Crawl-delay is in seconds, possibly fractional or negative; exposed here in whole ms, > 0 only.
 * 6. Relative Sitemap: URLs are returned as written; resolved here against the robots.txt URL.
 * 7. A group naming us with no rules at all (RFC 9309 §5.1's "quxbot") falls back to "*"; it is our
 *    group and allows everything. An empty group for our name is appended so the library sees it.
 * Memory: rules are parsed from at most ROBOTS_PARSE_LIMIT bytes, cut at a line end.
 */

interface ParsedRobots {
  isAllowed(url: string, ua?: string): boolean | undefined;
  getCrawlDelay(ua?: string): number | undefined;
  getSitemaps(): string[];
}

// The package's typings declare an ES default export that its CommonJS module does not have.
const robotsParser = createRequire(import.meta.url)('robots-parser') as (
  url: string,
  text: string,
) => ParsedRobots;

/** RFC 9309 §2.5 asks to parse at least 500 KiB; we parse 512 KiB. */
export const ROBOTS_PARSE_LIMIT = 524_288;
const BASE = 'http://robots.invalid';
const UNRESERVED = /[A-Za-z0-9\-._~]/;
const PRODUCT_TOKEN = /^[A-Za-z_-]+/;

export interface RobotsAgentSettings {
  readonly 'http.agent.name': string;
  readonly 'http.robots.agents': readonly string[];
}

/**
 * The agent names robots.txt groups are matched against, lowercased: http.agent.name first, then
 * http.robots.agents. DIFFERS FROM STORMCRAWLER 3.x, which drops the agent name when the list is set.
 */
export function robotsAgents(s: RobotsAgentSettings): string[] {
  const agents = [checkAgentName(s['http.agent.name']).toLowerCase()];
  for (const a of s['http.robots.agents']) {
    const name = checkAgentName(a, 'http.robots.agents').toLowerCase();
    if (!agents.includes(name)) agents.push(name);
  }
  return agents;
}

/** Decodes %XX of unreserved characters and upper-cases the others, so equal paths compare equal. */
export function normalisePercent(s: string): string {
  if (!s.includes('%')) return s;
  return s.replace(/%([0-9A-Fa-f]{2})/g, (m, hex: string) => {
    const c = String.fromCharCode(Number.parseInt(hex, 16));
    return UNRESERVED.test(c) ? c : m.toUpperCase();
  });
}

function prepare(text: string, agents: readonly string[]): string {
  const lines = text.split(/\r\n|\r|\n/);
  let ours = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const hash = line.indexOf('#');
    const content = hash < 0 ? line : line.slice(0, hash);
    const colon = content.indexOf(':');
    if (colon < 0) continue;
    const key = content.slice(0, colon).trim().toLowerCase();
    const value = content.slice(colon + 1).trim();
    if (key === 'user-agent') {
      const token = PRODUCT_TOKEN.exec(value)?.[0].toLowerCase();
      if (token && agents.includes(token)) {
        lines[i] = `user-agent: ${agents[0]}`;
        ours = true;
      }
    } else if (key === 'allow' || key === 'disallow') {
      lines[i] = `${key}: ${normalisePercent(value)}`;
    }
  }
  // An empty Disallow adds no rule but makes the library record the group.
  if (ours) lines.push(`user-agent: ${agents[0]}`, 'disallow:');
  return lines.join('\n');
}

function decode(content: Buffer | string): string {
  if (typeof content === 'string') return content;
  if (content.length <= ROBOTS_PARSE_LIMIT) return content.toString('utf8');
  // A rule cut in half could forbid more than it says ("Disallow: /a" from "Disallow: /about").
  const end = content.lastIndexOf(0x0a, ROBOTS_PARSE_LIMIT);
  return content.subarray(0, Math.max(end, 0)).toString('utf8');
}

export type RulesKind = 'parsed' | 'allow-all' | 'forbid-all';

/** What a robots.txt says for our agents (none for a blanket verdict). */
interface ParsedRules {
  readonly robots: ParsedRobots | undefined;
  readonly agent: string;
  readonly crawlDelayMs: number | undefined;
  readonly sitemaps: readonly string[];
}

const NO_RULES: ParsedRules = { robots: undefined, agent: '', crawlDelayMs: undefined, sitemaps: [] };

/** The rules of one robots.txt for our agents. Immutable; shared by every URL of the host. */
export class RobotRules {
  static readonly ALLOW_ALL = new RobotRules('allow-all', NO_RULES);
  static readonly FORBID_ALL = new RobotRules('forbid-all', NO_RULES);

  private readonly robots: ParsedRobots | undefined;
  private readonly agent: string;
  /** robots.txt Crawl-delay for our agents, in ms; undefined when absent or not positive. */
  readonly crawlDelayMs: number | undefined;
  /** Absolute Sitemap: URLs, for sitemap discovery. */
  readonly sitemaps: readonly string[];

  private constructor(
    /** `parsed` from a robots.txt, or the blanket verdict of a status code or error. */
    readonly kind: RulesKind,
    rules: ParsedRules,
  ) {
    this.robots = rules.robots;
    this.agent = rules.agent;
    this.crawlDelayMs = rules.crawlDelayMs;
    this.sitemaps = rules.sitemaps;
  }

  /** Parses a robots.txt body for `agents` (see robotsAgents: the first is the main name). */
  static parse(
    content: Buffer | string,
    agents: readonly string[],
    robotsUrl: string = `${BASE}/robots.txt`,
  ): RobotRules {
    const robots = robotsParser(`${BASE}/robots.txt`, prepare(decode(content), agents));
    const delay = robots.getCrawlDelay(agents[0]);
    const sitemaps = new Set<string>();
    for (const s of robots.getSitemaps()) {
      try {
        const url = new URL(s, robotsUrl);
        if (url.protocol === 'http:' || url.protocol === 'https:') sitemaps.add(url.href);
      } catch {
        // A malformed Sitemap line names nothing we could fetch.
      }
    }
    const delayMs = delay !== undefined && delay > 0 ? Math.round(delay * 1000) : undefined;
    return new RobotRules('parsed', {
      robots,
      agent: agents[0]!,
      crawlDelayMs: delayMs,
      sitemaps: [...sitemaps],
    });
  }

  /** Whether our agents may fetch `url` (whose host this robots.txt is for). Never throws. */
  isAllowed(url: string | URL): boolean {
    let u: URL;
    try {
      u = typeof url === 'string' ? new URL(url) : url;
    } catch {
      return false;
    }
    if (u.pathname === '/robots.txt' && u.search === '') return true;
    if (this.kind !== 'parsed') return this.kind === 'allow-all';
    const path = normalisePercent(u.pathname) + normalisePercent(u.search);
    return this.robots!.isAllowed(BASE + path, this.agent) !== false;
  }
}
