import { errorMessage } from '../util/errors.js';
import { compileJavaRegex, javaReplacement } from './java-regex.js';
import type { FilterContext } from './params.js';
import type { MetadataView, URLFilter } from './types.js';

export interface RegexSubstitution {
  /** Compiled with the `g` flag: every match is replaced, as Java's `replaceAll`. */
  readonly pattern: RegExp;
  /** In `String.replace` syntax. */
  readonly replacement: string;
}

/** A rule as written: a Java-style regex and a Java-style replacement. */
export interface RawSubstitution {
  readonly pattern: string;
  readonly substitution: string;
}

/** The file StormCrawler's RegexURLNormalizer reads when its params name none. */
export const DEFAULT_REGEX_NORMALIZER_FILE = 'default-regex-normalizers.xml';

const ENTITY = /&(?:#(\d+)|#x([0-9a-fA-F]+)|(amp|lt|gt|quot|apos));/g;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function xmlText(raw: string): string {
  const cdata = /^<!\[CDATA\[([\s\S]*)\]\]>$/.exec(raw);
  if (cdata) return cdata[1]!;
  return raw.replace(ENTITY, (_m, dec: string, hex: string, name: string) =>
    dec
      ? String.fromCodePoint(Number(dec))
      : hex
        ? String.fromCodePoint(Number.parseInt(hex, 16))
        : NAMED[name]!,
  );
}

function element(block: string, tag: string): string | undefined {
  if (new RegExp(`<${tag}\\s*/>`).test(block)) return '';
  const m = new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`).exec(block);
  return m ? xmlText(m[1]!) : undefined;
}

/**
 * Reads Nutch/StormCrawler's regex-normalize XML: `<regex-normalize>` holding `<regex>` elements,
 * each with a `<pattern>` and a `<substitution>` (`<substitution/>` deletes the match). Comments,
 * CDATA and the XML entities are understood; the text is taken as written, without trimming. Only
 * this format is read, not arbitrary XML; anything else throws with the reason.
 */
export function parseNormalizerXml(text: string): RawSubstitution[] {
  const doc = text
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<\?[\s\S]*?\?>/g, '')
    .replace(/<!DOCTYPE[^>]*>/i, '');
  const root = /^\s*<regex-normalize\s*>([\s\S]*)<\/regex-normalize>\s*$/.exec(doc);
  if (!root) {
    if (/^\s*<regex-normalize\s*\/>\s*$/.test(doc)) return [];
    throw new Error('expected a <regex-normalize> element holding <regex> elements');
  }
  const rules: RawSubstitution[] = [];
  const rest = root[1]!.replace(/<regex>([\s\S]*?)<\/regex>/g, (_m, block: string) => {
    const pattern = element(block, 'pattern');
    const substitution = element(block, 'substitution');
    const n = rules.length + 1;
    if (pattern === undefined || pattern === '') throw new Error(`<regex> #${n} has no <pattern>`);
    if (substitution === undefined) {
      throw new Error(`<regex> #${n} has no <substitution> (write <substitution/> to delete the match)`);
    }
    rules.push({ pattern, substitution });
    return '';
  });
  if (rest.trim() !== '') throw new Error(`unexpected content ${JSON.stringify(rest.trim().slice(0, 60))}`);
  return rules;
}

/** Compiles rules, reporting each invalid one (by position) through `problem`. */
export function compileSubstitutions(
  rules: readonly RawSubstitution[],
  problem: (message: string) => void,
): RegexSubstitution[] {
  const out: RegexSubstitution[] = [];
  rules.forEach((r, i) => {
    try {
      out.push({ pattern: compileJavaRegex(r.pattern, true), replacement: javaReplacement(r.substitution) });
    } catch (e) {
      problem(`rule #${i + 1} ${JSON.stringify(r.pattern)}: ${errorMessage(e)}`);
    }
  });
  return out;
}

function fromJson(value: unknown, problem: (message: string) => void): RawSubstitution[] {
  const list = Array.isArray(value) ? value : (value as { urlNormalizers?: unknown } | null)?.urlNormalizers;
  if (!Array.isArray(list)) {
    problem('expected an array of {"pattern", "substitution"} objects');
    return [];
  }
  const rules: RawSubstitution[] = [];
  list.forEach((r: unknown, i) => {
    const { pattern, substitution = '' } = (r ?? {}) as { pattern?: unknown; substitution?: unknown };
    if (typeof pattern !== 'string' || pattern.trim() === '' || typeof substitution !== 'string') {
      problem(`rule #${i + 1}: expected {"pattern": "<regex>", "substitution": "<text>"}`);
    } else {
      rules.push({ pattern, substitution });
    }
  });
  return rules;
}

/**
 * StormCrawler's RegexURLNormalizer: each rule replaces every match of its regex, in order; a URL
 * that ends up empty is dropped. Rules come from the `urlNormalizers` param (a JSON array of
 * `{pattern, substitution}`) or else from the file named by `regexNormalizerFile` (default
 * `default-regex-normalizers.xml`; a `.json` file holds the same array).
 *
 * DIFFERS FROM STORMCRAWLER: an unreadable file, a malformed rule or an invalid regex stops start-up
 * with the reason; StormCrawler logs it and runs with fewer (or no) rules.
 */
export class RegexURLNormalizer implements URLFilter {
  constructor(
    private readonly rules: readonly RegexSubstitution[],
    readonly name = 'RegexURLNormalizer',
  ) {}

  static fromContext(ctx: FilterContext): RegexURLNormalizer {
    let raw: RawSubstitution[] = [];
    let label = 'param "urlNormalizers"';
    if (ctx.params.has('urlNormalizers')) {
      raw = fromJson(ctx.params.raw('urlNormalizers'), (m) => ctx.problem(`${label}: ${m}`));
    } else {
      const name = ctx.params.string('regexNormalizerFile', DEFAULT_REGEX_NORMALIZER_FILE);
      const file = ctx.readFile('regexNormalizerFile', name);
      if (!file) return new RegexURLNormalizer([], ctx.name);
      label = file.path;
      try {
        raw = file.path.endsWith('.json')
          ? fromJson(JSON.parse(file.text), (m) => ctx.problem(`${label}: ${m}`))
          : parseNormalizerXml(file.text);
      } catch (e) {
        ctx.problem(`${label}: ${errorMessage(e)}`);
      }
    }
    return new RegexURLNormalizer(
      compileSubstitutions(raw, (m) => ctx.problem(`${label}: ${m}`)),
      ctx.name,
    );
  }

  filter(_sourceUrl: URL | null, _md: MetadataView | null, url: string): string | null {
    let out = url;
    for (const r of this.rules) out = out.replace(r.pattern, r.replacement);
    return out === '' ? null : out;
  }
}
