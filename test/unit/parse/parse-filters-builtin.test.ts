import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatOf } from '../../../src/parse/parsefilters/basic.js';
import { buildParseFilters } from '../../../src/parse/parsefilters/load.js';
import { dropFragment, expectParsed, parse, urls } from './support.js';

const TOP = 'org.apache.stormcrawler.parse.ParseFilters';
const build = (...entries: unknown[]) => buildParseFilters({ [TOP]: entries }, 'test.json');
const PAGE = 'https://www.example.co.uk/articles/a.html';

describe('built-in filters', () => {
  it('DomainParseFilter: registrable domain, or the host with byHost; IPs give the host', () => {
    const dom = build({ class: 'DomainParseFilter', params: { key: 'd' } });
    const host = build({ class: 'DomainParseFilter', params: { byHost: true } });
    expect(expectParsed(parse(PAGE, '<p>', undefined, { filters: dom })).metadata.getFirstValue('d')).toBe(
      'example.co.uk',
    );
    expect(
      expectParsed(parse(PAGE, '<p>', undefined, { filters: host })).metadata.getFirstValue('domain'),
    ).toBe('www.example.co.uk');
    expect(
      expectParsed(parse('http://10.0.0.1/', '<p>', undefined, { filters: dom })).metadata.getFirstValue('d'),
    ).toBe('10.0.0.1');
  });

  it('MimeTypeNormalization maps types as StormCrawler does', () => {
    const cases: [string | undefined, string][] = [
      [undefined, 'unknown'],
      ['text/html', 'html'],
      ['application/xhtml+xml', 'html'],
      ['application/pdf', 'pdf'],
      ['application/msword', 'word'],
      ['application/vnd.ms-excel', 'excel'],
      ['application/vnd.ms-powerpoint', 'powerpoint'],
      ['video/mp4', 'video'],
      ['image/png', 'image'],
      ['audio/mpeg', 'audio'],
      ['application/zip', 'other'],
    ];
    for (const [ct, format] of cases) expect(formatOf(ct), ct).toBe(format);
  });

  it('MimeTypeNormalization runs on non-HTML content kept with jsoup.treat.non.html.as.error false', () => {
    const f = build({ class: 'MimeTypeNormalization' });
    const r = expectParsed(
      parse(
        'https://x.test/a.pdf',
        Buffer.from('%PDF-1.4'),
        { 'content-type': 'application/pdf' },
        {
          filters: f,
          config: { 'jsoup.treat.non.html.as.error': false, 'tika.enabled': false },
        },
      ),
    );
    expect(r.metadata.getFirstValue('format')).toBe('pdf');
  });

  it('CommaSeparatedToMultivaluedMetadata splits the first value and caps the tokens', () => {
    const f = build({
      class: 'CommaSeparatedToMultivaluedMetadata',
      params: { keys: ['parse.keywords', 'none'], maxTokens: 2 },
    });
    const r = expectParsed(
      parse(PAGE, '<meta name="keywords" content="a , b,,c">', undefined, { filters: f }),
    );
    expect(r.metadata.getValues('parse.keywords')).toEqual(['a', 'b']);
  });

  it('MD5SignatureParseFilter: content digest by default, sha1 on request, URL when there is nothing', () => {
    const md5 = build({ class: 'MD5SignatureParseFilter' });
    const sha1 = build({
      class: 'MD5SignatureParseFilter',
      params: { algorithm: 'sha1', useText: true, keyName: 's' },
    });
    const r = expectParsed(parse(PAGE, '<p>x</p>', undefined, { filters: md5 }));
    expect(r.metadata.getFirstValue('signature')).toBe(createHash('md5').update('<p>x</p>').digest('hex'));
    expect(r.metadata.has('signatureOld')).toBe(false);
    const text = expectParsed(parse(PAGE, '<p>x</p>', undefined, { filters: sha1 }));
    expect(text.metadata.getFirstValue('s')).toBe(createHash('sha1').update('x').digest('hex'));
    const empty = expectParsed(parse(PAGE, '<p></p>', undefined, { filters: sha1 }));
    expect(empty.metadata.getFirstValue('s')).toBe(createHash('sha1').update(PAGE).digest('hex'));
  });

  it('CollectionTagger: whole-URL include patterns minus exclude patterns, inline or from a file', () => {
    const collections = [
      { name: 'articles', includePatterns: ['https://www\\.example\\.co\\.uk/articles/.+'] },
      { name: 'uk', includePatterns: ['.+\\.uk/.*'], excludePatterns: ['.+/private/.*'] },
      { name: 'partial', includePatterns: ['articles'] },
    ];
    const inline = build({ class: 'CollectionTagger', params: { collections } });
    expect(
      expectParsed(parse(PAGE, '<p>', undefined, { filters: inline })).metadata.getValues('collections'),
    ).toEqual(['articles', 'uk']);
    const priv = expectParsed(
      parse('https://www.example.co.uk/private/x', '<p>', undefined, { filters: inline }),
    );
    expect(priv.metadata.has('collections')).toBe(false);
    const dir = mkdtempSync(join(tmpdir(), 'ct-'));
    writeFileSync(join(dir, 'collections.json'), JSON.stringify({ collections }));
    const fromFile = buildParseFilters(
      { [TOP]: [{ class: 'CollectionTagger', params: { file: 'collections.json', key: 'c' } }] },
      'x',
      {
        baseDir: dir,
      },
    );
    expect(
      expectParsed(parse(PAGE, '<p>', undefined, { filters: fromFile })).metadata.getValues('c'),
    ).toEqual(['articles', 'uk']);
  });

  it('CSSSelectorFilter: first selector with values wins; text or @attribute; needs a DOM', () => {
    const f = build({
      class: 'CSSSelectorFilter',
      params: {
        author: ['meta[name="author"]@content', '.byline'],
        headings: 'h2',
        missing: '.nothing',
        mail: 'a[href^="mailto:x@y"]@href',
      },
    });
    expect(f.needsDom).toBe(true);
    const html = '<p class="byline"> By  Ann </p><h2>One</h2><h2>Two</h2><a href="mailto:x@y.z">m</a>';
    // The whole page's text: the main content would leave the byline out.
    const config = { 'textextractor.whole.page': true };
    const r = expectParsed(parse(PAGE, html, undefined, { filters: f, config }));
    expect(r.metadata.getValues('author')).toEqual(['By Ann']);
    expect(r.metadata.getValues('headings')).toEqual(['One', 'Two']);
    expect(r.metadata.has('missing')).toBe(false);
    expect(r.metadata.getValues('mail')).toEqual(['mailto:x@y.z']);
    expect(r.text).toBe('By Ann One Two m');
  });

  it("LinkParseFilter: extra links resolved, filtered and merged with the parser's", () => {
    const f = build({
      class: 'LinkParseFilter',
      params: { alt: 'link[rel=alternate]@href', frames: 'iframe@src' },
    });
    const html =
      '<link rel="alternate" hreflang="de" href="/de/"><link rel="alternate" href="https://other.test/#x">' +
      '<iframe src="/frame.html"></iframe><a href="/de/#top">Deutsch</a>';
    const r = expectParsed(parse(PAGE, html, undefined, { filters: f, urlFilter: dropFragment }));
    expect(urls(r)).toEqual([
      'https://www.example.co.uk/frame.html',
      'https://www.example.co.uk/de/',
      'https://other.test/',
    ]);
    expect(r.outlinks[1]!.metadata.getValues('anchors')).toEqual(['Deutsch']);
    const nofollow = expectParsed(
      parse(PAGE, `<meta name="robots" content="nofollow">${html}`, undefined, { filters: f }),
    );
    expect(nofollow.outlinks).toEqual([]);
  });

  it('LanguageID detects the language of the text, and skips short texts', async () => {
    const f = build({ class: 'LanguageID', params: { minLength: 20 } });
    await f.ready;
    const fr = '<p>Le chat est assis sur le tapis et regarde les oiseaux qui chantent dans le jardin.</p>';
    const de = '<p>Der schnelle braune Fuchs springt über den faulen Hund und läuft in den Wald.</p>';
    expect(expectParsed(parse(PAGE, fr, undefined, { filters: f })).metadata.getFirstValue('lang')).toBe(
      'fr',
    );
    expect(expectParsed(parse(PAGE, de, undefined, { filters: f })).metadata.getFirstValue('lang')).toBe(
      'de',
    );
    expect(expectParsed(parse(PAGE, '<p>Hallo</p>', undefined, { filters: f })).metadata.has('lang')).toBe(
      false,
    );
  });
});
