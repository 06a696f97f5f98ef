import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileJavaRegex, javaReplacement } from '../../../src/urlfilters/java-regex.js';
import { parseRegexRules, RegexURLFilter } from '../../../src/urlfilters/regex-filter.js';
import {
  compileSubstitutions,
  parseNormalizerXml,
  RegexURLNormalizer,
} from '../../../src/urlfilters/regex-normalizer.js';

const shippedRules = readFileSync(
  new URL('../../../conf/default-regex-filters.txt', import.meta.url),
  'utf8',
);

function rules(lines: string[]) {
  const problems: string[] = [];
  const parsed = parseRegexRules(lines, (m) => problems.push(m));
  return { parsed, problems };
}

describe('RegexURLFilter with the shipped default-regex-filters.txt', () => {
  const { parsed, problems } = rules(shippedRules.split('\n'));
  const filter = new RegexURLFilter(parsed);
  const check = (url: string) => filter.filter(null, null, url);

  it('loads without problems', () => {
    expect(problems).toEqual([]);
  });

  it('drops ftp:, file: and mailto: URLs', () => {
    expect(check('ftp://www.someFTP.com/#0')).toBeNull();
    expect(check('file:///etc/passwd')).toBeNull();
    expect(check('mailto:a@b.c')).toBeNull();
  });

  it('drops images and other binary files, in any case, before "?", "&" or the end', () => {
    for (const url of [
      'http://www.someFTP.com/bla.gif',
      'http://www.someFTP.com/bla.GIF',
      'http://www.someFTP.com/bla.GIF&somearg=0',
      'http://www.someFTP.com/bla.GIF?somearg=0',
      'http://www.someFTP.com/bla.mp4',
    ]) {
      expect(check(url)).toBeNull();
    }
    expect(check('http://www.someFTP.com/bla.GIF.orNot')).toBe('http://www.someFTP.com/bla.GIF.orNot');
  });

  it('has no host rules: private and loopback addresses are the fetcher’s to refuse', () => {
    expect(check('http://localhost:9200/')).toBe('http://localhost:9200/');
    expect(check('http://192.168.1.1/')).toBe('http://192.168.1.1/');
  });
});

describe('RegexURLFilter rules', () => {
  it('lets the first matching rule decide and drops URLs no rule matches', () => {
    const filter = new RegexURLFilter(
      rules(['-/private/', '+^https://', '# comment', '', ' indented']).parsed,
    );
    expect(filter.filter(null, null, 'https://a.com/private/x')).toBeNull();
    expect(filter.filter(null, null, 'https://a.com/public')).toBe('https://a.com/public');
    expect(filter.filter(null, null, 'http://a.com/public')).toBeNull();
  });

  it('reports lines that are not rules and invalid regexes, with their line numbers', () => {
    const { parsed, problems } = rules(['+ok', '-(unclosed', '?what', '-(?i)fine\r', '-a(?i)b']);
    expect(parsed).toHaveLength(2);
    expect(problems).toEqual([
      expect.stringMatching(/^line 2: invalid regular expression "\(unclosed"/),
      expect.stringMatching(/^line 3: a rule starts with "\+" \(keep\) or "-" \(drop\)/),
      expect.stringMatching(/^line 5: invalid regular expression .*only supported at the very start/),
    ]);
  });
});

describe('Java regex compatibility', () => {
  it('turns leading inline flags into RegExp flags', () => {
    expect(compileJavaRegex('(?i)\\.GIF$').test('x.gif')).toBe(true);
    expect(compileJavaRegex('(?is)a.b').flags).toBe('is');
    expect(compileJavaRegex('(?:a|b)+').test('ab')).toBe(true);
  });

  it('refuses Java-only syntax instead of silently matching something else', () => {
    for (const p of ['a(?i)b', '\\Qa.b\\E', 'a++', '(?>a)', '\\p{Alpha}', '(?x) a']) {
      expect(() => compileJavaRegex(p), p).toThrow(SyntaxError);
    }
    expect(() => compileJavaRegex('\\++')).not.toThrow();
    expect(() => compileJavaRegex('[+]+')).not.toThrow();
  });

  it('translates replacement strings', () => {
    expect(javaReplacement('/$1')).toBe('/$1');
    expect(javaReplacement('$' + '{name}-\\$\\\\')).toBe('$<name>-$$\\');
    expect(() => javaReplacement('a$')).toThrow(SyntaxError);
  });
});

describe('RegexURLNormalizer', () => {
  it('reads the regex-normalize XML format, with entities, CDATA and empty substitutions', () => {
    const xml = readFileSync(new URL('fixtures/rules/normalizers.xml', import.meta.url), 'utf8');
    expect(parseNormalizerXml(xml)).toEqual([
      { pattern: '(?i)/index\\.html?(\\?|&|$)', substitution: '/$1' },
      { pattern: '[?&]page=1$', substitution: '' },
    ]);
  });

  it('finds no rule in the shipped file, whose rules are all commented out', () => {
    const xml = readFileSync(new URL('../../../conf/default-regex-normalizers.xml', import.meta.url), 'utf8');
    expect(parseNormalizerXml(xml)).toEqual([]);
  });

  it('refuses malformed files with the reason', () => {
    expect(() => parseNormalizerXml('<rules/>')).toThrow(/<regex-normalize>/);
    expect(() =>
      parseNormalizerXml('<regex-normalize><regex><pattern>a</pattern></regex></regex-normalize>'),
    ).toThrow(/no <substitution>/);
  });

  it('replaces every match of each rule in order, and drops a URL that ends up empty', () => {
    const problems: string[] = [];
    const normalizer = new RegexURLNormalizer(
      compileSubstitutions(
        [
          { pattern: '(?i)/index\\.html?(\\?|&|$)', substitution: '/$1' },
          { pattern: '(?<!:)/{2,}', substitution: '/' },
          { pattern: '^http://drop\\.me/.*', substitution: '' },
        ],
        (m) => problems.push(m),
      ),
    );
    expect(problems).toEqual([]);
    expect(normalizer.filter(null, null, 'http://a.com//x//Index.HTML?q=1')).toBe('http://a.com/x/?q=1');
    expect(normalizer.filter(null, null, 'http://drop.me/now')).toBeNull();
  });
});
