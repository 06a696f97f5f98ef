import { errorMessage } from '../util/errors.js';
import { compileJavaRegex } from './java-regex.js';
import type { FilterContext } from './params.js';
import type { MetadataView, URLFilter } from './types.js';
import { parseWebUrl } from './url.js';

interface FastRule {
  readonly deny: boolean;
  /** Match against the path plus "?query" rather than the path alone. */
  readonly withQuery: boolean;
  readonly pattern: RegExp;
}

interface MetadataScope {
  readonly key: string;
  /** Lowercased: compared ignoring case. */
  readonly value: string;
  readonly rules: readonly FastRule[];
}

/** Compiled rules, grouped by scope. */
export interface FastRules {
  readonly global: readonly FastRule[];
  readonly hosts: ReadonlyMap<string, readonly FastRule[]>;
  readonly domains: ReadonlyMap<string, readonly FastRule[]>;
  readonly metadata: readonly MetadataScope[];
}

const RULE = /^(denypathquery|denypath|allowpathquery|allowpath)\s+(.+)$/is;

function parseRule(line: string): FastRule {
  const m = RULE.exec(line.trim());
  if (!m)
    throw new Error(
      `expected "DenyPath|DenyPathQuery|AllowPath|AllowPathQuery <regex>", found ${JSON.stringify(line)}`,
    );
  const type = m[1]!.toLowerCase();
  try {
    return {
      deny: type.startsWith('deny'),
      withQuery: type.endsWith('query'),
      pattern: compileJavaRegex(m[2]!.trim()),
    };
  } catch (e) {
    throw new Error(`invalid regular expression ${JSON.stringify(m[2]!.trim())}: ${errorMessage(e)}`);
  }
}

function append<K>(map: Map<K, FastRule[]>, key: K, rules: FastRule[]): void {
  map.set(key, [...(map.get(key) ?? []), ...rules]);
}

/**
 * Reads the JSON rules: `{"rules": [{"scope": ..., "patterns": [...]}]}`; as in StormCrawler, any
 * object with a single key stands for that key's value, and a bare array is accepted too. Each
 * problem (by scope index) goes to `problem` and that scope or pattern is left out.
 */
export function parseFastRules(json: unknown, problem: (message: string) => void): FastRules {
  const global: FastRule[] = [];
  const hosts = new Map<string, FastRule[]>();
  const domains = new Map<string, FastRule[]>();
  const metadata: MetadataScope[] = [];
  let list = json;
  if (list && typeof list === 'object' && !Array.isArray(list) && Object.keys(list).length === 1) {
    list = Object.values(list)[0];
  }
  if (!Array.isArray(list)) {
    problem('expected {"rules": [{"scope": "GLOBAL", "patterns": ["DenyPathQuery \\\\.jpg"]}, ...]}');
    return { global, hosts, domains, metadata };
  }
  for (const [i, entry] of list.entries()) {
    const { scope, patterns } = (entry ?? {}) as { scope?: unknown; patterns?: unknown };
    const where = `rules[${i}]`;
    if (typeof scope !== 'string') {
      problem(`${where}: "scope" must be a string`);
      continue;
    }
    if (!Array.isArray(patterns)) {
      problem(`${where} (${scope}): "patterns" must be an array`);
      continue;
    }
    const rules: FastRule[] = [];
    patterns.forEach((p: unknown, j) => {
      try {
        rules.push(parseRule(String(p)));
      } catch (e) {
        problem(`${where} (${scope}) patterns[${j}]: ${errorMessage(e)}`);
      }
    });
    const s = scope.trim();
    const colon = s.indexOf(':');
    const kind = colon === -1 ? s : s.slice(0, colon);
    const value = s.slice(colon + 1);
    if (s === 'GLOBAL') global.push(...rules);
    else if (kind === 'host' && value !== '') append(hosts, value.toLowerCase(), rules);
    else if (kind === 'domain' && value !== '') append(domains, value.toLowerCase(), rules);
    else if (kind === 'metadata' && value.indexOf('=') > 0) {
      const eq = value.indexOf('=');
      metadata.push({ key: value.slice(0, eq), value: value.slice(eq + 1).toLowerCase(), rules });
    } else {
      problem(
        `${where}: invalid scope ${JSON.stringify(scope)}; expected GLOBAL, domain:<d>, host:<h> or metadata:<k>=<v>`,
      );
    }
  }
  return { global, hosts, domains, metadata };
}

/** The default file of FastURLFilter when neither its `file` param nor the config names one. */
export const DEFAULT_FAST_FILTER_FILE = 'fast.urlfilter.json';

/**
 * StormCrawler's FastURLFilter: regex rules on the path (`DenyPath`, `AllowPath`) or path and query
 * (`DenyPathQuery`, `AllowPathQuery`; type case-insensitive), grouped by scope, for large rule sets.
 * Scopes are tried in StormCrawler's order: `host:<host>` (exact), then `domain:<suffix>` for each
 * suffix of the host from the TLD up to the whole host (`com`, `example.com`, `www.example.com`),
 * then each `metadata:<key>=<value>` that the source page's metadata has (value ignoring case), then
 * `GLOBAL`. A URL no rule matches is kept. Hosts and domains are compared in lowercase.
 *
 * The first matching rule decides, whether it allows or denies, as StormCrawler documents; so an
 * allow in a specific scope is an exception to a deny in a broader one (`domain:a.com` AllowPath
 * `.*` with GLOBAL DenyPath `.*` crawls only a.com).
 * DIFFERS FROM STORMCRAWLER, whose documentation and code disagree (we follow the documentation):
 * its code lets an allow end only the current scope, so a later deny still removes the URL. Also, a
 * scope listed twice adds to the rules of the first instead of replacing them.
 */
export class FastURLFilter implements URLFilter {
  private readonly byHostOrDomain: boolean;

  constructor(
    private readonly rules: FastRules,
    readonly name = 'FastURLFilter',
  ) {
    this.byHostOrDomain = rules.hosts.size > 0 || rules.domains.size > 0;
  }

  static fromContext(ctx: FilterContext): FastURLFilter {
    const configured = ctx.config['fast.urlfilter.file'] || DEFAULT_FAST_FILTER_FILE;
    const param = ctx.params.has('file') ? 'file' : 'fast.urlfilter.file (config)';
    const file = ctx.readFile(param, ctx.params.string('file', configured));
    const empty: FastRules = { global: [], hosts: new Map(), domains: new Map(), metadata: [] };
    if (!file) return new FastURLFilter(empty, ctx.name);
    let json: unknown;
    try {
      json = JSON.parse(file.text);
    } catch (e) {
      ctx.problem(`${file.path}: not valid JSON: ${errorMessage(e)}`);
      return new FastURLFilter(empty, ctx.name);
    }
    return new FastURLFilter(
      parseFastRules(json, (m) => ctx.problem(`${file.path}: ${m}`)),
      ctx.name,
    );
  }

  filter(_sourceUrl: URL | null, sourceMetadata: MetadataView | null, url: string): string | null {
    const u = parseWebUrl(url);
    if (u === null) return null;
    const path = u.pathname;
    const withQuery = u.search === '' ? path : path + u.search;
    const decide = (rules: readonly FastRule[] | undefined): boolean | undefined => {
      if (rules === undefined) return undefined;
      for (const r of rules) if (r.pattern.test(r.withQuery ? withQuery : path)) return !r.deny;
      return undefined;
    };
    let verdict: boolean | undefined;
    if (this.byHostOrDomain) {
      const host = u.hostname;
      verdict = decide(this.rules.hosts.get(host));
      for (let dot = host.length; verdict === undefined && dot > 0; ) {
        dot = host.lastIndexOf('.', dot - 1);
        verdict = decide(this.rules.domains.get(host.slice(dot + 1)));
        if (dot === -1) break;
      }
    }
    if (verdict === undefined && sourceMetadata !== null) {
      for (const scope of this.rules.metadata) {
        const values = sourceMetadata.getValues(scope.key);
        if (values?.some((v) => v.toLowerCase() === scope.value)) verdict = decide(scope.rules);
        if (verdict !== undefined) break;
      }
    }
    verdict ??= decide(this.rules.global);
    return verdict === false ? null : url;
  }
}
