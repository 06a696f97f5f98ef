import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ParseFilters } from '../../../src/parse/parsefilters/chain.js';
import {
  buildParseFilters,
  loadParseFilters,
  resolveFiltersFile,
} from '../../../src/parse/parsefilters/load.js';
import type { ParseFilter } from '../../../src/parse/parsefilters/types.js';
import { ConfigError } from '../../../src/util/errors.js';
import { expectParsed, expectStatus, fixture, parse, urls } from './support.js';

const TOP = 'org.apache.stormcrawler.parse.ParseFilters';
const build = (...entries: unknown[]) => buildParseFilters({ [TOP]: entries }, 'test.json');
const PAGE = 'https://www.example.co.uk/articles/a.html';

describe('the default conf/parsefilters.json', () => {
  it('resolves from the shipped conf/ folder and adds domain, format, split keywords and signatures', () => {
    const filters = loadParseFilters('parsefilters.json');
    expect(filters.source).toMatch(/conf[\\/]parsefilters\.json$/);
    expect(filters.needsDom).toBe(false);
    const r = expectParsed(
      parse(PAGE, fixture('article.html'), undefined, { filters, metadata: { signature: 'old' } }),
    );
    expect(r.metadata.getFirstValue('domain')).toBe('example.co.uk');
    expect(r.metadata.getFirstValue('format')).toBe('html');
    expect(r.metadata.getValues('parse.keywords')).toEqual(['example', 'test', 'crawler']);
    expect(r.metadata.getFirstValue('signatureOld')).toBe('old');
    expect(r.metadata.getFirstValue('signature')).toMatch(/^[0-9a-f]{32}$/);
  });

  it('the signature follows the text: same text, same signature; changed text, new signature', () => {
    const filters = loadParseFilters('parsefilters.json');
    const sig = (html: string) =>
      expectParsed(parse(PAGE, html, undefined, { filters })).metadata.getFirstValue('signature');
    expect(sig('<p>Hello</p><!-- build 1 -->')).toBe(sig('<div>Hello</div><!-- build 2 -->'));
    expect(sig('<p>Hello</p>')).not.toBe(sig('<p>Hello!</p>'));
  });

  it('an empty parsefilters.config.file means no filters', () => {
    expect(loadParseFilters('')).toBe(ParseFilters.none);
  });

  it('a relative path is looked up in the working directory first', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pf-'));
    writeFileSync(join(dir, 'parsefilters.json'), '{}');
    expect(resolveFiltersFile('parsefilters.json', dir)).toBe(join(dir, 'parsefilters.json'));
  });
});

describe('loading', () => {
  it('accepts fully qualified StormCrawler class names and short names', () => {
    const f = build(
      {
        class: 'org.apache.stormcrawler.parse.filter.DomainParseFilter',
        name: 'dom',
        params: { byHost: true },
      },
      { class: 'MimeTypeNormalization' },
    );
    expect(f.filters.map((x) => x.name)).toEqual(['dom', 'MimeTypeNormalization']);
  });

  it('unknown classes, XPathFilter and bad params are ConfigErrors naming the entry', () => {
    expect(() => build({ class: 'com.example.Nope' })).toThrow(
      /entry 0 \(Nope\): unknown class com.example.Nope; known: /,
    );
    expect(() => build({ class: 'org.apache.stormcrawler.parse.filter.XPathFilter', params: {} })).toThrow(
      /use CSSSelectorFilter/,
    );
    expect(() => build({ class: 'DomainParseFilter', params: { byHost: 'sometimes' } })).toThrow(ConfigError);
    expect(() => build({ class: 'CSSSelectorFilter', params: { x: 'div[' } })).toThrow(
      /invalid CSS selector/,
    );
    expect(() =>
      build({ class: 'CollectionTagger', params: { collections: [{ name: 'x', includePatterns: ['('] }] } }),
    ).toThrow(/invalid regular expression/);
    expect(() => buildParseFilters({ filters: [] }, 'x.json')).toThrow(/expected the key/);
  });

  it('custom filters register by class name', () => {
    const mine: ParseFilter = { name: 'mine', filter: (_u, _d, p) => p.metadata.setValue('mine', 'yes') };
    const f = buildParseFilters({ [TOP]: [{ class: 'com.example.Mine' }] }, 'x.json', {
      custom: { 'com.example.Mine': () => mine },
    });
    expect(expectParsed(parse(PAGE, '<p>x', undefined, { filters: f })).metadata.getFirstValue('mine')).toBe(
      'yes',
    );
  });
});

describe('filter lifecycle', () => {
  it('no DOM is built when no filter needs one; DOM filters get it, the others null', () => {
    const seen: string[] = [];
    const spy = (name: string, needsDom: boolean): ParseFilter => ({
      name,
      needsDom,
      filter: (_u, doc) => seen.push(`${name}:${doc === null ? 'null' : doc('title').text()}`),
    });
    parse(PAGE, '<title>T</title>', undefined, { filters: new ParseFilters([spy('a', false)]) });
    parse(PAGE, '<title>T</title>', undefined, {
      filters: new ParseFilters([spy('b', false), spy('c', true)]),
    });
    expect(seen).toEqual(['a:null', 'b:null', 'c:T']);
  });

  it('filters run on sitemaps with no DOM, and can add links there', () => {
    const seen: string[] = [];
    const f: ParseFilter = {
      name: 'f',
      needsDom: true,
      filter: (url, doc, p) => {
        seen.push(`${url} ${doc} ${p.outlinks.length}`);
        p.addOutlink('/extra');
      },
    };
    const r = expectStatus(
      parse(
        'https://www.example.com/sitemap.xml',
        fixture('sitemap-index.xml'),
        { 'content-type': 'text/xml' },
        {
          filters: new ParseFilters([f]),
        },
      ),
    );
    expect(seen).toEqual(['https://www.example.com/sitemap.xml null 4']);
    expect(urls(r)).toContain('https://www.example.com/extra');
  });

  it('a filter that throws ends the page ERROR with error.source "content filtering"', () => {
    const bad: ParseFilter = {
      name: 'Bad',
      filter: () => {
        throw new Error('kaput');
      },
    };
    const r = expectStatus(
      parse(PAGE, '<a href="/x">x</a>', undefined, { filters: new ParseFilters([bad]) }),
    );
    expect(r.status).toBe('ERROR');
    expect(r.metadata.getFirstValue('error.source')).toBe('content filtering');
    expect(r.metadata.getFirstValue('error.message')).toBe(
      `Exception while running parse filter Bad on ${PAGE}: kaput`,
    );
    expect(r.outlinks).toEqual([]);
  });

  it('a filter may replace the text', () => {
    const upper: ParseFilter = { name: 'up', filter: (_u, _d, p) => (p.text = p.text.toUpperCase()) };
    expect(
      expectParsed(parse(PAGE, '<p>abc</p>', undefined, { filters: new ParseFilters([upper]) })).text,
    ).toBe('ABC');
  });
});
