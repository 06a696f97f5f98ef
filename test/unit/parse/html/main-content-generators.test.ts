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

// rustdoc: #main-content in body.rustdoc, under a <main> that also holds the search bar; after the
// docs, the trait-implementation lists (short "Read more" summaries) and the auto-trait list.
const RUSTDOC_IMPLS = `<html><body class="rustdoc struct"><nav class="sidebar"><a href="../index.html">std</a><a href="#impl-Iterator">Iterator</a></nav>
<main><div class="width-limiter"><nav class="sub"><form class="search-form"><div class="search-container"><span></span></div></form></nav>
<section id="main-content" class="content"><div class="main-heading"><h1 class="fqn">Struct std::str::MatchIndices</h1></div>
<details class="rustdoc-toggle top-doc" open><div class="docblock"><p>${PROSE}</p><p>${PROSE}</p><p>${PROSE}</p><p>${PROSE}</p></div></details>
<h2 id="trait-implementations" class="small-section-header">Trait Implementations</h2><div id="trait-implementations-list">
<details class="rustdoc-toggle implementors-toggle" open><summary><section id="impl-Iterator" class="impl has-srclink"><h3 class="code-header in-band">impl Iterator for MatchIndices</h3></section></summary>
<div class="impl-items"><details class="rustdoc-toggle method-toggle" open><summary><section id="method.next" class="method trait-impl"><h4 class="code-header">fn <a href="trait.Iterator.html#tymethod.next" class="fnname">next</a>(&amp;mut self) -&gt; <a href="enum.Option.html">Option</a>&lt;usize&gt;</h4></section></summary>
<div class="docblock"><p>Advances the iterator and returns the next value. <a href="trait.Iterator.html#tymethod.next">Read more</a></p></div></details></div></details></div>
<h2 id="synthetic-implementations" class="small-section-header">Auto Trait Implementations</h2><div id="synthetic-implementations-list">
<section id="impl-Send" class="impl has-srclink"><h3 class="code-header in-band">impl Send for MatchIndices</h3></section>
<section id="impl-Sync" class="impl has-srclink"><h3 class="code-header in-band">impl Sync for MatchIndices</h3></section></div>
<h2 id="blanket-implementations" class="small-section-header">Blanket Implementations</h2><div id="blanket-implementations-list">
<details class="rustdoc-toggle implementors-toggle" open><summary><section id="impl-Any" class="impl has-srclink"><h3 class="code-header in-band">impl&lt;T&gt; Any for T</h3></section></summary>
<div class="impl-items"><details class="rustdoc-toggle method-toggle" open><summary><section id="method.type_id" class="method trait-impl"><h4 class="code-header">fn <a href="trait.Any.html#tymethod.type_id" class="fnname">type_id</a>(&amp;self) -&gt; TypeId</h4></section></summary>
<div class="docblock"><p>Gets the TypeId of self. <a href="trait.Any.html#tymethod.type_id">Read more</a></p></div></details></div></details></div>
</section></div></main></body></html>`;

// Doxygen: a short member-list page; the title sits in div.header (beside its summary links).
const DOXYGEN_SHORT = `<html><body><div id="top"><div id="projectname">libstdc++</div></div>
<div id="doc-content"><div class="header"><div class="summary"><a href="#pub-types">Public Types</a> | <a href="a1.html">List of all members</a></div>
<div class="headertitle"><div class="title">std::remove_all_extents&lt; _Tp &gt; Member List</div></div></div>
<div class="contents"><p>This is the complete list of members for <a class="el" href="a2.html">std::remove_all_extents&lt; _Tp &gt;</a>.</p>
<table class="directory"><tr class="even"><td class="entry"><a class="el" href="a2.html#t">type</a> typedef</td><td class="entry"><a class="el" href="a2.html">std::remove_all_extents</a></td></tr></table>
</div><div id="nav-path" class="navpath"><ul><li class="footer">Generated by doxygen</li></ul></div></div></body></html>`;

// Texinfo (makeinfo 6): a one-page manual, div#Top holding the chapters, each opened by its
// navigation bar (div.header with access-key links); its contents and index are link lists.
const TEXINFO = `<html><body lang="en"><h1 class="settitle">Information for Maintainers of GNU Software</h1>
<div class="top" id="Top"><div class="header"><p>Next: <a href="#Preface" accesskey="n" rel="next">About This Document</a> [<a href="#SEC_Contents">Contents</a>][<a href="#Index">Index</a>]</p></div>
<h1 class="top">Version</h1><p>${PROSE}</p>
<div class="Contents_element" id="SEC_Contents"><h2 class="contents-heading">Table of Contents</h2><div class="contents"><ul class="no-bullet">
<li><a href="#Preface">1 About This Document</a></li><li><a href="#Legal">6 Legal Matters</a><ul class="no-bullet"><li><a href="#Papers">6.1 Copyright Papers</a></li></ul></li></ul></div></div>
<div class="chapter" id="Preface"><div class="header"><p>Next: <a href="#Legal" accesskey="n" rel="next">Legal Matters</a>, Up: <a href="#Top" accesskey="u" rel="up">Version</a></p></div>
<h2 class="chapter">1 About This Document</h2><p>${PROSE}</p></div>
<div class="chapter" id="Legal"><div class="header"><p>Previous: <a href="#Preface" accesskey="p" rel="prev">About This Document</a></p></div>
<h2 class="chapter">6 Legal Matters</h2><h3 class="section">6.1 Copyright Papers</h3><p>Would you be willing to assign the copyright to the Free Software Foundation?</p><p>${PROSE}</p></div>
</div></body></html>`;

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
  it('rustdoc: #main-content in body.rustdoc is kept whole, its trait-implementation lists and "Read more" summaries too', () => {
    const r = parsed(RUSTDOC_IMPLS);
    expect(r.text).toMatch(/^Struct std::str::MatchIndices This paragraph/);
    expect(r.text).toContain(
      'impl Iterator for MatchIndices fn next(&mut self) -> Option<usize> Advances the iterator and returns the next value. Read more',
    );
    expect(r.text).toMatch(
      /impl<T> Any for T fn type_id\(&self\) -> TypeId Gets the TypeId of self\. Read more$/,
    );
  });

  it('rustdoc: the same markup without body.rustdoc is a web page: its <main> is trimmed after its bulk', () => {
    const r = parsed(RUSTDOC_IMPLS.replace('class="rustdoc struct"', ''));
    expect(r.text).not.toContain('Gets the TypeId of self');
  });

  it("Doxygen: a short page's title (div.header's div.title) is kept with div.contents, its summary links out", () => {
    const r = parsed(DOXYGEN_SHORT);
    expect(r.text).toMatch(/^std::remove_all_extents< _Tp > Member List This is the complete list/);
    expect(r.text).toContain('type typedef std::remove_all_extents');
    for (const out of ['Public Types', 'List of all members', 'Generated by'])
      expect(r.text).not.toContain(out);
  });

  it('Texinfo: the Top node is kept whole (contents, copyright sections), its navigation bars out', () => {
    const r = parsed(TEXINFO);
    expect(r.text).toMatch(/^Version This paragraph/);
    expect(r.text).toContain('Table of Contents 1 About This Document 6 Legal Matters 6.1 Copyright Papers');
    expect(r.text).toContain('6.1 Copyright Papers Would you be willing to assign the copyright');
    for (const out of ['Next:', 'Previous:', 'Up:']) expect(r.text).not.toContain(out);
  });
});
