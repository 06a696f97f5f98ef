import { describe, expect, it } from 'vitest';
import { expectParsed, parse } from '../support.js';

// The main blocks documentation generators declare in their markup (declared-main.ts, issue 42).
const PAGE = 'https://docs.example.org/manual/page.html';
const parsed = (html: string) => expectParsed(parse(PAGE, html));

const PROSE =
  'This paragraph explains what the function does, what it returns and when it fails, at length. ';

// Node's API docs: the History table sits in div.api_metadata ("meta") inside div#apicontent.
const NODE_API = `<html><body><div id="content"><div id="column2" class="interior"><ul><li><a href="a.html">Assert</a></li><li><a href="b.html">Buffer</a></li></ul></div>
<div id="column1" data-id="fs" class="interior"><header class="header"><h1>Node.js v18 documentation</h1></header>
<div id="apicontent"><h2>fs.readFile(path[, options], callback)</h2>
<div class="api_metadata"><details class="changelog"><summary>History</summary><table><tbody>
<tr><th>Version</th><th>Changes</th></tr><tr><td>v18.0.0</td><td>Passing an invalid callback now throws ERR_INVALID_ARG_TYPE.</td></tr>
</tbody></table></details></div>
<p>${PROSE}</p><p>${PROSE}</p></div></div></div></body></html>`;

// Doxygen: div.contents after div.header; member tables are rows of links.
const DOXYGEN = `<html><body><div id="top"><div id="projectname">libstdc++</div></div>
<div id="side-nav"><div id="nav-tree"><ul><li><a href="index.html">Main Page</a></li><li><a href="modules.html">Modules</a></li></ul></div></div>
<div id="doc-content"><div class="header"><div class="headertitle"><div class="title">experimental/filesystem File Reference</div></div></div>
<div class="contents"><table class="memberdecls"><tr class="heading"><td colspan="2"><h2 class="groupheader">Macros</h2></td></tr>
<tr class="memitem"><td class="memItemLeft">#define </td><td class="memItemRight"><a class="el" href="a.html#x">__cpp_lib_experimental_filesystem</a></td></tr>
<tr class="memitem"><td class="memItemLeft">#define </td><td class="memItemRight"><a class="el" href="a.html#y">_GLIBCXX_EXPERIMENTAL_FILESYSTEM</a></td></tr></table>
<a name="details" id="details"></a><h2 class="groupheader">Detailed Description</h2><div class="textblock"><p>This is a TS C++ Library header.</p><p>${PROSE}</p><p>${PROSE}</p></div>
</div><div class="footer"><a href="https://www.doxygen.org/">doxygen</a></div></div></body></html>`;

// asciidoc: div#content in body.article, sections whose ids are boilerplate words.
const ASCIIDOC = `<html><body class="article"><div id="header"><h1>api-simple-ipc</h1></div>
<div id="content"><div id="preamble"><div class="sectionbody"><div class="paragraph"><p>${PROSE}</p></div></div></div>
<div class="sect1"><h2 id="_comparison">Comparison with sub-process model</h2><div class="sectionbody"><div class="paragraph"><p>The LFS-style sub-process model starts a helper.</p></div></div></div>
<div class="sect1" id="comments"><h2 id="_comments">Hash lines</h2><div class="sectionbody"><div class="paragraph"><p>Lines starting with a hash are comments.</p></div></div></div>
<div class="sect1"><h2 id="_summary">Summary</h2><div class="sectionbody"><div class="paragraph"><p>${PROSE}</p></div></div></div>
</div><div id="footnotes"><hr></div><div id="footer"><div id="footer-text">Last updated 2024-01-01</div></div></body></html>`;

// DocBook XSL: a division straight in body, opened by its titlepage, between navheader and navfooter.
const DOCBOOK = `<html><body><div class="navheader"><table><tr><td><a href="prev.html">Prev</a></td><td><a href="up.html">Up</a></td><td><a href="next.html">Next</a></td></tr></table></div>
<div class="sect1" id="LIBPQ-EVENTS"><div class="titlepage"><div><div><h2 class="title">34.14. Event System</h2></div></div></div>
<div class="toc"><dl class="toc"><dt><span class="sect2"><a href="#T">34.14.1. Event Types</a></span></dt><dt><span class="sect2"><a href="#P">34.14.2. Event Callback Procedure</a></span></dt></dl></div>
<p>libpq's event system is designed to notify registered event handlers about interesting libpq events.</p>
<div class="sect2" id="T"><div class="titlepage"><div><div><h3 class="title">34.14.1. Event Types</h3></div></div></div><p>${PROSE}</p></div>
<div class="sect2" id="P"><div class="titlepage"><div><div><h3 class="title">34.14.2. Event Callback Procedure</h3></div></div></div><p>${PROSE}</p></div>
</div><div class="navfooter"><table><tr><td><a href="prev.html">Prev</a></td><td><a href="index.html">Home</a></td></tr></table></div></body></html>`;

// rustdoc: syntax-highlighted code whose comments are span.comment, inside <main>.
const CODE_COMMENT = `<html><body><nav class="sidebar"><a href="index.html">std</a></nav><main><div id="main-content">
<h1>Struct std::io::Stderr</h1><p>${PROSE}</p>
<pre class="rust"><code><span class="kw">let</span> e = io::stderr(); <span class="comment">// lock it for the whole write</span>
e.lock();</code></pre><p>${PROSE}</p></div></main></body></html>`;

// rustdoc: each item heading carries "1.0.0 · source" in span.rightside.
const RUSTDOC_RIGHTSIDE = `<html><body><main><div id="main-content"><div class="main-heading"><h1 class="fqn">Struct std::sync::RwLockReadGuard <button id="copy-path">Copy item path</button></h1><span class="out-of-band"><span class="since">1.0.0</span> · <a class="srclink" href="../src/rwlock.rs.html">source</a></span></div>
<p>${PROSE}</p><h2 id="trait-implementations" class="small-section-header">Trait Implementations</h2>
<section id="impl-Debug" class="impl has-srclink"><span class="rightside"><span class="since">1.16.0</span> · <a class="srclink" href="../src/rwlock.rs.html#1">source</a></span><h3 class="code-header in-band">impl Debug for RwLockReadGuard</h3></section>
<div class="docblock"><p>Formats the value using the given formatter.</p></div><p>${PROSE}</p></div></main></body></html>`;

describe('main blocks declared by documentation generators', () => {
  it('Node: the History table (div.api_metadata) inside div#apicontent is kept, the menu left out', () => {
    const r = parsed(NODE_API);
    expect(r.text).toContain('fs.readFile(path[, options], callback) History Version Changes v18.0.0');
    expect(r.text).toContain('Passing an invalid callback now throws ERR_INVALID_ARG_TYPE.');
    expect(r.text).not.toContain('Buffer');
  });

  it('Doxygen: div.contents after div.header keeps its member tables of links, the tree and footer out', () => {
    const r = parsed(DOXYGEN);
    expect(r.text).toContain('Macros #define __cpp_lib_experimental_filesystem');
    expect(r.text).toContain('#define _GLIBCXX_EXPERIMENTAL_FILESYSTEM');
    expect(r.text).toContain('Detailed Description This is a TS C++ Library header.');
    for (const out of ['Main Page', 'Modules', 'doxygen']) expect(r.text).not.toContain(out);
  });

  it('asciidoc: every section of #content is kept, one whose id is a boilerplate word too', () => {
    const r = parsed(ASCIIDOC);
    expect(r.text).toContain('Comparison with sub-process model The LFS-style sub-process model');
    expect(r.text).toContain('Hash lines Lines starting with a hash are comments.');
    expect(r.text).toMatch(/Summary This paragraph explains/);
    expect(r.text).not.toContain('Last updated');
  });

  it('DocBook: the division in body is kept whole (its title, contents and sections), the navigation out', () => {
    const r = parsed(DOCBOOK);
    expect(r.text).toMatch(
      /^34\.14\. Event System 34\.14\.1\. Event Types 34\.14\.2\. Event Callback Procedure libpq's/,
    );
    expect(r.text).toContain('34.14.2. Event Callback Procedure This paragraph');
    for (const out of ['Prev', 'Next', 'Home']) expect(r.text).not.toContain(out);
  });

  it('code keeps its comments whatever their highlighting class says (span.comment)', () => {
    const r = parsed(CODE_COMMENT);
    expect(r.text).toContain('// lock it for the whole write');
  });

  it("rustdoc: an item's version and source link (span.rightside, span.out-of-band) are left out, the item kept", () => {
    const r = parsed(RUSTDOC_RIGHTSIDE);
    expect(r.text).toMatch(/^Struct std::sync::RwLockReadGuard This paragraph/);
    expect(r.text).toContain('Trait Implementations impl Debug for RwLockReadGuard Formats the value');
    for (const out of ['source', '1.16.0', 'Copy item path']) expect(r.text).not.toContain(out);
  });

  it('a paragraph that is one code link (a cross-reference) is kept outside a <main>', () => {
    const html = `<html><body><div class="menu"><a href="/">Home</a></div><div class="docblock"><p>${PROSE}</p>
<p>See <a href="trait.GlobalAlloc.html#tymethod.dealloc"><code>GlobalAlloc::dealloc</code></a>.</p><p>${PROSE}</p>
<p><a href="next.html">Next page</a></p></div></body></html>`;
    const r = parsed(html);
    expect(r.text).toContain('See GlobalAlloc::dealloc.');
    expect(r.text).not.toContain('Next page');
  });
});
