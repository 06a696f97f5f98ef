import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expectParsed, expectStatus, fixture, parse, urls } from './support.js';

describe('malformed and truncated HTML', () => {
  it('malformed markup: unquoted attributes, unclosed and stray tags, entities, comments, scripts', () => {
    const r = expectParsed(parse('https://www.example.com/dir/p.html', fixture('malformed.html')));
    expect(r.metadata.getFirstValue('parse.title')).toBe('Malformed <b>page');
    expect(r.metadata.getFirstValue('parse.description')).toBe('unquoted-description');
    expect(r.text).toBe(
      'Unclosed paragraph Next paragraph nested div cell one cell two Unquoted href bold in broken tag Upper case ' +
        'Entities: <tag> &amp; é é ☺ ¬anentity; AT&T after comment End without closing tags',
    );
    // the commented and the scripted links are not links; REL=NOFOLLOW in upper case still counts
    expect(urls(r)).toEqual([
      'https://www.example.com/dir/unquoted.html',
      'https://www.example.com/dir/broken.html',
      'https://www.example.com/dir/after-comment.html',
    ]);
  });

  it('a page cut in the middle of a tag keeps what came before', () => {
    const r = expectParsed(parse('https://www.example.com/', fixture('truncated.html')));
    expect(r.metadata.getFirstValue('parse.title')).toBe('Truncated page');
    expect(r.text).toBe('Some text here. FirstSec');
    expect(urls(r)).toEqual(['https://www.example.com/first', 'https://www.example.com/second']);
  });

  it('a page cut inside the head, a comment or an attribute still parses', () => {
    for (const html of [
      '<html><head><title>Cut',
      '<p>a<!-- never closed <a href="/x">',
      '<a href="/x',
      '<a href=',
    ]) {
      expect(parse('https://x.test/', html).kind, html).toBe('parsed');
    }
    expect(
      expectParsed(parse('https://x.test/', '<html><head><title>Cut')).metadata.getFirstValue('parse.title'),
    ).toBe('Cut');
  });

  it('empty content is an empty page', () => {
    const r = expectParsed(parse('https://x.test/', ''));
    expect(r.text).toBe('');
    expect(r.outlinks).toEqual([]);
  });
});

describe('size', () => {
  it('a 5 MB page with 33,000 links parses (generated, not committed)', () => {
    const block = (i: number) =>
      `<div class="item"><h2>Item ${i}</h2><p>Some descriptive text for item number ${i}, with <b>markup</b> &amp; entities.</p>` +
      `<a href="/item/${i}">Item ${i}</a></div>\n`;
    const parts = ['<!doctype html><html><head><title>Big</title></head><body>'];
    for (let i = 0; i < 33_000; i++) parts.push(block(i));
    const html = parts.join('') + '</body></html>';
    expect(html.length).toBeGreaterThan(5_000_000);
    const r = expectParsed(parse('https://big.test/', html));
    expect(r.metadata.getFirstValue('parse.title')).toBe('Big');
    expect(r.outlinks).toHaveLength(33_000);
    expect(r.outlinks[32_999]?.url).toBe('https://big.test/item/32999');
    expect(
      r.text.startsWith(
        'Item 0 Some descriptive text for item number 0, with markup & entities. Item 0 Item 1',
      ),
    ).toBe(true);
    const capped = expectParsed(
      parse('https://big.test/', html, undefined, {
        config: { 'textextractor.skip.after': 1000, 'parser.emitOutlinks.max.per.page': 100 },
      }),
    );
    expect(capped.text.length).toBeLessThanOrEqual(1000);
    expect(capped.outlinks).toHaveLength(100);
  });
});

describe('the parser never throws', () => {
  it('random bytes and random markup give a result, never an exception', () => {
    const markup = fc.array(
      fc.oneof(
        fc.constantFrom(
          '<a href="',
          '">',
          '</a>',
          '<p>',
          '<!--',
          '-->',
          '<script>',
          '</script>',
          '<base href="',
          '<meta ',
          'content="',
          'name="robots"',
          '&amp;',
          '&#x',
          '<title>',
          '<![CDATA[',
          '\u0000',
          '\uFFFF',
        ),
        fc.string(),
      ),
    );
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array().map(Buffer.from),
          markup.map((a) => Buffer.from(a.join(''))),
        ),
        (content) => {
          const r = parse('https://x.test/p', content);
          expect(['parsed', 'status']).toContain(r.kind);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('an exception inside the parser is an ERROR with error.source "content parsing"', () => {
    const r = expectStatus(
      parse('https://x.test/', '<a href="/a">a</a>', undefined, {
        urlFilter: () => {
          throw new TypeError('boom');
        },
      }),
    );
    expect(r.status).toBe('ERROR');
    expect(r.metadata.getFirstValue('error.source')).toBe('content parsing');
    expect(r.metadata.getFirstValue('error.message')).toBe(
      'Exception while parsing https://x.test/: TypeError: boom',
    );
    expect(r.outlinks).toEqual([]);
  });
});
