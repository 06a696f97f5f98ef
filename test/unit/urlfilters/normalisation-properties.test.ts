import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BasicURLNormalizer } from '../../../src/urlfilters/basic-normalizer.js';
import { loadURLFilters } from '../../../src/urlfilters/load.js';

const HEX32 = '8DBFC2FEDBD740BBC8B4D1A504A6DE7F';

/** URL-like strings built from the pieces that break normalisers. */
const trickyUrl = fc
  .tuple(
    fc.constantFrom('http', 'https', 'HTTP', 'HtTpS'),
    fc.constantFrom('://', '://', '://', ':/', ':', ':\\\\'),
    fc.constantFrom('', 'user@', 'user:pa ss@', ':pw@'),
    fc.constantFrom(
      'example.com',
      'EXAMPLE.com',
      'señal6.com.ar',
      'a_b.example',
      '127.0.0.1',
      '[::1]',
      'xn--80aj7acp.xn--j1amh',
      'sub.example.co.uk',
      'example.com.',
      'ex%41mple.com',
      'é.fr',
      'google.com&d=4&good=true',
    ),
    fc.constantFrom('', ':80', ':443', ':8080', ':'),
    fc.array(
      fc.oneof(
        fc.constantFrom(
          '',
          '.',
          '..',
          '%2e',
          '%2E%2e',
          '.%2E',
          '%u002E',
          '%u002E%u002E',
          '%u002F',
          '%u003F',
          '%u0023',
          '%7e',
          '%7E',
          '%41',
          '%zz',
          '%',
          '%2',
          '%25',
          '%u011f',
          '%uD83D%uDE00',
          '%uD800',
          '%uDC00x',
          'é',
          '😀',
          ' ',
          '|',
          '\\',
          '^',
          '{}',
          '[x]',
          '"',
          '<',
          '>',
          '`',
          "'",
          `auth;jsessionid=${HEX32}`,
          'a;b=c',
          `a;b=c;sid=${HEX32}`,
          ';',
          'x&y=1',
          '&a=b',
          '=',
          'a=b&c',
          '\t',
          '\n',
          '%00',
          '+',
          '..;jsessionid=' + HEX32,
          'a%2Fb',
        ),
        fc.string({ maxLength: 6 }),
        fc.string({ unit: 'binary', maxLength: 4 }),
      ),
      { maxLength: 6 },
    ),
    fc.option(
      fc.array(
        fc.tuple(
          fc.constantFrom(
            'a',
            'b',
            'A',
            'utm_source',
            '',
            'x y',
            'x+y',
            '+',
            'é',
            '%7E',
            '%u0041',
            'sid',
            'a%20',
          ),
          fc.option(
            fc.constantFrom(
              '',
              '1',
              HEX32,
              HEX32.toLowerCase(),
              'a b',
              '|',
              '%',
              '?',
              '=',
              '%u011f',
              "'",
              '~!*',
            ),
          ),
        ),
        { maxLength: 5 },
      ),
    ),
    fc.option(fc.constantFrom('', 'frag', '#', '?x=1', '&y=2', 'a b', '/..')),
  )
  .map(([scheme, sep, auth, host, port, segments, query, fragment]) => {
    let url = `${scheme}${sep}${auth}${host}${port}/${segments.join('/')}`;
    if (query !== null) url += `?${query.map(([k, v]) => (v === null ? k : `${k}=${v}`)).join('&')}`;
    if (fragment !== null) url += `#${fragment}`;
    return url;
  });

const anyInput = fc.oneof(
  trickyUrl,
  fc.webUrl({ withFragments: true, withQueryParameters: true, validSchemes: ['http', 'https'] }),
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.string({ unit: 'binary' }).map((s) => `http://example.com/${s}`),
  fc.string().map((s) => `https://${s}`),
);

/** Characters RFC 3986 allows in a URL (outside a fragment); "%" only as part of an escape. */
const RFC3986 = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/?[\]]|%[0-9A-F]{2})*$/;

const normalizers = {
  'StormCrawler defaults': new BasicURLNormalizer(),
  'the shipped chain settings': new BasicURLNormalizer({ removeHashes: true, hostIDNtoASCII: true }),
  'removed parameters': new BasicURLNormalizer({ queryElementsToRemove: ['a', 'sid', 'x y'] }),
  'fragments kept': new BasicURLNormalizer({ removeAnchorPart: false, removeHashes: true }),
};

describe('BasicURLNormalizer on random input', () => {
  for (const [label, normalizer] of Object.entries(normalizers)) {
    it(`never throws, and its output is canonical (${label})`, () => {
      fc.assert(
        fc.property(anyInput, (input) => {
          const out = normalizer.filter(null, null, input);
          if (out === null) return;
          expect(normalizer.filter(null, null, out)).toBe(out);
          expect(new URL(out).href).toBe(out);
          const [beforeFragment] = out.split('#');
          expect(beforeFragment).toMatch(RFC3986);
        }),
        { numRuns: Number(process.env.FC_RUNS ?? 3000) },
      );
    });
  }
});

describe('the shipped filter chain on random input', () => {
  const chain = loadURLFilters();
  const source = new URL('http://www.example.com/index.html');

  it('never throws, lets only http(s) URLs through, and is idempotent', () => {
    fc.assert(
      fc.property(anyInput, fc.boolean(), (input, asOutlink) => {
        const from = asOutlink ? source : null;
        const out = chain.filter(from, null, input);
        if (out === null) return;
        expect(['http:', 'https:']).toContain(new URL(out).protocol);
        expect(chain.filter(from, null, out)).toBe(out);
      }),
      { numRuns: Number(process.env.FC_RUNS ?? 3000) },
    );
    expect(chain.failures.size).toBe(0);
  });
});
