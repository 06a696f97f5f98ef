import { describe, expect, it } from 'vitest';
import { isFurniture } from '../../../../src/parse/html/furniture.js';
import { expectParsed, parse } from '../support.js';
import { ASCIIDOC_MAN, DOCBOOK_TOC, JAVADOC, SPHINX_XREF } from './docs-pages.js';

// Documentation pages (issue 42): each generator's page kept whole, as its markup declares it.
const PAGE = 'https://docs.example.org/manual/page.html';
const parsed = (html: string) => expectParsed(parse(PAGE, html));

describe('main content of documentation pages', () => {
  it('a page of sibling sections keeps every section, the one-line ones too, in order', () => {
    const r = parsed(ASCIIDOC_MAN);
    expect(r.text).toMatch(
      /^SYNOPSIS git show .* DESCRIPTION Shows one or more objects .* OPTIONS <object>… The names/,
    );
    expect(r.text).toContain(
      '--abbrev-commit Instead of showing the full 40-byte hexadecimal commit object name',
    );
    expect(r.text).toMatch(/GIT Part of the git\(1\) suite$/);
    expect(r.text).not.toContain('Last updated');
  });

  it('a declared main block keeps its link-dense API tables and lists, the navigation and footer left out', () => {
    const r = parsed(JAVADOC);
    // The title block (div.header: a weak class word) is the page's title, not boilerplate.
    expect(r.text).toMatch(
      /^Package groovy\.sql Interface GroovyResultSet Represents an extent of objects\./,
    );
    expect(r.text).toContain('Method Summary Modifier and Type Method Object getAt(int index)');
    expect(r.text).toContain('void eachRow(Closure closure)');
    expect(r.text).toContain('GroovyObject Closure String Method Details getAt Supports integer-based');
    for (const out of ['Overview', 'Tree', 'Apache Software Foundation']) expect(r.text).not.toContain(out);
    expect(r.markdown).toContain('| Modifier and Type | Method |');
    expect(r.markdown).toContain('| `Object` | `getAt(int index)` |');
  });

  it('a cross-reference (a link around code around spans) keeps its name, in the text and as inline code', () => {
    const r = parsed(SPHINX_XREF);
    expect(r.text).toContain('The ast module helps Python applications');
    expect(r.text).toContain('class ast.Subscript A subscript, such as l[1]. See Slice for the slices.');
    expect(r.text).not.toContain('¶');
    expect(r.text).not.toContain('symtable');
    expect(r.markdown).toContain(
      'The [`ast`](https://docs.example.org/manual/page.html#module-ast) module helps',
    );
  });

  it('a table cell that is one link keeps its text (a Sphinx autosummary table)', () => {
    const row = (name: string, what: string) =>
      `<tr><td><p><a class="reference internal" href="api/${name}.html"><code class="xref py py-obj docutils literal notranslate">` +
      `<span class="pre">${name}</span></code></a></p></td><td><p>${what}</p></td></tr>`;
    const r = parsed(
      `<html><body><main role="main"><section><h1>Date offsets</h1>` +
        `<p>Date offsets are the increments used by date ranges: each adds a calendar rule to a timestamp.</p><table class="autosummary longtable table">` +
        row('DateOffset.freqstr', 'Return a string representing the frequency.') +
        row('DateOffset.kwds', 'Return a dict of extra parameters for the offset.') +
        `</table></section></main></body></html>`,
    );
    expect(r.text).toBe(
      'Date offsets Date offsets are the increments used by date ranges: each adds a calendar rule to a timestamp. ' +
        'DateOffset.freqstr Return a string representing the frequency. ' +
        'DateOffset.kwds Return a dict of extra parameters for the offset.',
    );
  });

  it('a rustdoc page keeps its title block and the sections under headings that link to themselves', () => {
    const r =
      parsed(`<html><body class="rustdoc fn"><nav class="sidebar"><a href="../index.html">std</a></nav><main>
<section id="main-content" class="content"><div class="main-heading"><h1 class="fqn"><span class="in-band">Function <a href="../index.html">std</a>::<a href="index.html">alloc</a>::<a class="fn" href="#">dealloc</a></span></h1>
<span class="out-of-band"><a class="srclink" href="../../src/alloc/alloc.rs.html#106">source</a></span></div>
<div class="docblock item-decl"><pre class="rust fn"><code>pub unsafe fn dealloc(ptr: <a class="primitive" href="../primitive.pointer.html">*mut </a><a class="primitive" href="../primitive.u8.html">u8</a>, layout: <a class="struct" href="struct.Layout.html">Layout</a>)</code></pre></div>
<details class="rustdoc-toggle top-doc" open><summary class="hideme"><span>Expand description</span></summary><div class="docblock">
<p>Deallocate memory with the global allocator, through the allocator registered with the global_allocator attribute.</p>
<h2 id="safety"><a href="#safety">Safety</a></h2><p>The caller must pass the layout the block was allocated with, as <a href="trait.GlobalAlloc.html#tymethod.dealloc"><code>GlobalAlloc::dealloc</code></a> says.</p></div></details>
</section></main></body></html>`);
    expect(r.text).toMatch(/^Function std::alloc::dealloc /);
    expect(r.text).toContain('Deallocate memory with the global allocator');
    expect(r.text).toContain('Safety The caller must pass the layout');
  });

  it('a contents page keeps its table of contents, as text and as a Markdown list of links', () => {
    const r = parsed(DOCBOOK_TOC);
    expect(r.text).toContain(
      '9.1. Logical Operators 9.2. Comparison Functions and Operators 9.3. Mathematical Functions and Operators',
    );
    expect(r.text).toContain('PostgreSQL provides a large number of functions');
    expect(r.text).not.toContain('Prev');
    expect(r.markdown).toContain(
      '[9.4. String Functions and Operators](https://docs.example.org/manual/functions-string.html)',
    );
  });
});

describe('furniture phrases match words, not names in code', () => {
  it('a short furniture line is furniture; a name that holds the phrase is not', () => {
    for (const line of [
      'Subscribe to our newsletter',
      'Log in',
      'Copyright 2024 Example Inc.',
      '© 2024 Example',
    ])
      expect(isFurniture(line), line).toBe(true);
    for (const name of [
      'class ast.Subscript',
      'FTP.login(user, passwd)',
      'Py_GetCopyright()',
      'NewsletterForm',
    ])
      expect(isFurniture(name), name).toBe(false);
  });

  it('an API entry named like furniture stays in the page', () => {
    const r = parsed(SPHINX_XREF);
    expect(r.text).toContain('class ast.Subscript');
  });
});

describe('Markdown of documentation', () => {
  it('a definition list reads as terms with their definitions under them', () => {
    const md = parsed(ASCIIDOC_MAN).markdown ?? '';
    expect(md).toContain(
      '--abbrev-commit\n:   Instead of showing the full 40-byte hexadecimal commit object name, show a prefix',
    );
    expect(md).toContain('## OPTIONS\n\n\\<object>…\n:   The names of objects to show');
  });

  it('a code fence carries the language the generator names (highlight-python3, language-*, sourceCode)', () => {
    expect(parsed(SPHINX_XREF).markdown).toContain('```python\ntree = ast.parse("x[1]")\n```');
    const md = (cls: string, where: 'pre' | 'div') =>
      parsed(
        `<html><body><main><h1>Example</h1><p>Run this code to see the example working in your own shell today.</p>` +
          (where === 'div'
            ? `<div class="${cls}"><pre>x = 1</pre></div>`
            : `<pre class="${cls}">x = 1</pre>`) +
          `</main></body></html>`,
      ).markdown;
    expect(md('sourceCode haskell', 'pre')).toContain('```haskell\nx = 1\n```');
    expect(md('brush: js; gutter: false', 'pre')).toContain('```js\nx = 1\n```');
    expect(md('lang-rust', 'pre')).toContain('```rust\nx = 1\n```');
    expect(md('highlight-default notranslate', 'div')).toContain('```\nx = 1\n```');
  });
});
