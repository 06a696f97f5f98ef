import { describe, expect, it } from 'vitest';
import { extractHtml } from '../../../../src/parse/html/extract.js';
import { defaultParseConfig, type ParseConfig, parseSettings } from '../../../../src/parse/settings.js';
import { fromWire, toWire } from '../../../../src/parse/worker/protocol.js';
import { expectParsed, parse } from '../support.js';
import { ARTICLE, BODY_ONLY, HOME, MOBILE_MENU, SPHINX, STRUCTURE } from './pages.js';

const PAGE = 'https://www.example.com/dir/page.html';
const parsed = (html: string, config: Partial<ParseConfig> = {}) =>
  expectParsed(parse(PAGE, html, undefined, { config }));

describe('main content: what is kept and what is left out', () => {
  it('an article with menu, sidebar, comments and footer keeps its title and paragraphs only', () => {
    const r = parsed(ARTICLE);
    expect(r.text).toBe(
      'Spring arrives in the city The first warm week brought the parks back to life, and the river walk ' +
        'was full of people on bikes. City gardeners planted twelve thousand tulips along the boulevard ' +
        'this year, twice as many as last spring.',
    );
    for (const out of [
      'City Blog',
      'Home',
      'Posted on',
      'Share this',
      'Twitter',
      'Lovely photos',
      'Archives',
      'newsletter',
      '©',
    ])
      expect(r.text).not.toContain(out);
    expect(r.markdown).toBe(
      '# Spring arrives in the city\n\n' +
        'The first warm week brought the parks back to life, and the river walk was full of people on bikes.\n\n' +
        'City gardeners planted **twelve thousand** tulips along the boulevard this year, twice as many as last spring.',
    );
  });

  it('a menu printed twice (a hidden mobile copy, an off-canvas copy) is left out, every copy', () => {
    const r = parsed(MOBILE_MENU);
    expect(r.text).toMatch(/^New bus line from Monday From Monday the new line 42/);
    for (const out of ['Council', 'Transport', 'Culture']) expect(r.text).not.toContain(out);
  });

  it('a Sphinx page keeps its body: role=navigation bars, the sidebar and the footer are left out', () => {
    const r = parsed(SPHINX);
    expect(r.text).toBe(
      'Installing Install the package with pip, preferably in a virtual environment: ' +
        '$ python -m venv .venv\n$ .venv/bin/pip install demo Then check the version with demo --version.',
    );
    for (const out of [
      'Navigation',
      'modules',
      'Previous topic',
      'Next topic',
      'Show Source',
      'Copyright',
      '¶',
    ])
      expect(r.text).not.toContain(out);
    expect(r.markdown).toContain('```console\n$ python -m venv .venv\n$ .venv/bin/pip install demo\n```');
    expect(r.markdown).toContain('with `demo --version`.');
  });

  it('a home page listing articles keeps its list of teasers, links included', () => {
    const r = parsed(HOME);
    expect(r.text).toBe(
      'Latest news New bus line from Monday The line 42 links the station with the hospital. ' +
        'Twelve thousand tulips The boulevard is in bloom again. Library opens on Sundays From June, every Sunday afternoon.',
    );
    expect(r.markdown).toContain('## [Twelve thousand tulips](https://www.example.com/2024/05/tulips)');
    expect(r.markdown).not.toContain('About us');
  });

  it('a page whose only container is <body> keeps all of it', () => {
    const r = parsed(BODY_ONLY);
    expect(r.text).toBe(
      'Opening hours The museum is open from Tuesday to Sunday, from ten in the morning to six in the evening. ' +
        'On public holidays it closes at four. Entry is free on the first Sunday of the month.',
    );
    expect(r.markdown?.startsWith('# Opening hours\n\nThe museum is open')).toBe(true);
  });

  it('a page of nothing but boilerplate keeps its text rather than none', () => {
    expect(parsed('<body><footer>Only a footer here</footer></body>').text).toBe('Only a footer here');
  });
});

describe('Markdown', () => {
  const md = parsed(STRUCTURE).markdown ?? '';

  it('links and images are absolute against <base href>; emphasis and strong are marked', () => {
    expect(md).toContain(
      'Read the [introduction](https://docs.example.org/intro.html) first, then *configure* the **crawler**: ' +
        'see ![the flow](https://docs.example.org/guide/img/flow.png).',
    );
  });

  it('a table is a GFM table with its header row; a pipe in a cell is escaped', () => {
    expect(md).toContain('| Key | Default |\n| --- | --- |\n| threads | 4 |\n| delay \\| ms | 1000 |');
  });

  it('lists nest; ordered lists are numbered', () => {
    expect(md).toContain('- Fetching\n  - HTTP/1.1\n  - HTTP/2\n- Parsing');
    expect(md).toContain('1. Install\n2. Run');
  });

  it('code keeps its lines and indentation in a fence with the language of its class', () => {
    expect(md).toContain('```python\ndef main():\n    if ready:\n        crawl()\n```');
  });

  it('headings are ATX; quotes are block quotes', () => {
    expect(md.startsWith('## Options\n\n')).toBe(true);
    expect(md).toContain('> Crawl politely.');
  });

  it('text that would read as Markdown is escaped', () => {
    const m = parsed('<p>1. not a list and *not* emphasis_here</p><p># not a heading</p>').markdown;
    expect(m).toBe('\\1. not a list and \\*not\\* emphasis\\_here\n\n\\# not a heading');
  });

  it('whitespace is collapsed where parts meet space to space, as inside one text', () => {
    // Each paragraph's text is free of whitespace to collapse; only where its parts meet is there some.
    const r = parsed(
      '<article><h2>Ends <em>meet </em> here</h2><p>one <b> two</b> <a href="/x"> three </a> four</p>' +
        '<p>five\u00a0six</p><table><tr><td>a <i>b </i> c</td><td><div>d</div> e</td></tr></table></article>',
    );
    expect(r.text).toBe('Ends meet here one two three four five six a b c d e');
    expect(r.markdown).toBe(
      '## Ends *meet* here\n\none **two** [three](https://www.example.com/x) four\n\nfive six\n\n' +
        '| a *b* c | d e |\n| --- | --- |',
    );
  });
});

describe('options', () => {
  it('textextractor.include.pattern still wins: its text, and Markdown of the matched elements', () => {
    const r = parsed(ARTICLE, { 'textextractor.include.pattern': ['DIV[id="comments"]'] });
    expect(r.text).toBe('3 comments Lovely photos, thanks for the walk!');
    expect(r.markdown).toBe('## 3 comments\n\n1. Lovely photos, thanks for the walk!');
  });

  it('textextractor.exclude.tags drops elements from the main content too', () => {
    const r = parsed(BODY_ONLY, { 'textextractor.exclude.tags': ['h1'] });
    expect(r.text.startsWith('The museum is open')).toBe(true);
    expect(r.markdown?.startsWith('The museum is open')).toBe(true);
  });

  it('textextractor.whole.page keeps the whole body as text, with no Markdown', () => {
    const r = parsed(ARTICLE, { 'textextractor.whole.page': true });
    expect(r.text.startsWith('City Blog Home News Sport About us Spring arrives')).toBe(true);
    expect(r.text).toContain('© 2024 City Blog');
    expect(r.markdown).toBeUndefined();
  });

  it('textextractor.markdown false writes no Markdown and leaves the text as it is', () => {
    const r = parsed(ARTICLE, { 'textextractor.markdown': false });
    expect(r.markdown).toBeUndefined();
    expect(r.text).toBe(parsed(ARTICLE).text);
  });

  it('textextractor.skip.after cuts the text and the Markdown', () => {
    const r = parsed(BODY_ONLY, { 'textextractor.skip.after': 20 });
    expect(r.text).toBe('Opening hours The mu');
    expect(r.markdown).toBe('# Opening hours\n\nThe');
  });

  it('the text fingerprints and language detection read (mainText) is the main text', () => {
    const s = parseSettings(defaultParseConfig());
    const ex = extractHtml(ARTICLE, { ...s.text, mainText: true });
    expect(ex.mainText).toBe(ex.text);
    expect(ex.text.startsWith('Spring arrives in the city')).toBe(true);
  });
});

describe('the Markdown crosses to the indexer', () => {
  it('a parser thread sends it with the text (worker protocol)', () => {
    const r = parse(PAGE, BODY_ONLY);
    const back = expectParsed(fromWire(JSON.parse(JSON.stringify(toWire(r)))));
    expect(back.markdown).toBe(expectParsed(r).markdown);
    expect(back.markdown?.startsWith('# Opening hours')).toBe(true);
  });
});
