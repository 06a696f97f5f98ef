import { describe, expect, it } from 'vitest';
import { expectParsed, parse } from '../support.js';

// The shapes of the modern web (issue 42, point 6), each on a small page with the markup of the
// software or sites that serve it: WCXB's pages (scripts/bench/content-web.mjs) showed each one.
const PAGE = 'https://forum.example.org/t/which-telescope/1555';
const text = (html: string) => expectParsed(parse(PAGE, html)).text;

const POST_1 =
  'I am new to astronomy and would like a first telescope for the planets and the moon, under 400 dollars.';
const POST_2 =
  'A six inch Dobsonian is the usual answer: simple to set up, a large aperture for the price, no tracking to learn.';
const POST_3 = 'Push to the main branch and the site is built and served from every region within a minute.';

describe('main content: what a script would show', () => {
  it('a thread served inside <noscript> (Discourse) is read when the rest of the body holds no text', () => {
    const html = `<html><head><noscript><link rel="stylesheet" href="/no-js.css"></noscript></head><body>
<noscript><p>Please enable JavaScript.</p></noscript>
<section id="main"></section>
<noscript data-path="/t/which-telescope/1555"><header><a href="/">Astronomy forum</a></header>
<div id="main-outlet" class="wrap" role="main"><h1>Best first telescope?</h1>
<div class="topic-body crawler-post"><div class="post" itemprop="text"><p>${POST_1}</p></div></div>
<div class="topic-body crawler-post"><div class="post" itemprop="text"><p>${POST_2}</p></div></div>
</div><footer class="noscript-footer-nav"><a href="/privacy">Privacy</a></footer></noscript>
</body></html>`;
    expect(text(html)).toBe(`Best first telescope? ${POST_1} ${POST_2}`);
  });

  it("a <noscript> beside the page's own text stays unread (a pixel, a 'turn on JavaScript' line)", () => {
    const html = `<html><body><div class="post"><h1>Best first telescope?</h1><p>${POST_1}</p><p>${POST_2}</p></div>
<noscript><div>This site works best with JavaScript turned on, which your browser has turned off.</div></noscript>
</body></html>`;
    expect(text(html)).toBe(`Best first telescope? ${POST_1} ${POST_2}`);
  });

  it('a body streamed in <div hidden> chunks (React server rendering) is read when nothing else is shown', () => {
    const html = `<html><body><div id="root"><!--$?--><template id="B:0"></template><p>Loading…</p><!--/$--></div>
<div hidden id="S:0"><main><h1>Deploy in minutes</h1><p>${POST_1.replace('astronomy', 'hosting')}</p>
<p>${POST_2.replace('Dobsonian', 'server')}</p><p>${POST_3}</p></main></div>
<div hidden id="S:1"><ul><li><a href="/a">Docs</a></li></ul></div>
<script>$RC("B:0","S:0")</script></body></html>`;
    expect(text(html)).toBe(
      `Deploy in minutes ${POST_1.replace('astronomy', 'hosting')} ${POST_2.replace('Dobsonian', 'server')} ${POST_3}`,
    );
  });

  it('a hidden mobile menu and a hidden paragraph beside the shown article stay hidden', () => {
    const html = `<html><body><div class="menu-mobile" style="display:none"><a href="/a">Shop</a> <a href="/b">Blog</a></div>
<article><h1>Best first telescope?</h1><p>${POST_1}</p><p hidden>An old draft of this page that the editors hid from view.</p>
<p>${POST_2}</p></article></body></html>`;
    expect(text(html)).toBe(`Best first telescope? ${POST_1} ${POST_2}`);
  });
});

describe('main content: class and id words are hints, not verdicts', () => {
  it('a block named for what it lacks ("no-sidebars") is not a sidebar', () => {
    const html = `<html><body><ul class="menu"><li><a href="/">Home</a></li><li><a href="/blog">Blog</a></li></ul>
<div class="content-area no-sidebars"><h1>Best first telescope?</h1><p>${POST_1}</p><p>${POST_2}</p></div>
<div class="footer-links"><a href="/privacy">Privacy</a></div></body></html>`;
    expect(text(html)).toBe(`Best first telescope? ${POST_1} ${POST_2}`);
  });

  it('a thread whose posts are named comments (#comments, div.comment) keeps its posts', () => {
    const html = `<html><body><div class="header-bar"><a href="/">Forum</a> <a href="/latest">Latest</a></div>
<h1>Best first telescope?</h1>
<div id="comments"><div class="comment" id="elComment_1"><p>${POST_1}</p></div>
<div class="comment" id="elComment_2"><p>${POST_2}</p></div>
<div class="comment" id="elComment_3"><p>${POST_3}</p></div></div>
<div class="footer"><p>Powered by forum software. All rights reserved.</p></div></body></html>`;
    expect(text(html)).toBe(`Best first telescope? ${POST_1} ${POST_2} ${POST_3}`);
  });

  it('an article beside a longer comment thread of its own keeps the comments out', () => {
    const html = `<html><body><article><h1>Best first telescope?</h1><p>${POST_1}</p><p>${POST_2}</p></article>
<div id="comments"><div class="comment"><p>${POST_3}</p></div><div class="comment"><p>${POST_3}</p></div>
<div class="comment"><p>${POST_3}</p></div></div></body></html>`;
    expect(text(html)).toBe(`Best first telescope? ${POST_1} ${POST_2}`);
  });
});

describe('main content: parsed as a browser does', () => {
  it('an article after a stray </body></html> of the template is still in the body', () => {
    const html = `<!DOCTYPE html><html><head><title>Best first telescope?</title></head><body>
<div class="top-bar"><a href="/">Home</a> <a href="/blog">Blog</a></div>
<div class="promo-strip"></div></body></html>
<div class="blog-post"><h1>Best first telescope?</h1><p>${POST_1}</p><p>${POST_2}</p><p>${POST_3}</p></div>
<div class="site-footer"><a href="/privacy">Privacy</a></div>
</body></html>`;
    expect(text(html)).toBe(`Best first telescope? ${POST_1} ${POST_2} ${POST_3}`);
  });
});
