/** Small real-shaped documentation pages for the main-content tests: the markup of common generators. */

/** An asciidoc man page (git's): the sections are sibling div.sect1 blocks under #content. */
export const ASCIIDOC_MAN = `<html><head><title>git-show(1)</title></head><body class="manpage">
<div id="header"><h1>git-show(1) Manual Page</h1><h2>NAME</h2>
<div class="sectionbody"><p>git-show - Show various types of objects</p></div></div>
<div id="content">
<div class="sect1"><h2 id="_synopsis">SYNOPSIS</h2><div class="sectionbody"><div class="verseblock">
<pre class="content"><em>git show</em> [&lt;options&gt;] [&lt;object&gt;…]</pre></div></div></div>
<div class="sect1"><h2 id="_description">DESCRIPTION</h2><div class="sectionbody">
<div class="paragraph"><p>Shows one or more objects (blobs, trees, tags and commits).</p></div>
<div class="paragraph"><p>For commits it shows the log message and textual diff. It also presents the merge commit in a special format.</p></div></div></div>
<div class="sect1"><h2 id="_options">OPTIONS</h2><div class="sectionbody"><div class="dlist"><dl>
<dt class="hdlist1">&lt;object&gt;…</dt><dd><p>The names of objects to show (defaults to HEAD). For a more complete list of ways to spell object names, see the revisions page.</p></dd>
<dt class="hdlist1">--pretty[=&lt;format&gt;]</dt><dd><p>Pretty-print the contents of the commit logs in a given format, where format can be one of oneline, short, medium, full.</p></dd>
<dt class="hdlist1">--abbrev-commit</dt><dd><p>Instead of showing the full 40-byte hexadecimal commit object name, show a prefix that names the object uniquely.</p></dd>
</dl></div></div></div>
<div class="sect1"><h2 id="_git">GIT</h2><div class="sectionbody"><div class="paragraph"><p>Part of the <a href="git.html">git(1)</a> suite</p></div></div></div>
</div>
<div id="footer"><div id="footer-text">Last updated 2024-05-31 00:35:55 UTC</div></div>
</body></html>`;

/** A Javadoc class page: <main role="main"> whose summary tables are all links. */
export const JAVADOC = `<html><head><title>GroovyResultSet (Groovy 2.4 API)</title></head><body class="class-declaration-page">
<header role="banner" class="flex-header"><nav role="navigation"><div class="top-nav" id="navbar-top">
<ul id="navbar-top-firstrow" class="nav-list"><li><a href="../../index.html">Overview</a></li><li><a href="package-summary.html">Package</a></li><li class="nav-bar-cell1-rev">Class</li><li><a href="package-tree.html">Tree</a></li></ul></div></nav></header>
<div class="flex-content"><main role="main">
<div class="header"><div class="sub-title"><span class="package-label-in-type">Package</span>&nbsp;<a href="package-summary.html">groovy.sql</a></div>
<h1 title="Interface GroovyResultSet" class="title">Interface GroovyResultSet</h1></div>
<section class="class-description" id="class-description"><div class="block">Represents an extent of objects.</div></section>
<section class="summary"><ul class="summary-list"><li><section class="method-summary" id="method-summary"><h2>Method Summary</h2>
<table class="summary-table"><tr><th>Modifier and Type</th><th>Method</th></tr>
<tr><td><code><a href="../lang/GroovyObject.html">Object</a></code></td><td><code><a href="#getAt(int)">getAt</a>(int&nbsp;index)</code></td></tr>
<tr><td><code><a href="../lang/GroovyObject.html">Object</a></code></td><td><code><a href="#getAt(java.lang.String)">getAt</a>(<a href="../lang/String.html">String</a>&nbsp;columnName)</code></td></tr>
<tr><td><code>void</code></td><td><code><a href="#eachRow(groovy.lang.Closure)">eachRow</a>(<a href="../lang/Closure.html">Closure</a>&nbsp;closure)</code></td></tr>
</table>
<ul class="see-list"><li><a href="../lang/GroovyObject.html">GroovyObject</a></li><li><a href="../lang/Closure.html">Closure</a></li><li><a href="../lang/String.html">String</a></li></ul>
</section></li></ul></section>
<section class="details"><h2>Method Details</h2><section class="detail" id="getAt(int)"><h3>getAt</h3>
<div class="block">Supports integer-based subscript operators for accessing at numbered columns starting at zero. Negative indices are supported, they will count from the last column backwards.</div></section></section>
</main></div>
<footer role="contentinfo"><p class="legal-copy"><small>Copyright © 2003-2022 The Apache Software Foundation.</small></p></footer>
</body></html>`;

/** A Sphinx page: cross-references are links around code around spans. */
export const SPHINX_XREF = `<html><head><title>ast — Abstract Syntax Trees</title></head><body>
<div class="document"><div class="documentwrapper"><div class="bodywrapper"><div class="body" role="main">
<section id="module-ast"><h1>ast — Abstract Syntax Trees<a class="headerlink" href="#module-ast">¶</a></h1>
<p>The <a class="reference internal" href="#module-ast" title="ast: Abstract Syntax Tree classes."><code class="xref py py-mod docutils literal notranslate"><span class="pre">ast</span></code></a> module helps Python applications to process trees of the Python abstract syntax grammar.</p>
<dl class="py class"><dt class="sig sig-object py" id="ast.Subscript"><em class="property"><span class="pre">class</span> </em><span class="sig-prename descclassname"><span class="pre">ast.</span></span><span class="sig-name descname"><span class="pre">Subscript</span></span><a class="headerlink" href="#ast.Subscript">¶</a></dt>
<dd><p>A subscript, such as <code class="docutils literal notranslate"><span class="pre">l[1]</span></code>. See <a class="reference internal" href="#ast.Slice" title="ast.Slice"><code class="xref py py-class docutils literal notranslate"><span class="pre">Slice</span></code></a> for the slices.</p></dd></dl>
<div class="highlight-python3 notranslate"><div class="highlight"><pre><span></span><span class="n">tree</span> <span class="o">=</span> <span class="n">ast</span><span class="o">.</span><span class="n">parse</span><span class="p">(</span><span class="s2">"x[1]"</span><span class="p">)</span>
</pre></div></div>
</section></div></div></div></div>
<div class="sphinxsidebar" role="navigation" aria-label="main navigation"><h3>Previous topic</h3><p><a href="symtable.html">symtable</a></p></div>
<div class="footer">© Copyright 2001-2023, Python Software Foundation.</div>
</body></html>`;

/** A DocBook chapter page (PostgreSQL's): its table of contents is what the page says. */
export const DOCBOOK_TOC = `<html><head><title>Chapter 9. Functions and Operators</title></head><body id="docContent" class="container-fluid col-10">
<div class="navheader"><table width="100%" summary="Navigation header"><tr><th colspan="5" align="center">Chapter 9. Functions and Operators</th></tr>
<tr><td width="10%" align="left"><a accesskey="p" href="ddl-others.html" title="8.21. Pseudo-Types">Prev</a> </td><td width="10%" align="left"><a accesskey="u" href="sql.html" title="Part II. The SQL Language">Up</a></td>
<td width="60%" align="center">Part II. The SQL Language</td><td width="10%" align="right"><a accesskey="h" href="index.html" title="PostgreSQL 15 Documentation">Home</a></td><td width="10%" align="right"> <a accesskey="n" href="functions-logical.html" title="9.1. Logical Operators">Next</a></td></tr></table><hr></div>
<div class="chapter" id="FUNCTIONS"><div class="titlepage"><div><div><h2 class="title">Chapter 9. Functions and Operators</h2></div></div></div>
<div class="toc"><p><strong>Table of Contents</strong></p><dl class="toc">
<dt><span class="sect1"><a href="functions-logical.html">9.1. Logical Operators</a></span></dt>
<dt><span class="sect1"><a href="functions-comparison.html">9.2. Comparison Functions and Operators</a></span></dt>
<dt><span class="sect1"><a href="functions-math.html">9.3. Mathematical Functions and Operators</a></span></dt>
<dt><span class="sect1"><a href="functions-string.html">9.4. String Functions and Operators</a></span></dt>
<dt><span class="sect1"><a href="functions-binarystring.html">9.5. Binary String Functions and Operators</a></span></dt>
</dl></div>
<p>PostgreSQL provides a large number of functions and operators for the built-in data types.</p></div>
<div class="navfooter"><hr><table width="100%" summary="Navigation footer"><tr><td width="40%" align="left"><a accesskey="p" href="ddl-others.html">Prev</a> </td><td width="20%" align="center"><a accesskey="u" href="sql.html">Up</a></td><td width="40%" align="right"> <a accesskey="n" href="functions-logical.html">Next</a></td></tr></table></div>
</body></html>`;
