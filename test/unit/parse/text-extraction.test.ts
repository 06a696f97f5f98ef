import { describe, expect, it } from 'vitest';
import { compileSelector, matches } from '../../../src/parse/html/selectors.js';
import type { ParseConfig } from '../../../src/parse/settings.js';
import { defaultParseConfig, parseSettings } from '../../../src/parse/settings.js';
import { ConfigError } from '../../../src/util/errors.js';
import { expectParsed, fixture, parse } from './support.js';

/** The whole body's text (textextractor.whole.page), StormCrawler's; main content: test/unit/parse/html. */
const text = (html: string, config: Partial<ParseConfig> = {}) =>
  expectParsed(
    parse('https://x.test/', html, undefined, { config: { 'textextractor.whole.page': true, ...config } }),
  ).text;

describe('text of the body', () => {
  it('the article fixture: head, script, style, noscript, template and iframe are never text', () => {
    const t = expectParsed(
      parse('https://www.example.com/articles/a.html', fixture('article.html'), undefined, {
        config: { 'textextractor.whole.page': true },
      }),
    ).text;
    expect(t).toBe(
      'Home | About us Example&Article First paragraph with bold and italic words. Second line after a break. ' +
        '  keep   this\n  spacing one two See the related article and another site. Related, again the related article ' +
        'js link mail self Sponsored Copyright footer',
    );
    for (const hidden of [
      'script text',
      'color: red',
      'Enable JavaScript',
      'template text',
      'iframe fallback',
      'The Example',
    ])
      expect(t).not.toContain(hidden);
  });

  it('whitespace runs collapse; block elements and br separate words, inline elements do not', () => {
    expect(
      text('<div>One</div>Two<p>Three</p><span>Fo</span><b>ur</b> line<br>break \n\t end&nbsp;&nbsp;x'),
    ).toBe('One Two Three Four line break end x');
    expect(text('<table><tr><td>a</td><td>b</td></tr></table><ul><li>c<li>d</ul>')).toBe('a b c d');
  });

  it('pre keeps its whitespace', () => {
    expect(text('<p>a</p><pre>  x\n    y</pre><p>b</p>')).toBe('a   x\n    y b');
  });

  it('a page without head or body tags still has text, and head text that is not head content counts', () => {
    expect(text('Just text <b>here</b>')).toBe('Just text here');
    expect(text('<html><head><title>t</title><p>body starts</p></head></html>')).toBe('body starts');
  });

  it('include patterns: the first selector that matches gives the text', () => {
    const html =
      '<div id="nav">menu</div><article>Article text</article><div itemprop="articleBody">Body one</div>' +
      '<div itemprop="ARTICLEBODY">Body two</div>';
    const include = ['DIV[id="maincontent"]', 'DIV[itemprop="articleBody"]', 'ARTICLE'];
    expect(text(html, { 'textextractor.include.pattern': include })).toBe('Body one Body two');
    expect(text('<p>no match</p>', { 'textextractor.include.pattern': include })).toBe('no match');
    expect(text(html, { 'textextractor.include.pattern': ['#nav', 'article'] })).toBe('menu');
    expect(
      text('<div class="a post">P</div><div class="posts">Q</div>', {
        'textextractor.include.pattern': ['.post'],
      }),
    ).toBe('P');
  });

  it('nested matches count once', () => {
    expect(
      text('<div class="c">a<div class="c">b</div>c</div>', { 'textextractor.include.pattern': ['.c'] }),
    ).toBe('a b c');
  });

  it('exclude tags drop elements and everything inside them, whatever the case', () => {
    const html = '<p>keep</p><nav>menu <a href="/">home</a></nav><footer><p>foot</p></footer><p>also</p>';
    expect(text(html, { 'textextractor.exclude.tags': ['NAV', 'footer'] })).toBe('keep also');
  });

  it('include and exclude together', () => {
    const html = '<article>Text <aside>side</aside> more</article><p>outside</p>';
    expect(
      text(html, { 'textextractor.include.pattern': ['article'], 'textextractor.exclude.tags': ['aside'] }),
    ).toBe('Text more');
  });

  it('textextractor.no.text gives no text; skip.after cuts the text', () => {
    expect(text('<p>abc</p>', { 'textextractor.no.text': true })).toBe('');
    expect(text('<p>one two three</p>', { 'textextractor.skip.after': 7 })).toBe('one two');
    expect(text(`<p>${'word '.repeat(100_000)}</p>`, { 'textextractor.skip.after': 12 })).toBe(
      'word word wo',
    );
  });
});

describe('text selectors', () => {
  it('support TAG, TAG[attr="value"], #id, .class, [attr] and compounds', () => {
    const el = { id: 'main', class: 'post featured', itemprop: 'articleBody', 'data-x': '' };
    for (const s of [
      'div',
      'DIV',
      '*',
      '#main',
      '.post',
      '.featured.post',
      'div[itemprop="ARTICLEBODY"]',
      "[itemprop='articlebody']",
      '[data-x]',
      'div#main.post[itemprop=articleBody]',
      'div.post',
    ])
      expect(matches(compileSelector(s), 'div', el), s).toBe(true);
    for (const s of ['p', '#Main', '.pos', '[itemprop="other"]', '[missing]', '[constructor]'])
      expect(matches(compileSelector(s), 'div', el), s).toBe(false);
  });

  it('anything else is refused at start-up with a ConfigError that says what is supported', () => {
    for (const bad of ['div p', 'div > p', 'a, b', 'p:first-child', 'a[href^="http"]', '']) {
      const fn = () => parseSettings(defaultParseConfig({ 'textextractor.include.pattern': [bad] }));
      expect(fn, bad).toThrow(ConfigError);
      expect(fn, bad).toThrow(/textextractor.include.pattern: .*supported without a DOM: TAG/);
    }
  });
});
