/** Small real-shaped pages for the main-content tests: the markup patterns of common sites. */

const menu = (cls: string) =>
  `<ul class="${cls}"><li><a href="/">Home</a></li><li><a href="/news/">News</a></li>` +
  `<li><a href="/sport/">Sport</a></li><li><a href="/about/">About us</a></li></ul>`;

/** A blog post: site header and menu, the article, a sidebar, reader comments, a footer. */
export const ARTICLE = `<!DOCTYPE html><html lang="en"><head><title>Spring in the city</title></head><body>
<header class="site-header"><a href="/" class="logo">City Blog</a><nav class="main-nav">${menu('menu')}</nav></header>
<div id="page"><div id="content" class="site-content">
<article class="post"><h1>Spring arrives in the city</h1>
<div class="entry-meta">Posted on <time>May 3, 2024</time> by <a href="/author/ann">Ann</a></div>
<div class="entry-content">
<p>The first warm week brought the parks back to life, and the river walk was full of people on bikes.</p>
<p>City gardeners planted <strong>twelve thousand</strong> tulips along the boulevard this year, twice as many as last spring.</p>
<div class="sharedaddy"><h3>Share this:</h3><a href="https://twitter.com/share">Twitter</a> <a href="https://facebook.com/share">Facebook</a></div>
</div></article>
<div id="comments" class="comments-area"><h2>3 comments</h2><ol class="comment-list"><li class="comment"><p>Lovely photos, thanks for the walk!</p></li></ol></div>
</div>
<aside id="secondary" class="widget-area"><h2>Archives</h2>${menu('archive')}<p>Subscribe to our newsletter for weekly news from the city.</p></aside>
</div>
<footer class="site-footer"><p>© 2024 City Blog. Imprint. Privacy policy.</p></footer>
</body></html>`;

/** A news item after a site menu printed twice: the desktop menu and a hidden mobile copy. */
export const MOBILE_MENU = `<html><body>
<div class="mobile-menu" hidden><ul><li><a href="/a">Council</a></li><li><a href="/b">Transport</a></li><li><a href="/c">Culture</a></li></ul></div>
<div class="top"><ul><li><a href="/a">Council</a></li><li><a href="/b">Transport</a></li><li><a href="/c">Culture</a></li></ul></div>
<div class="offcanvas-menu"><ul><li><a href="/a">Council</a></li><li><a href="/b">Transport</a></li><li><a href="/c">Culture</a></li></ul></div>
<div class="news-item"><h1>New bus line from Monday</h1>
<p>From Monday the new line 42 links the station with the hospital every ten minutes, the transport office said.</p>
<p>Tickets cost the same as on every other line, and the old stops stay in service during the works.</p></div>
</body></html>`;

/** A Sphinx documentation page: related bar, sidebar and footer marked by roles and classes. */
export const SPHINX = `<html><head><title>Installing — Demo 1.0 documentation</title></head><body>
<div class="related" role="navigation" aria-label="related navigation"><h3>Navigation</h3><ul>
<li class="right"><a href="genindex.html">index</a></li><li class="right"><a href="py-modindex.html">modules</a> |</li>
<li class="right"><a href="usage.html">next</a> |</li><li><a href="index.html">Demo 1.0 documentation</a> »</li></ul></div>
<div class="document"><div class="documentwrapper"><div class="bodywrapper"><div class="body" role="main">
<section id="installing"><h1>Installing<a class="headerlink" href="#installing" title="Link to this heading">¶</a></h1>
<p>Install the package with pip, preferably in a virtual environment:</p>
<div class="highlight-console notranslate"><div class="highlight"><pre><span></span>$ python -m venv .venv
$ .venv/bin/pip install demo
</pre></div></div>
<p>Then check the version with <code class="docutils literal notranslate"><span class="pre">demo</span> <span class="pre">--version</span></code>.</p>
</section></div></div></div>
<div class="sphinxsidebar" role="navigation" aria-label="main navigation"><div class="sphinxsidebarwrapper">
<h3><a href="index.html">Table of Contents</a></h3><ul><li><a class="reference internal" href="#">Installing</a></li></ul>
<h4>Previous topic</h4><p class="topless"><a href="index.html" title="previous chapter">Welcome</a></p>
<h4>Next topic</h4><p class="topless"><a href="usage.html" title="next chapter">Usage</a></p>
<div role="note" aria-label="source link"><h3>This Page</h3><ul class="this-page-menu"><li><a href="_sources/install.rst.txt" rel="nofollow">Show Source</a></li></ul></div>
</div></div></div>
<div class="footer" role="contentinfo">© Copyright 2024, Demo team. Created using <a href="https://www.sphinx-doc.org/">Sphinx</a> 7.2.</div>
</body></html>`;

/** A home page listing articles: teasers that are links, no article of its own. */
export const HOME = `<html><body>
<header><nav>${menu('nav')}</nav></header>
<main><h1>Latest news</h1>
<div class="teaser"><h2><a href="/2024/05/bus-line">New bus line from Monday</a></h2><p>The line 42 links the station with the hospital.</p></div>
<div class="teaser"><h2><a href="/2024/05/tulips">Twelve thousand tulips</a></h2><p>The boulevard is in bloom again.</p></div>
<div class="teaser"><h2><a href="/2024/05/library">Library opens on Sundays</a></h2><p>From June, every Sunday afternoon.</p></div>
</main>
<footer><p>© 2024 City News</p></footer>
</body></html>`;

/** An old-style page: no main, no article, no classes; all in body. */
export const BODY_ONLY = `<html><body>
<h1>Opening hours</h1>
<p>The museum is open from Tuesday to Sunday, from ten in the morning to six in the evening.</p>
<p>On public holidays it closes at four. Entry is free on the first Sunday of the month.</p>
</body></html>`;

/** Structure for the Markdown: a table, nested lists, indented code, relative links and images. */
export const STRUCTURE = `<html><head><base href="https://docs.example.org/guide/"></head><body><article>
<h2>Options</h2>
<p>Read the <a href="../intro.html">introduction</a> first, then <em>configure</em> the <b>crawler</b>: see <img src="img/flow.png" alt="the flow">.</p>
<table><thead><tr><th>Key</th><th>Default</th></tr></thead><tbody><tr><td>threads</td><td>4</td></tr><tr><td>delay | ms</td><td>1000</td></tr></tbody></table>
<ul><li>Fetching<ul><li>HTTP/1.1</li><li>HTTP/2</li></ul></li><li>Parsing</li></ul>
<ol><li>Install</li><li>Run</li></ol>
<pre><code class="language-python">def main():
    if ready:
        crawl()
</code></pre>
<blockquote><p>Crawl politely.</p></blockquote>
</article></body></html>`;
