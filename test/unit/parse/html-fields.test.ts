import { describe, expect, it } from 'vitest';
import { expectParsed, fixture, parse } from './support.js';

const page = (head: string, body = '') =>
  `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;

describe('fields of the default jsoupfilters.json', () => {
  it('title, description, keywords and canonical of a full page', () => {
    const r = expectParsed(parse('https://www.example.com/articles/a.html', fixture('article.html')));
    expect(r.metadata.getValues('parse.title')).toEqual(['The Example Article']);
    expect(r.metadata.getValues('parse.description')).toEqual(['An article about examples.']);
    expect(r.metadata.getValues('parse.keywords')).toEqual(['example, test , crawler']);
    expect(r.metadata.getValues('canonical')).toEqual(['/articles/example?utm=no']);
    expect(r.metadata.getFirstValue('parsed.by')).toBe('HtmlParser');
    expect(r.metadata.getFirstValue('parse.Content-Type')).toBe('text/html');
    expect(r.metadata.getFirstValue('parse.Content-Encoding')).toBe('UTF-8');
  });

  it('the meta title is the fallback when there is no TITLE or an empty one', () => {
    const meta = '<meta name="title" content="From meta">';
    expect(expectParsed(parse('https://x.test/', page(meta))).metadata.getFirstValue('parse.title')).toBe(
      'From meta',
    );
    expect(
      expectParsed(parse('https://x.test/', page(`<title> </title>${meta}`))).metadata.getFirstValue(
        'parse.title',
      ),
    ).toBe('From meta');
  });

  it('the first TITLE counts and an svg title is not the page title', () => {
    const r = expectParsed(
      parse(
        'https://x.test/',
        page('', '<svg><title>icon</title></svg><title>Late</title><title>Later</title>'),
      ),
    );
    expect(r.metadata.getValues('parse.title')).toEqual(['Late']);
    expect(r.text).toBe('');
  });

  it('meta names compare case-insensitively (description and Description both count)', () => {
    const r = expectParsed(
      parse(
        'https://x.test/',
        page('<META NAME="Description" CONTENT="Upper"><meta name="KEYWORDS" content="a,b">'),
      ),
    );
    expect(r.metadata.getValues('parse.description')).toEqual(['Upper']);
    expect(r.metadata.getValues('parse.keywords')).toEqual(['a,b']);
  });

  it('canonical is the raw href of any element with rel=canonical; blank ones are skipped', () => {
    const r = expectParsed(
      parse(
        'https://x.test/',
        page('<link rel="Canonical" href=""><link rel="alternate canonical" href="../c">'),
      ),
    );
    expect(r.metadata.getValues('canonical')).toEqual(['../c']);
  });

  it('values from a previous fetch are replaced, not accumulated', () => {
    const r = expectParsed(
      parse('https://x.test/', page('<title>New</title>'), undefined, {
        metadata: { 'parse.title': 'Old', 'parse.description': 'Old description' },
      }),
    );
    expect(r.metadata.getValues('parse.title')).toEqual(['New']);
    expect(r.metadata.has('parse.description')).toBe(false);
  });

  it('the input metadata is not changed', () => {
    const input = { 'protocol.content-type': 'text/html', depth: '2' };
    const r = expectParsed(parse('https://x.test/', page('<title>T</title>'), {}, { metadata: input }));
    expect(r.metadata.getFirstValue('depth')).toBe('2');
    expect(r.metadata.getFirstValue('isSitemap')).toBe('false');
  });

  it('entities are decoded in titles, attributes and text', () => {
    const r = expectParsed(
      parse(
        'https://x.test/',
        page(
          '<title>Tom &amp; Jerry&nbsp;&#8212; &eacute;</title><meta name="description" content="a &lt; b">',
          'x &gt; y',
        ),
      ),
    );
    expect(r.metadata.getFirstValue('parse.title')).toBe('Tom & Jerry — é');
    expect(r.metadata.getFirstValue('parse.description')).toBe('a < b');
    expect(r.text).toBe('x > y');
  });
});
