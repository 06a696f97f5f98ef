import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { nearness } from '../../../src/dedup/decide.js';
import {
  DEFAULT_FINGERPRINT,
  distance,
  fingerprint,
  lengthRatio,
  tokenise,
  urlTokens,
} from '../../../src/fingerprint/fingerprint.js';
import { similarity } from '../../../src/fingerprint/minhash.js';
import { extractHtml } from '../../../src/parse/html/extract.js';
import { defaultParseConfig, parseSettings } from '../../../src/parse/settings.js';
import { article, articleWords } from '../dedup/support.js';

const REAL_PAGES = ['python-itertools', 'python-statistics', 'postgresql-cube', 'postgresql-tutorial-window'];

/** The text the crawl fingerprints: the main text of the page, from the crawler's own parse. */
function mainTextOf(name: string): string {
  const html = readFileSync(new URL(`../../fixtures/dedup/${name}.html`, import.meta.url), 'utf8');
  const ex = extractHtml(html, { ...parseSettings(defaultParseConfig()).text, mainText: true });
  return ex.mainText ?? ex.text;
}

const fp = (text: string) => {
  const f = fingerprint(text);
  if (!f) throw new Error('no fingerprint');
  return f;
};

describe('normalisation and tokens', () => {
  it('folds case and compatibility forms (NFKC), and keeps digits as they are', () => {
    expect(tokenise('Ｈｅｌｌｏ WORLD ﬁne 2024-05-01 v2.13 mp3')).toEqual([
      'hello',
      'world',
      'fine',
      '2024',
      '05',
      '01',
      'v2',
      '13',
      'mp3',
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
      '2024',
      'big',
      'fire',
      'here',
      'html',
      'id',
      '12',
    ]);
  });
});

describe('fingerprint', () => {
  const text = article(0, 900);

  it('is stable across runs and processes (a fixed value for a fixed text)', () => {
    expect(fp(text)).toEqual(fp(text));
    // A value computed once: a change of the algorithm would make every stored fingerprint stale.
    expect(fp('The quick brown fox jumps over the lazy dog. '.repeat(20)).hash).toBe(FOX);
    expect(fp(text).minhash).toMatch(/^[0-9a-f]{512}$/);
    expect(fingerprint('short text, but long enough to have a signature of its own here')).toEqual({
      kind: 'exact',
      hash: SHORT,
      tokens: 13,
    });
  });

  it('ignores case, spacing and punctuation', () => {
    const b = text.toUpperCase().replaceAll(' ', '  \n').replaceAll('.', '!');
    expect(fp(b).hash).toBe(fp(text).hash);
    expect(fp(b).minhash).toBe(fp(text).minhash);
  });

  it('counts each shingle once, however often it occurs (the set, not the bag)', () => {
    // The text twice has the same shingles, and two more across the seam.
    const t = article(4, 400);
    expect(distance(fp(`${t} ${t}`).hash, fp(t).hash)).toBeLessThanOrEqual(1);
    expect(similarity(fp(`${t} ${t}`).minhash!, fp(t).minhash!)).toBeGreaterThan(0.97);
    // One shingle a thousand times weighs what it weighs once: it cannot decide the bits.
    const heavy = `${'0 0 0 '.repeat(1000)}${t}`;
    expect(distance(fp(heavy).hash, fp(t).hash)).toBeLessThanOrEqual(2);
  });

  it('keeps an article with a date, a counter or a sentence changed near it; unrelated ones far', () => {
    for (let s = 0; s < 50; s++) {
      const a = article(s, 600);
      const parts = a.split('. ');
      const half = Math.floor(parts.length / 2);
      const added = [...parts.slice(0, half), article(500 + s, 14).slice(0, -1), ...parts.slice(half)].join(
        '. ',
      );
      const dated = `Published 2026-03-14, 1,234 readers. ${a}`;
      const redated = `Published 2027-11-02, 98,765 readers. ${a}`;
      expect(nearness(fp(a), fp(added)), `article ${s}, a sentence added`).toBeDefined();
      expect(nearness(fp(dated), fp(redated)), `article ${s}, a date and a counter`).toBeDefined();
      expect(nearness(fp(a), fp(article(s + 1, 600)))).toBeUndefined();
      expect(distance(fp(a).hash, fp(article(s + 1, 600)).hash)).toBeGreaterThan(10);
    }
  });

  it('tells real pages apart that all had one fingerprint before (Python and PostgreSQL manuals)', () => {
    // Debian's python3.11-doc and postgresql-doc-15 (test/fixtures/dedup/README.md): until the
    // shingles were counted once and digits kept, all four had the simhash e433f4dd6d62ad00, and so
    // did a text made only of zeros.
    const pages = REAL_PAGES.map((name) => ({ name, fp: fp(mainTextOf(name)) }));
    const zeros = fp('0 '.repeat(2000));
    for (const [i, a] of pages.entries()) {
      expect(a.fp.kind).toBe('simhash');
      expect(a.fp.hash).not.toBe('e433f4dd6d62ad00');
      expect(a.fp.hash).not.toBe(zeros.hash);
      for (const b of pages.slice(i + 1)) {
        expect(distance(a.fp.hash, b.fp.hash), `${a.name} ~ ${b.name}`).toBeGreaterThan(3);
        expect(similarity(a.fp.minhash!, b.fp.minhash!), `${a.name} ~ ${b.name}`).toBeLessThan(0.1);
        expect(nearness(a.fp, b.fp), `${a.name} ~ ${b.name}`).toBeUndefined();
      }
    }
  });

  it('reads Latin text as it is and fingerprints it as its normalised text', () => {
    // Texts of Latin letters and general punctuation are normalised a character at a time as they
    // are read; any other character (here U+2E3A, a separator before and after normalisation, so it
    // changes no token) makes the whole text normalised first. Both ways must agree.
    const whole = (t: string) => fingerprint(`${t} \u2e3a`, undefined, ['url']);
    const asRead = (t: string) => fingerprint(t, undefined, ['url']);
    for (let c = 0; c <= 0x20cf; c = c === 0x024f ? 0x2000 : c + 1) {
      const ch = String.fromCharCode(c);
      const t = `A${ch}b ${ch}URL${ch} ${ch}${ch}x ${ch}`;
      expect(asRead(t), `U+${c.toString(16).padStart(4, '0')}`).toEqual(whole(t));
    }
    const latin = 'Ça VA, naïve ÉCOLE à Straße: x² 5µm … “quoted” – dash\u00a0nbsp ÿ Ÿ Œuvre. ';
    for (const t of [latin.repeat(12), ...REAL_PAGES.map(mainTextOf)]) {
      expect(asRead(t)).toEqual(whole(t));
      expect(asRead(t)).toEqual(asRead(t.normalize('NFKC').toLowerCase()));
    }
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

const FOX = 'f60ed653406c3fef';
const SHORT = '985c0598ffc27994';
