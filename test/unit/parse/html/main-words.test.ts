import { describe, expect, it } from 'vitest';
import { expectParsed, parse } from '../support.js';

// Class and id words inside a <main> or role=main (src/parse/html/main-words.ts): a strong word
// drops a block there only as a whole word of its name, and not from the anchor id of its heading.
const PAGE = 'https://docs.example.org/reference/lexical_analysis.html';
const text = (html: string) => expectParsed(parse(PAGE, html)).text;

const PROSE = 'The lexical analyser breaks a file into tokens, and this paragraph says how, at some length. ';

// Sphinx: div[role=main] with sections whose ids are slugs of their headings, and a toctree.
const SPHINX = `<html><body><div class="sphinxsidebar" role="navigation"><a href="index.html">Contents</a></div>
<div class="body" role="main"><section id="lexical-analysis"><h1>2. Lexical analysis</h1><p>${PROSE}</p>
<div class="toctree-wrapper compound"><ul><li class="toctree-l1"><a href="a.html">2.1. Line structure</a></li>
<li class="toctree-l1"><a href="b.html">2.2. Other tokens</a></li></ul></div>
<section id="comments"><h2>2.1.3. Comments</h2><p>A comment starts with a hash character that is not part of a string literal, and ends at the end of the physical line.</p></section>
<section id="cookie-management"><h2>Cookie management</h2><p>${PROSE}</p></section>
<section id="embedding-python"><h2>Embedding Python</h2><p>${PROSE}</p></section>
<p>${PROSE}</p></section></div></body></html>`;

// A web page: the article and, inside the same <main>, its comments and a sidebar.
const WEB = `<html><body><main id="main" class="site-main"><article><h1>The harbour reopens</h1><p>${PROSE}</p><p>${PROSE}</p></article>
<div id="comments" class="comments-area"><h2 class="comments-title">3 thoughts on "The harbour reopens"</h2>
<ol><li><p>Great news for the town, we waited long enough for this one.</p></li></ol></div>
<div class="sidebar"><h3>Popular</h3><p>Ten things to do on a rainy weekend in the old town centre.</p></div></main></body></html>`;

describe('class and id words inside a <main>', () => {
  it('Sphinx: sections whose ids are their headings ("comments", "cookie-management") and the toctree are kept', () => {
    const t = text(SPHINX);
    expect(t).toContain('2.1. Line structure 2.2. Other tokens');
    expect(t).toContain('2.1.3. Comments A comment starts with a hash character');
    expect(t).toContain('Cookie management The lexical analyser');
    expect(t).toContain('Embedding Python The lexical analyser');
  });

  it("a web page's comments block and sidebar inside <main> are still left out", () => {
    const t = text(WEB);
    expect(t).toContain('The harbour reopens The lexical analyser');
    for (const out of ['thoughts on', 'Great news', 'rainy weekend']) expect(t).not.toContain(out);
  });
});
