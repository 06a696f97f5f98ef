import { describe, expect, it } from 'vitest';
import { dropFragment, expectParsed, fixture, parse, urls } from './support.js';

const PAGE = 'https://www.example.com/articles/a.html';
const anchors = (r: ReturnType<typeof expectParsed>, url: string) =>
  r.outlinks.find((o) => o.url === url)?.metadata.getValues('anchors');

describe('links of a page', () => {
  it('a[href], area[href], frame and iframe src; javascript:, mailto: and rel=nofollow links dropped', () => {
    const r = expectParsed(parse(PAGE, fixture('article.html')));
    expect(urls(r)).toEqual([
      'https://www.example.com/',
      'https://www.example.com/about',
      'https://www.example.com/articles/related.html',
      'https://other.example.org/page#top',
      'https://www.example.com/articles/related.html#part2',
      PAGE,
      'https://www.example.com/area-target',
      'https://www.example.com/embedded.html',
    ]);
  });

  it('anchors of the same target merge, each distinct text once, whitespace collapsed', () => {
    const r = expectParsed(parse(PAGE, fixture('article.html')));
    expect(anchors(r, 'https://www.example.com/articles/related.html')).toEqual([
      'the related article',
      'Related, again',
    ]);
    expect(anchors(r, 'https://www.example.com/about')).toEqual(['About us']);
    expect(anchors(r, 'https://www.example.com/area-target')).toBeUndefined();
  });

  it('links equal after the URL filters are one outlink with the anchors of all', () => {
    const r = expectParsed(parse(PAGE, fixture('article.html'), undefined, { urlFilter: dropFragment }));
    expect(urls(r)).toContain('https://www.example.com/articles/related.html');
    expect(urls(r)).not.toContain('https://www.example.com/articles/related.html#part2');
    expect(anchors(r, 'https://www.example.com/articles/related.html')).toEqual([
      'the related article',
      'Related, again',
    ]);
  });

  it('the URL filters see the page as source with its metadata, and may drop links', () => {
    const seen: string[] = [];
    const r = expectParsed(
      parse(PAGE, fixture('article.html'), undefined, {
        metadata: { depth: '3' },
        urlFilter: (source, md, target) => {
          seen.push(`${source.href} ${md.getFirstValue('depth')}`);
          return target.includes('other.example.org') ? null : target;
        },
      }),
    );
    expect(new Set(seen)).toEqual(new Set([`${PAGE} 3`]));
    expect(urls(r)).not.toContain('https://other.example.org/page#top');
  });

  it('outlink metadata comes from MetadataTransfer.forOutlink: url.path and depth + 1', () => {
    const r = expectParsed(
      parse(PAGE, fixture('article.html'), undefined, {
        metadata: { depth: '1', 'url.path': 'https://www.example.com/', secret: 'not transferred' },
      }),
    );
    const md = r.outlinks[0]!.metadata;
    expect(md.getValues('url.path')).toEqual(['https://www.example.com/', PAGE]);
    expect(md.getFirstValue('depth')).toBe('2');
    expect(md.has('secret')).toBe(false);
    expect(r.outlinks[1]!.metadata).not.toBe(md);
  });

  it('relative links resolve against <base href>, even links that come before it', () => {
    const r = expectParsed(parse('https://www.example.com/dir/page.html', fixture('base-href.html')));
    expect(urls(r)).toEqual([
      'https://cdn.example.net/docs/v2/before-base.html',
      'https://cdn.example.net/docs/v2/page.html',
      'https://cdn.example.net/docs/up.html',
      'https://cdn.example.net/root.html',
      'https://proto.example.com/x',
      'https://absolute.example.com/y',
      'https://cdn.example.net/docs/v2/?q=1',
    ]);
  });

  it('root-relative links resolve per origin, also when a previous page had the same ones', () => {
    const html = '<a href="/same">s</a><a href="rel">r</a><a href="HTTPS://Abs.Example.com/x">a</a>';
    expect(urls(parse('https://one.test/a/b', html))).toEqual([
      'https://one.test/same',
      'https://one.test/a/rel',
      'https://abs.example.com/x',
    ]);
    expect(urls(parse('http://two.test:8080/c/d', html))).toEqual([
      'http://two.test:8080/same',
      'http://two.test:8080/c/rel',
      'https://abs.example.com/x',
    ]);
  });

  it('a relative or unusable base is resolved against the page or ignored', () => {
    const rel = expectParsed(parse('https://x.test/a/b.html', '<base href="/sub/"><a href="c">c</a>'));
    expect(urls(rel)).toEqual(['https://x.test/sub/c']);
    const bad = expectParsed(parse('https://x.test/a/b.html', '<base href="javascript:0"><a href="c">c</a>'));
    expect(urls(bad)).toEqual(['https://x.test/a/c']);
  });

  it('frames: frame and iframe sources are links (StormCrawler needs a LinkParseFilter for them)', () => {
    const r = expectParsed(parse('https://www.example.com/', fixture('frames.html')));
    expect(urls(r)).toEqual([
      'https://www.example.com/nav.html',
      'https://www.example.com/top.html',
      'https://www.example.com/bottom.html',
      'https://www.example.com/noframes.html',
    ]);
    expect(r.metadata.getFirstValue('parse.title')).toBe('Frames page');
    expect(r.text).toBe('Your browser does not do frames. Go to the plain version.');
  });

  it('parser.emitOutlinks.max.per.page keeps the first N distinct links', () => {
    const html = Array.from(
      { length: 25 },
      (_, i) => `<a href="/p${i}">p${i}</a><a href="/p0">again</a>`,
    ).join('');
    const five = expectParsed(
      parse(PAGE, html, undefined, { config: { 'parser.emitOutlinks.max.per.page': 5 } }),
    );
    expect(urls(five)).toEqual([0, 1, 2, 3, 4].map((i) => `https://www.example.com/p${i}`));
    expect(five.outlinks[0]!.metadata.getValues('anchors')).toEqual(['p0', 'again']);
    expect(expectParsed(parse(PAGE, html)).outlinks).toHaveLength(25);
  });

  it('parser.emitOutlinks false gives no outlinks', () => {
    const r = expectParsed(
      parse(PAGE, fixture('article.html'), undefined, { config: { 'parser.emitOutlinks': false } }),
    );
    expect(r.outlinks).toEqual([]);
  });

  it('track.anchors false leaves anchors out', () => {
    const r = expectParsed(
      parse(PAGE, fixture('article.html'), undefined, { config: { 'track.anchors': false } }),
    );
    expect(r.outlinks.every((o) => !o.metadata.has('anchors'))).toBe(true);
  });

  it('javascript: links are dropped and only the real link is kept (JSoupParserBoltTest)', () => {
    const r = expectParsed(parse(PAGE, '<a href="javascript:void(0)">js</a><a href="mylink">mine</a>'));
    expect(urls(r)).toEqual(['https://www.example.com/articles/mylink']);
  });

  it('anchor text ignores script content and is capped', () => {
    const r = expectParsed(parse(PAGE, `<a href="/x">see<script>var s;</script> ${'long '.repeat(500)}</a>`));
    const a = r.outlinks[0]!.metadata.getFirstValue('anchors')!;
    expect(a.startsWith('see long')).toBe(true);
    expect(a.length).toBeLessThanOrEqual(1024);
  });
});
