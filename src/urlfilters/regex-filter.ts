import { errorMessage } from '../util/errors.js';
import { compileJavaRegex } from './java-regex.js';
import type { FilterContext } from './params.js';
import type { MetadataView, URLFilter } from './types.js';

export interface RegexRule {
  /** true for a `+` line (keep), false for a `-` line (drop). */
  readonly accept: boolean;
  readonly pattern: RegExp;
}

/** The file StormCrawler's RegexURLFilter reads when its params name none. */
export const DEFAULT_REGEX_FILTER_FILE = 'default-regex-filters.txt';

/**
 * Parses rule lines: `+regex` keeps matching URLs, `-regex` drops them; empty lines and lines that
 * start with a space or `#` are skipped. Problems (a line starting with anything else, an invalid
 * regex) are passed to `problem` with the line number, and the line is left out.
 */
export function parseRegexRules(
  lines: readonly string[],
  problem: (message: string) => void,
  lineLabel: (index: number) => string = (i) => `line ${i + 1}`,
): RegexRule[] {
  const rules: RegexRule[] = [];
  lines.forEach((raw, i) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line === '' || line[0] === ' ' || line[0] === '#') return;
    if (line[0] !== '+' && line[0] !== '-') {
      problem(`${lineLabel(i)}: a rule starts with "+" (keep) or "-" (drop), found ${JSON.stringify(line)}`);
      return;
    }
    try {
      rules.push({ accept: line[0] === '+', pattern: compileJavaRegex(line.slice(1)) });
    } catch (e) {
      problem(
        `${lineLabel(i)}: invalid regular expression ${JSON.stringify(line.slice(1))}: ${errorMessage(e)}`,
      );
    }
  });
  return rules;
}

/**
 * StormCrawler's RegexURLFilter: the first rule whose regex matches somewhere in the URL decides;
 * a URL that matches no rule is dropped (end a file with `+.` to keep the rest).
 *
 * Rules come from the `urlFilters` param (a JSON array of rule lines) or else from the file named by
 * `regexFilterFile` (default `default-regex-filters.txt`). Regexes are compiled once, with Java's
 * leading `(?i)` accepted (see `compileJavaRegex`).
 *
 * URLs known to be sitemaps pass it unless the param `applyToSitemaps` is true: the usual rules
 * judge a URL by its extension (`-\.(gz|zip|...)$`), which would drop `sitemap.xml.gz`.
 * DIFFERS FROM STORMCRAWLER, which drops such sitemaps without a word. For the same reason the
 * requests of rendered pages (`.js` scripts) pass it unless the param `applyToSubrequests` is true.
 */
export class RegexURLFilter implements URLFilter {
  readonly sitemapsPass: boolean;
  readonly subrequestsPass: boolean;

  constructor(
    private readonly rules: readonly RegexRule[],
    readonly name = 'RegexURLFilter',
    options: { readonly applyToSitemaps?: boolean; readonly applyToSubrequests?: boolean } = {},
  ) {
    this.sitemapsPass = options.applyToSitemaps !== true;
    this.subrequestsPass = options.applyToSubrequests !== true;
  }

  static fromContext(ctx: FilterContext): RegexURLFilter {
    const options = {
      applyToSitemaps: ctx.params.bool('applyToSitemaps', false),
      applyToSubrequests: ctx.params.bool('applyToSubrequests', false),
    };
    const inline = ctx.params.raw('urlFilters');
    if (inline !== undefined) {
      if (!Array.isArray(inline) || !inline.every((l) => typeof l === 'string')) {
        ctx.params.fail('urlFilters', 'an array of rule lines such as "-\\\\.gif$" or "+."');
        return new RegexURLFilter([], ctx.name, options);
      }
      const rules = parseRegexRules(inline, ctx.problem, (i) => `param "urlFilters"[${i}]`);
      return new RegexURLFilter(rules, ctx.name, options);
    }
    const file = ctx.readFile(
      'regexFilterFile',
      ctx.params.string('regexFilterFile', DEFAULT_REGEX_FILTER_FILE),
    );
    if (!file) return new RegexURLFilter([], ctx.name, options);
    const rules = parseRegexRules(file.text.split('\n'), (m) => ctx.problem(`${file.path} ${m}`));
    return new RegexURLFilter(rules, ctx.name, options);
  }

  filter(_sourceUrl: URL | null, _md: MetadataView | null, url: string): string | null {
    for (const rule of this.rules) {
      if (rule.pattern.test(url)) return rule.accept ? url : null;
    }
    return null;
  }
}
