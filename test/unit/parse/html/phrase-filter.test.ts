import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  branches,
  FOLD,
  groupRuns,
  PhraseFilter,
  requiredRuns,
} from '../../../../src/parse/html/phrase-filter.js';
import { isSpaceCode } from '../../../../src/parse/strings.js';

// Phrases shaped as the furniture phrases are written (src/parse/html/furniture.ts): literal runs,
// optional groups, classes of accented letters, anchors, word boundaries, bounded gaps.
const PHRASES = [
  'lesen sie (?:auch|hier|mehr)',
  'k[öo]nnte (?:sie|dich) (?:auch )?interessieren',
  '^mehr (?:aus|zum|themen|dazu)',
  'read (?:more|also)',
  'newsletter',
  '\\bsubscrib(?:e|ing)\\b',
  'follow (?:the )?[\\w ]{1,30} on (?:twitter|facebook|instagram)',
  '(?:canal|channel|kanal)\\b.{0,20}\\b(?:telegram|youtube|whatsapp)',
  '\\blog ?in\\b',
  'app store|google play',
  '^\\(?(?:quellen?|sources?|fotos?|photos?)\\s?:',
  '©',
  'vergr[öo]ßern',
  '^\\W*(?:\\d+ |no |keine )?(?:comments?|kommentare?)\\b',
  'czytaj (?:te[żz]|tak[żz]e)',
];
const FULL = new RegExp(PHRASES.join('|'), 'i');

describe('requiredRuns and groupRuns: what every match of a phrase holds', () => {
  it('are the top-level runs of three or more, without groups, classes or quantified characters', () => {
    expect(requiredRuns('lesen sie (?:auch|hier|mehr)')).toEqual(['lesen sie ']);
    expect(requiredRuns('k[öo]nnte (?:sie|dich) (?:auch )?interessieren')).toEqual([
      'nnte ',
      'interessieren',
    ]);
    expect(requiredRuns('\\blog ?in\\b')).toEqual(['log']);
    expect(requiredRuns('load (?:the )?content')).toEqual(['load ', 'content']);
    expect(requiredRuns('^\\(?(?:quellen?|sources?)\\s?:')).toEqual([]);
    expect(requiredRuns('Vergr[öo]ßern')).toEqual(['vergr', 'ßern']);
    expect(requiredRuns('a\\.b+c')).toEqual(['a.b']);
  });

  it('of a group a match must pass through, one run per branch', () => {
    expect(groupRuns('(?:telegram|youtube)[- ]?(?:kanal|channel)')).toEqual(['telegram', 'youtube']);
    expect(groupRuns('^(?:zuletzt )?(?:aktualisiert|updated)')).toEqual(['aktualisiert', 'updated']);
    expect(groupRuns('newsletter(?=abc)')).toEqual([]);
    expect(groupRuns('©')).toEqual([]);
    expect(groupRuns('^(?:no|xyz)y')).toEqual([]);
  });

  it('splits a top-level alternation into its branches, not those inside groups', () => {
    expect(branches('app store|google play')).toEqual(['app store', 'google play']);
    expect(branches('(?:a|b)c|[|]d')).toEqual(['(?:a|b)c', '[|]d']);
  });
});

describe('PhraseFilter: a test in front of the alternation', () => {
  const filter = new PhraseFilter(PHRASES);

  it('lets every text the expression matches through, whatever its case', () => {
    const lines = [
      'Lesen Sie auch: Die Bahn streikt',
      'KÖNNTE SIE AUCH INTERESSIEREN',
      'Mehr zum Thema',
      'Read more',
      'Subscribe to our Newsletter',
      'Follow the Gazette on Twitter',
      'Unser Kanal auf YouTube',
      'Log in',
      'Get it on Google Play',
      'Photos: AP',
      '(Quelle: dpa)',
      '© 2024 Example Media',
      'Bild vergrößern',
      '12 Kommentare',
      'Czytaj także: wybory',
    ];
    for (const l of lines) {
      expect(FULL.test(l), l).toBe(true);
      expect(filter.mayMatch(l), l).toBe(true);
    }
  });

  it('stops most lines that match no phrase', () => {
    const lines = [
      'The council voted on Tuesday to turn the old tram depot into a market',
      'Returns the number of elements in the deque',
      'Work starts in March and the market should open before the summer',
      'Der Gemeinderat hat am Dienstag beschlossen',
    ];
    for (const l of lines) {
      expect(FULL.test(l), l).toBe(false);
      expect(filter.mayMatch(l), l).toBe(false);
    }
  });

  it('never says no to a text the expression matches (generated texts around the phrases)', () => {
    const pieces = [
      'read more',
      'READ also',
      'newsletter',
      'subscribe',
      'log in',
      'login',
      'app store',
      '©',
      'photo:',
      'kanal',
      'youtube',
      'vergrößern',
      'VERGRÖßERN',
      'kommentar',
      'czytaj też',
      'interessieren',
      'the',
      'market',
      ' ',
      '(',
      '3 ',
      'Ü',
      'ß',
      'İ',
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 12 }), fc.string(), (parts, noise) => {
        const text = parts.join('') + noise;
        if (FULL.test(text)) expect(filter.mayMatch(text)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('read in parts, never says no to a text whose collapsed, trimmed whitespace the expression matches', () => {
    const pieces = [
      'read more',
      'newsletter',
      'log in',
      'log\tin',
      '©',
      'photo:',
      ' ',
      '\n ',
      '\u00a0',
      'kanal',
      'youtube',
      'İ',
      'the',
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 10 }), fc.string(), (parts, noise) => {
        const all = [...parts, noise];
        const text = all.join('').replace(/\s+/g, ' ').trim();
        filter.begin();
        for (const p of all) filter.scan(p);
        if (FULL.test(text)) expect(filter.mayMatchRead(), JSON.stringify(all)).toBe(true);
      }),
      { numRuns: 3000 },
    );
    filter.begin();
    filter.scan('market ');
    filter.scan(' the  data');
    expect(filter.mayMatchRead()).toBe(false);
  });
});

describe('FOLD: what the scan reads for each code unit', () => {
  it('is its lower case alone (first code unit), a space for whitespace, for all 65,536', () => {
    const wrong: string[] = [];
    for (let c = 0; c < 65536; c++) {
      const want = isSpaceCode(c) ? 32 : String.fromCharCode(c).toLowerCase().charCodeAt(0);
      if (FOLD[c] !== want) wrong.push(`U+${c.toString(16)}: ${FOLD[c]} instead of ${want}`);
    }
    expect(wrong).toEqual([]);
  });
});
