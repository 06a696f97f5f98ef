import { describe, expect, it } from 'vitest';
import {
  DEFAULT_FINGERPRINT,
  distance,
  fingerprint,
  lengthRatio,
  tokenise,
  urlTokens,
} from '../../../src/dedup/fingerprint.js';
import { article, articleWords } from './support.js';

const fp = (text: string) => {
  const f = fingerprint(text);
  if (!f) throw new Error('no fingerprint');
  return f;
};

describe('normalisation and tokens', () => {
  it('folds case and compatibility forms (NFKC), and each run of digits to one 0', () => {
    expect(tokenise('Ｈｅｌｌｏ WORLD ﬁne 2024-05-01 v2.13 mp3')).toEqual([
      'hello',
      'world',
      'fine',
      '0',
      '0',
      '0',
      'v0',
      '0',
      'mp0',
    ]);
  });

  it('cuts scripts written without spaces into character bigrams, others into words', () => {
    expect(tokenise('東京都庁 naïve Straße ภาษา')).toEqual([
      '東京',
      '京都',
      '都庁',
      'naïve',
      'straße',
      'ภา',
      'าษ',
      'ษา',
    ]);
    expect(tokenise('日 x')).toEqual(['日', 'x']);
  });

  it("a URL's tokens are those of its decoded path and query", () => {
    expect(urlTokens('https://example.com/News/2024/big-fire%20here.html?id=12')).toEqual([
      'news',
      '0',
      'big',
      'fire',
      'here',
      'html',
      'id',
    ]);
  });
});

describe('fingerprint', () => {
  const text = article(0, 900);

  it('is stable across runs and processes (a fixed value for a fixed text)', () => {
    expect(fp(text)).toEqual(fp(text));
    // A value computed once: a change of the algorithm would make every stored fingerprint stale.
    expect(fp('The quick brown fox jumps over the lazy dog. '.repeat(20)).hash).toBe(FOX);
    expect(fingerprint('short text, but long enough to have a signature of its own here')).toEqual({
      kind: 'exact',
      hash: SHORT,
      tokens: 13,
    });
  });

  it('ignores dates, counters, case, spacing and punctuation', () => {
    const a = `Published 2026-03-14. 1,234 readers. ${text} Page 3 of 9.`;
    const b = `published 2027-11-02 - 98,765 READERS!\n\n${text.replaceAll(' ', '  ')} page 7 of 12`;
    expect(distance(fp(a).hash, fp(b).hash)).toBe(0);
  });

  it('keeps an article with one sentence added within distance 3, more often the longer it is', () => {
    // 100 articles of each length, a sentence of 12 new words in the middle: simhash at distance 3
    // tolerates a change of about 1% of the features (README: Duplicates and soft 404s).
    const within = (words: number) => {
      let n = 0;
      for (let s = 0; s < 100; s++) {
        const parts = article(s, words).split('. ');
        const half = Math.floor(parts.length / 2);
        const added = article(500 + s, 12).slice(0, -1);
        const edited = [...parts.slice(0, half), added, ...parts.slice(half)].join('. ');
        if (distance(fp(article(s, words)).hash, fp(edited).hash) <= 3) n++;
      }
      return n;
    };
    const found = [500, 1000, 2000, 3000].map(within);
    expect(found).toEqual([...found].sort((a, b) => a - b));
    expect(found[2]).toBeGreaterThanOrEqual(85);
    expect(found[3]).toBeGreaterThanOrEqual(90);
    for (let i = 1; i < 20; i++)
      expect(distance(fp(text).hash, fp(article(i, 900)).hash)).toBeGreaterThan(10);
  });

  it('moves further the more of the text changes', () => {
    const words = articleWords(0, 1000);
    const changed = (n: number) =>
      fp(words.map((w, i) => (i % Math.floor(1000 / n) === 0 ? `${w}x` : w)).join(' ')).hash;
    const base = fp(words.join(' ')).hash;
    const d = [5, 50, 300].map((n) => distance(base, changed(n)));
    expect(d[0]).toBeLessThan(d[1]!);
    expect(d[1]).toBeLessThan(d[2]!);
    expect(d[2]).toBeGreaterThan(15);
  });

  it('gives short texts an exact signature (equal only when the tokens are)', () => {
    const short = 'Sorry, the page you asked for does not exist here any more, please go back home.';
    expect(fp(short).kind).toBe('exact');
    expect(fp(short.toUpperCase()).hash).toBe(fp(short).hash);
    expect(fp(short.replace('home', 'house')).hash).not.toBe(fp(short).hash);
    expect(fingerprint('Not found')).toMatchObject({ kind: 'exact', tokens: 2 });
    expect(fingerprint('')).toMatchObject({ kind: 'exact', tokens: 0 });
    expect(fp(article(0, DEFAULT_FINGERPRINT.shortTokens)).kind).toBe('simhash');
    expect(fp(article(0, DEFAULT_FINGERPRINT.shortTokens - 1)).kind).toBe('exact');
  });

  it('computes a URL-blind fingerprint that leaves out the tokens of the URL asked for', () => {
    const page = (name: string) =>
      `Sorry, nothing was found at /shop/${name}. Search our catalogue or go back home.`;
    const a = fingerprint(page('red-shoes'), DEFAULT_FINGERPRINT, urlTokens('http://h/shop/red-shoes'))!;
    const b = fingerprint(page('x7q2kz9'), DEFAULT_FINGERPRINT, urlTokens('http://h/shop/x7q2kz9'))!;
    expect(a.hash).not.toBe(b.hash);
    expect(a.urlBlind).toBeDefined();
    expect(a.urlBlind).toBe(b.urlBlind);
    // Long texts too: the simhash without the excluded features.
    const long = (name: string) => `${page(name)} ${article(3, 200)} ${name} ${name}`;
    const la = fingerprint(long('red-shoes'), DEFAULT_FINGERPRINT, urlTokens('http://h/shop/red-shoes'))!;
    const lb = fingerprint(long('x7q2kz9'), DEFAULT_FINGERPRINT, urlTokens('http://h/shop/x7q2kz9'))!;
    expect(la.kind).toBe('simhash');
    expect(distance(la.urlBlind!, lb.urlBlind!)).toBe(0);
    expect(distance(la.hash, lb.hash)).toBeGreaterThan(0);
    // No excluded token in the text: no second fingerprint.
    expect(fingerprint(article(1, 200), DEFAULT_FINGERPRINT, ['zzzz'])?.urlBlind).toBeUndefined();
  });

  it('measures the length ratio of two texts', () => {
    expect(lengthRatio(100, 80)).toBe(0.8);
    expect(lengthRatio(0, 10)).toBe(0);
  });
});

const FOX = 'f60ed6531b198414';
const SHORT = '985c0598ffc27994';
