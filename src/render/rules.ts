import type { MetadataView } from '../protocol/types.js';
import { ConfigError } from '../util/errors.js';

/** How one URL is fetched: plain HTTP, always rendered, or as its host's adaptive decision says. */
export type Route = 'http' | 'playwright' | 'adaptive';

/** A route and what chose it (`fetch.with`, `rule:<id>`, `default`), for `render.reason`. */
export interface Choice {
  readonly route: Route;
  readonly reason: string;
}

/** Metadata a page (a seed, a parse filter such as SC's JsRenderingDetector) sets to choose. */
export const FETCH_WITH = 'fetch.with';

const KEY = 'protocol.delegator.config';

/** One entry of protocol.delegator.config, checked. */
export interface DelegatorRule {
  readonly id: string;
  readonly route: Route;
  /** key -> value; '' = the key must be present. */
  readonly filters: readonly (readonly [string, string])[];
  readonly operator: 'AND' | 'OR';
  readonly regex: readonly RegExp[];
  readonly choice: Choice;
}

/** A StormCrawler class name or one of ours to a route; undefined when it names nothing we know. */
export function routeOfClass(name: string): Route | undefined {
  const n = name.trim().toLowerCase();
  if (n === 'http' || n === 'https') return 'http';
  if (n === 'playwright' || n === 'adaptive') return n;
  if (!n.startsWith('org.apache.stormcrawler.')) return undefined;
  // Browser protocols (playwright, selenium) render; every other SC protocol is plain HTTP.
  if (n.includes('.playwright.') || n.includes('.selenium.')) return 'playwright';
  if (n.endsWith('delegatorprotocol')) return undefined;
  return 'http';
}

function fail(problem: string): never {
  throw new ConfigError([`key "${KEY}": ${problem}`]);
}

function ruleOf(raw: unknown, i: number): DelegatorRule {
  const where = `entry ${i + 1}`;
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    fail(
      `${where} is ${JSON.stringify(raw)}; expected a mapping with className (and filters, operator, regex)`,
    );
  const e = raw as Record<string, unknown>;
  const known = new Set(['id', 'className', 'filters', 'operator', 'regex']);
  const extra = Object.keys(e).filter((k) => !known.has(k));
  if (extra.length > 0)
    fail(`${where} has unknown field(s) ${extra.join(', ')}; expected ${[...known].join(', ')}`);
  if (typeof e.className !== 'string')
    fail(
      `${where} has no className; expected "http", "playwright", "adaptive" or a StormCrawler protocol class`,
    );
  const route = routeOfClass(e.className);
  if (!route)
    fail(
      `${where} has className ${JSON.stringify(e.className)}; expected "http", "playwright", "adaptive" or a StormCrawler protocol class`,
    );
  const operator = e.operator ?? 'AND';
  if (operator !== 'AND' && operator !== 'OR')
    fail(`${where} has operator ${JSON.stringify(operator)}; expected AND or OR`);
  const filters: [string, string][] = [];
  if (e.filters !== undefined && e.filters !== null) {
    if (typeof e.filters !== 'object' || Array.isArray(e.filters))
      fail(`${where} has filters ${JSON.stringify(e.filters)}; expected a mapping of metadata key to value`);
    for (const [k, v] of Object.entries(e.filters as Record<string, unknown>)) {
      if (v !== null && typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean')
        fail(
          `${where} filter "${k}" has ${JSON.stringify(v)}; expected a string (empty = the key is present)`,
        );
      filters.push([k, v === null ? '' : String(v)]);
    }
  }
  const regex: RegExp[] = [];
  if (e.regex !== undefined && e.regex !== null) {
    const list = typeof e.regex === 'string' ? [e.regex] : e.regex;
    if (!Array.isArray(list) || !list.every((r) => typeof r === 'string'))
      fail(`${where} has regex ${JSON.stringify(e.regex)}; expected a list of regular expressions`);
    for (const r of list as string[]) {
      try {
        regex.push(new RegExp(r));
      } catch (err) {
        fail(`${where} has an invalid regex ${JSON.stringify(r)}: ${(err as Error).message}`);
      }
    }
  }
  const id = typeof e.id === 'string' ? e.id : String(i + 1);
  return { id, route, filters, operator, regex, choice: { route, reason: `rule:${id}` } };
}

/** Checks protocol.delegator.config (as StormCrawler's DelegatorProtocol does at configure). */
export function parseDelegatorRules(value: unknown): DelegatorRule[] {
  if (value === null || value === undefined || value === '') return [];
  if (!Array.isArray(value)) fail('a single object found; expected a list of entries');
  const rules = value.map(ruleOf);
  const last = rules[rules.length - 1];
  if (last && last.filters.length > 0)
    fail(
      'the last entry has filters but must not, as it is the default for every URL no entry before matched',
    );
  return rules;
}

function hasValue(md: MetadataView, key: string, value: string): boolean {
  const values = md.getValues(key);
  if (!values || values.length === 0) return false;
  return value === '' || values.includes(value);
}

/** SC's isMatch: no filters and no regex match everything; AND fails at a miss, OR wins at a hit. */
function matches(rule: DelegatorRule, url: string, md: MetadataView): boolean {
  if (rule.filters.length === 0 && rule.regex.length === 0) return true;
  const and = rule.operator === 'AND';
  for (const [k, v] of rule.filters) {
    const hit = hasValue(md, k, v);
    if (and && !hit) return false;
    if (!and && hit) return true;
  }
  for (const r of rule.regex) {
    const hit = r.test(url);
    if (and && !hit) return false;
    if (!and && hit) return true;
  }
  return and;
}

/**
 * Chooses the route of a URL: metadata fetch.with ("playwright" or "http") first, then the first
 * matching rule, then the default (adaptive when render.adaptive, else http). A URL no rule
 * matches (the last has only a regex) takes the default too. DIFFERS FROM STORMCRAWLER, which fails
 * such a fetch ("No sub protocol eligible").
 */
export class RouteRules {
  private readonly fallbackChoice: Choice;

  constructor(
    readonly rules: readonly DelegatorRule[],
    readonly fallback: Route,
  ) {
    this.fallbackChoice = { route: fallback, reason: 'default' };
  }

  /** True when some URL may be rendered whatever the adaptive choice says. */
  get mayRender(): boolean {
    return this.fallback !== 'http' || this.rules.some((r) => r.route !== 'http');
  }

  choose(url: string, md: MetadataView): Choice {
    const asked = md.getFirstValue(FETCH_WITH);
    if (asked === 'playwright') return BY_METADATA_PLAYWRIGHT;
    if (asked === 'http') return BY_METADATA_HTTP;
    for (const rule of this.rules) if (matches(rule, url, md)) return rule.choice;
    return this.fallbackChoice;
  }
}

const BY_METADATA_PLAYWRIGHT: Choice = { route: 'playwright', reason: FETCH_WITH };
const BY_METADATA_HTTP: Choice = { route: 'http', reason: FETCH_WITH };
