import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasSpaceRun } from '../../../../src/parse/html/trim.js';
import type { ParseConfig } from '../../../../src/parse/settings.js';
import { expectParsed, parse } from '../support.js';

// The trimming of the chosen content (src/parse/html/trim.ts), each rule on a small page shaped as
// the pages it was written for.
const PAGE = 'https://www.example.com/news/item.html';
const parsed = (html: string, config: Partial<ParseConfig> = {}) =>
  expectParsed(parse(PAGE, html, undefined, { config }));

// Paragraphs of news prose (150 visible characters or more: what the furniture rules never touch).
const P1 =
  'The council voted on Tuesday to turn the old tram depot into a covered market with forty stalls, ' +
  'a café and a hall for the farmers who now sell their fruit on the old square in all weathers.';
const P2 =
  'Work starts in March and the market should open before the summer, the mayor told the meeting, ' +
  'although the new roof and the heating may well take longer than the builders first said.';
const P3 =
  'Traders who want a stall can apply until the end of January; rents will be set by the council ' +
  'in the spring, with lower rates for the growers from the valley and for the young traders of the town.';

describe('trimDeclared: what follows the article body inside a declared container', () => {
  it('a <main> holding the article then an author box, related links and a newsletter box keeps the article', () => {
    const html = `<html><body><main>
<h1>A market in the tram depot</h1>
<div class="article-body"><p>${P1}</p><p>${P2}</p><p>${P3}</p></div>
<div class="about-the-writer"><b>Anna Berg</b> writes about the city.</div>
<div class="more"><h3>More news</h3><ul><li><a href="/a">New bus lines from May</a></li><li><a href="/b">Bridge closed at night</a></li></ul></div>
<div class="box"><h4>Every morning in your inbox</h4><p>Get our news by mail.</p></div>
</main></body></html>`;
    const r = parsed(html);
    expect(r.text).toBe(`A market in the tram depot ${P1} ${P2} ${P3}`);
    for (const out of ['Anna Berg', 'More news', 'New bus lines', 'inbox'])
      expect(r.markdown).not.toContain(out);
  });

  it('prose after the article body (the rest of a split article) stays', () => {
    const after =
      'The depot was built in 1902 and has stood empty since the last tram line closed in 1968, its halls used only for storage.';
    const html = `<html><body><article>
<div class="text"><p>${P1}</p><p>${P2}</p><p>${P3}</p><p>${P1}</p></div>
<div class="text-2"><p>${after}</p></div>
<div class="tags"><a href="/t/markets">markets</a> <a href="/t/trams">trams</a></div>
</article></body></html>`;
    expect(parsed(html).text).toBe(`${P1} ${P2} ${P3} ${P1} ${after}`);
  });

  it('a container whose text is spread over blocks of similar size is left whole', () => {
    const html = `<html><body><main>
<section><h2>Hours</h2><p>${P1}</p><p>${P2}</p></section>
<section><h2>Prices</h2><p>${P3}</p><p>${P1}</p></section>
<div>Short note.</div>
</main></body></html>`;
    expect(parsed(html).text).toBe(`Hours ${P1} ${P2} Prices ${P3} ${P1} Short note.`);
  });
});

describe('trimFurniture: short blocks that name themselves as furniture', () => {
  it('read-also lines, photo credits, newsletter and share calls, ad labels and copyright lines are left out', () => {
    const html = `<html><body><article>
<p>${P1}</p>
<p><em>Read also: Ten years of the night bus</em></p>
<figure><img src="/depot.jpg"><p>Photo: City archive</p></figure>
<p>${P2}</p>
<div class="ad-label">Advertisement</div>
<p>${P3}</p>
<p><strong>Subscribe to our newsletter</strong></p>
<div>Share this article</div>
<p>© 2024 City News</p>
</article></body></html>`;
    const r = parsed(html);
    expect(r.text).toBe(`${P1} ${P2} ${P3}`);
    for (const out of ['Read also', 'City archive', 'Advertisement', 'newsletter', 'Share', '©'])
      expect(r.markdown).not.toContain(out);
  });

  it('the same words in a long paragraph, or a short line without them, stay', () => {
    const long =
      'Asked for a comment, the traders association said it would share the plans with its members and read ' +
      'them closely before the next meeting, where the rents, the opening hours and the parking are to be discussed.';
    const html = `<html><body><article><p>${P1}</p><p>${long}</p><p>Stalls open at 7 a.m.</p><p>${P2}</p></article></body></html>`;
    expect(parsed(html).text).toBe(`${P1} ${long} Stalls open at 7 a.m. ${P2}`);
  });

  it('German and Spanish furniture lines go as the English ones do', () => {
    const html = `<html><body><article>
<p>${P1}</p><p>Lesen Sie auch: Neue Buslinien ab Mai</p><p>${P2}</p><p>Quelle: dpa</p>
<p>${P3}</p><p>Te puede interesar: El puente cierra de noche</p><p>Weitere Informationen:</p>
</article></body></html>`;
    expect(parsed(html).text).toBe(`${P1} ${P2} ${P3}`);
  });

  it('a date line before the first paragraph is left out, one after it stays', () => {
    const html = `<html><body><article>
<h1>A market in the tram depot</h1><div class="when">12.03.2024, 10:32</div>
<p>${P1}</p><p>${P2}</p><p>Meeting: 14.03.2024</p><p>${P3}</p>
</article></body></html>`;
    expect(parsed(html).text).toBe(`A market in the tram depot ${P1} ${P2} Meeting: 14.03.2024 ${P3}`);
  });

  it('what textextractor.include.pattern matched is kept whole', () => {
    const html = `<html><body><div id="story"><p>${P1}</p><p>Read also: Ten years of the night bus</p></div></body></html>`;
    const r = parsed(html, { 'textextractor.include.pattern': ['DIV[id="story"]'] });
    expect(r.text).toBe(`${P1} Read also: Ten years of the night bus`);
    expect(r.markdown).toContain('Read also');
  });
});

describe('hasSpaceRun: the loop in front of the whitespace expression', () => {
  // The expression the short blocks are collapsed with (trim.ts): the loop must say true exactly
  // when it matches, or a block would be read with whitespace uncollapsed.
  const SPACE_RUNS = /\s{2,}|(?! )\s/;
  it('says true exactly where the expression matches', () => {
    const pieces = [
      'a',
      'word',
      ' ',
      '  ',
      '\t',
      '\n',
      '\r',
      '\v',
      '\f',
      '\u00a0',
      '\u2003',
      '\u3000',
      '\ufeff',
      '\u200b',
      'é',
      '“',
    ];
    for (const t of ['', 'a b', 'a  b', 'a\tb', 'a\u00a0b', ' lead', 'trail ', 'x\u2028y', 'x\u200by'])
      expect(hasSpaceRun(t), JSON.stringify(t)).toBe(SPACE_RUNS.test(t));
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...pieces), { maxLength: 12 }),
        fc.string({ unit: 'binary' }),
        (parts, noise) => {
          const text = parts.join('') + noise;
          expect(hasSpaceRun(text)).toBe(SPACE_RUNS.test(text));
        },
      ),
      { numRuns: 3000 },
    );
  });
});
