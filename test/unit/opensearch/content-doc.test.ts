import { describe, expect, it } from 'vitest';
import { Metadata } from '../../../src/model/metadata.js';
import {
  contentDocument,
  contentUrl,
  type IndexerOptions,
  indexable,
  parseMapping,
} from '../../../src/opensearch/content-doc.js';
import { documentId } from '../../../src/opensearch/status-doc.js';

const options: IndexerOptions = {
  crawl: 'status',
  textMaxLength: -1,
  mdMapping: [
    'parse.title=title',
    'parse.keywords=keywords',
    'parse.description=description',
    'domain',
    'format',
  ],
  canonicalKey: 'canonical',
  mdFilter: '',
  ignoreEmptyFields: false,
};
const mapping = parseMapping(options.mdMapping);

describe('content documents', () => {
  it('hold the url, the crawl (its status index), mapped metadata, text, host and fetch time', () => {
    const md = Metadata.of({
      'parse.title': 'Hello',
      'parse.keywords': ['a', 'b'],
      domain: 'example.com',
      format: 'html',
    });
    const { id, doc } = contentDocument(
      { url: 'https://www.example.com/p', metadata: md, text: '  some text ' },
      options,
      mapping,
      0,
    );
    expect(id).toBe(documentId('https://www.example.com/p'));
    expect(doc).toEqual({
      url: 'https://www.example.com/p',
      crawl: 'status',
      content: 'some text',
      host: 'www.example.com',
      fetchTime: '1970-01-01T00:00:00.000Z',
      title: 'Hello',
      keywords: ['a', 'b'],
      domain: 'example.com',
      format: 'html',
    });
  });

  it('use the canonical URL for the id when it is on the same registrable domain', () => {
    const md = Metadata.of({ canonical: '/canonical' });
    expect(contentUrl('https://www.example.com/p?x=1', md, 'canonical')).toBe(
      'https://www.example.com/canonical',
    );
    const { id, doc } = contentDocument(
      { url: 'https://www.example.com/p?x=1', metadata: md, text: '' },
      options,
      mapping,
      0,
    );
    expect(id).toBe(documentId('https://www.example.com/canonical'));
    expect(doc.url).toBe('https://www.example.com/p?x=1');
    expect(doc.canonical).toBe('https://www.example.com/canonical');
  });

  it('ignore a canonical on another domain or malformed', () => {
    expect(
      contentUrl('https://a.example.com/', Metadata.of({ canonical: 'https://other.org/' }), 'canonical'),
    ).toBe('https://a.example.com/');
    expect(contentUrl('https://a.example.com/', Metadata.of({ canonical: 'http://[bad' }), 'canonical')).toBe(
      'https://a.example.com/',
    );
  });

  it('cut the text at indexer.text.maxlength', () => {
    const { doc } = contentDocument(
      { url: 'http://a.test/', metadata: new Metadata(), text: 'abcdef' },
      { ...options, textMaxLength: 3 },
      mapping,
      0,
    );
    expect(doc.content).toBe('abc');
  });

  it('hold the Markdown when the parser wrote one, cut at the same limit; none otherwise', () => {
    const o = { ...options, textMaxLength: 5 };
    const { doc } = contentDocument(
      { url: 'http://a.test/', metadata: new Metadata(), text: 'abcdef', markdown: '# Title' },
      o,
      mapping,
      0,
    );
    expect(doc.markdown).toBe('# Tit');
    expect(
      contentDocument({ url: 'http://a.test/', metadata: new Metadata(), text: 'abc' }, options, mapping, 0)
        .doc,
    ).not.toHaveProperty('markdown');
  });

  it('map key[n], prefix* and leave out blank fields when asked', () => {
    const md = Metadata.of({ 'parse.title': ['first', 'second'], 'og.a': 'x', 'og.b': 'y', empty: ' ' });
    const m = parseMapping(['parse.title[1]=title', 'og.*', 'empty']);
    const { doc } = contentDocument(
      { url: 'http://a.test/', metadata: md, text: '' },
      { ...options, ignoreEmptyFields: true },
      m,
      0,
    );
    expect(doc).toMatchObject({ title: 'second', 'og.a': 'x', 'og.b': 'y' });
    expect(doc).not.toHaveProperty('empty');
    expect(doc).not.toHaveProperty('content');
  });

  it('are skipped for noindex pages and pages not matching indexer.md.filter', () => {
    expect(indexable(Metadata.of({ 'robots.noIndex': 'true' }), options)).toBe(false);
    expect(indexable(Metadata.of({ 'robots.noIndex': 'false' }), options)).toBe(true);
    const filtered = { ...options, mdFilter: 'lang=en' };
    expect(indexable(Metadata.of({ lang: 'en' }), filtered)).toBe(true);
    expect(indexable(Metadata.of({ lang: 'de' }), filtered)).toBe(false);
  });

  it('reject a malformed mapping entry', () => {
    expect(() => parseMapping(['=title'])).toThrow(/indexer.md.mapping: cannot read entry/);
    expect(() => parseMapping(['a[x]'])).toThrow(/indexer.md.mapping: cannot read entry/);
  });
});
