import { describe, expect, it } from 'vitest';
import { documentJson, jsonString } from '../../../src/opensearch/json-line.js';

// The bulk writer's document JSON must be JSON.stringify's, character for character, whatever the
// page's text holds: the fast path for long strings and its fallbacks are compared with it.

const long = (s: string) => s.repeat(Math.ceil(300 / s.length));

/** A deterministic generator, so that a failure is the same on every run. */
function random(seed: number) {
  let x = seed;
  return () => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return x / 2 ** 32;
  };
}

describe('jsonString', () => {
  it.each([
    ['plain prose', long('A sentence of prose. ')],
    ['quotes and backslashes', long('say "hi" \\ C:\\path\\ ')],
    ['line breaks of Markdown', long('# Title\n\nA paragraph.\n\n- item\n')],
    ['a tab and a carriage return', `${long('text ')}\t\r`],
    ['a control character', `${long('text ')}\u0001\u001f`],
    ['non-ASCII and typographic quotes', long('“Zitat” — straße, 東京 ')],
    ['a surrogate pair (emoji)', long('smile 😀 ')],
    ['a lone high surrogate', `${long('x ')}\ud800 end`],
    ['a lone low surrogate', `${long('x ')}\udc00`],
    ['a short string', 'short "x"\n'],
    ['the empty string', ''],
  ])('writes %s as JSON.stringify does', (_name, s) => {
    expect(jsonString(s)).toBe(JSON.stringify(s));
  });

  it('writes random long strings of any UTF-16 code units as JSON.stringify does', () => {
    const next = random(42);
    const alphabet = [
      'a',
      ' ',
      '"',
      '\\',
      '\n',
      '\t',
      '\u0000',
      'é',
      '—',
      '\ud83d',
      '\ude00',
      '😀',
      '\u2028',
    ];
    for (let n = 0; n < 500; n++) {
      let s = '';
      const length = 200 + Math.floor(next() * 400);
      // Mostly plain text, as pages are; sometimes one of the characters JSON treats apart.
      for (let i = 0; i < length; i++)
        s += next() < 0.9 ? 'x' : alphabet[Math.floor(next() * alphabet.length)]!;
      expect(jsonString(s)).toBe(JSON.stringify(s));
    }
  });
});

describe('documentJson', () => {
  it('writes a content document as JSON.stringify does, long text and Markdown included', () => {
    const doc = {
      url: 'http://example.com/a?q="1"',
      crawl: 'status',
      content: long('Text with “quotes” and "more". '),
      markdown: long('## Heading\n\n**bold** `code` \\* not a list\n'),
      title: 'A title',
      keywords: ['a', 'b'],
      simhashTokens: 42,
      trimmed: undefined,
      date: new Date(0),
      nested: { a: [1, null, 'x'], b: undefined },
      ok: true,
      none: null,
      f: () => 1,
    };
    expect(documentJson(doc)).toBe(JSON.stringify(doc));
  });

  it('writes an empty object, an array and a value with toJSON as JSON.stringify does', () => {
    const withToJson = { toJSON: () => ({ replaced: long('x"\n') }) };
    for (const v of [{}, [long('a\n'), 1], withToJson, { only: undefined }])
      expect(documentJson(v)).toBe(JSON.stringify(v));
  });
});
