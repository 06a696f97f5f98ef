import { describe, expect, it } from 'vitest';
import { expectParsed, parse } from '../support.js';

// One test per rule of the main-content extractor (src/parse/html/main-content.ts), each on a small
// page with the markup of the sites the rule was written for.
const PAGE = 'https://www.example.com/news/item.html';
const text = (html: string) => expectParsed(parse(PAGE, html)).text;

describe('main content: page structure', () => {
  it('a page without </head> nor <body> keeps its text: the first element not of a head ends the head', () => {
    const html =
      '<!DOCTYPE html><html><head><meta charset="UTF-8"><title>Wages</title>' +
      '<script>var a = 1;</script><noscript><div><img src="/pixel.gif"></div></noscript><br>' +
      '<div class="article"><h1>Good wages are not enough</h1>' +
      '<p>The business centre invited employers to talk about finding staff while skilled workers are scarce.</p>' +
      '<p>The head of personnel of the best-liked employer in the country took part in the round.</p></div></html>';
    expect(text(html)).toBe(
      'Good wages are not enough The business centre invited employers to talk about finding staff while ' +
        'skilled workers are scarce. The head of personnel of the best-liked employer in the country took part in the round.',
    );
  });
});

describe('main content: what joins the chosen block', () => {
  it('a declared article body keeps the title and the lead written before it, not the blocks after it', () => {
    const html = `<html><body><div class="menu"><a href="/">Home</a> <a href="/news">News</a></div>
<div class="news news-single"><div class="article">
<h3>A new tower for the zoo</h3>
<div class="teaser-text"><p>From next year, visitors driving in or out of the car park will pass under a new wooden lookout tower.</p></div>
<div class="news-text-wrap" itemprop="articleBody">
<p>The tower stands forty metres tall beside the north gate and gives a view over the whole park.</p>
<p>Building starts in spring; the gate stays open while the work goes on, the zoo says, and the car park too.</p></div>
<div class="news-backlink-wrap"><p>Opening hours, prices and directions for your visit to the zoo and aquarium.</p></div>
</div></div></body></html>`;
    expect(text(html)).toBe(
      'A new tower for the zoo From next year, visitors driving in or out of the car park will pass under a new wooden lookout tower. ' +
        'The tower stands forty metres tall beside the north gate and gives a view over the whole park. ' +
        'Building starts in spring; the gate stays open while the work goes on, the zoo says, and the car park too.',
    );
  });
});

describe('main content: boilerplate named by class', () => {
  it('copyright lines, post metadata, tables of contents, embeds, overlays and hidden copies are left out', () => {
    const html = `<html><body><div id="content"><div class="post">
<h1>Rebuilding the old mill</h1>
<div id="toc_container"><p class="toc_title">Contents</p><ul class="toc_list"><li><a href="#a">The roof</a></li><li><a href="#b">The wheel</a></li></ul></div>
<div class="entry">
<p>The roof of the old mill was replaced this summer with oak beams cut in the valley, as in 1820.</p>
<p>Next year the wheel turns again: the association has raised the money to rebuild its paddles.</p>
<div class="embed-responsive"><p>Watch the video of the works on our channel, with comments from the carpenters.</p></div>
<div class="hide-desktop"><p>Read this article in the app for offline reading and notifications.</p></div>
<div class="overlay-box"><p>Sign in to save this article to your reading list and read it later.</p></div>
<p class="postmetadata alt">This entry was posted on Monday and is filed under Heritage, Valley.</p>
</div>
<div class="article-copyright"><p>© 2024 Valley News. Reproduction only with permission.</p></div>
</div></div></body></html>`;
    expect(text(html)).toBe(
      'Rebuilding the old mill The roof of the old mill was replaced this summer with oak beams cut in the ' +
        'valley, as in 1820. Next year the wheel turns again: the association has raised the money to rebuild its paddles.',
    );
  });
});

describe('main content: teasers', () => {
  const article = (teasers: string) => `<html><body><main><article>
<h1>Storm closes the coast road</h1>
<p>The coast road between the harbour and the lighthouse stays closed until Friday after the storm.</p>
<p>Crews are clearing fallen trees and checking the sea wall, which lost several stones overnight.</p>
${teasers}</article></main></body></html>`;
  const teaser = (title: string, excerpt: string) =>
    `<div class="box"><h3><a href="/news/${title.length}">${title}</a></h3><p>${excerpt}</p></div>`;
  const kept =
    'Storm closes the coast road The coast road between the harbour and the lighthouse stays closed until ' +
    'Friday after the storm. Crews are clearing fallen trees and checking the sea wall, which lost several stones overnight.';

  it('small blocks under a title that is all link (related articles) are left out of an article', () => {
    const html = article(
      `<div class="more"><h2>More from the region</h2>${teaser('Ferry timetable changes', 'From Monday the ferry leaves twenty minutes earlier on weekdays.')}` +
        `${teaser('New playground opens', 'Children tested the slides and the climbing wall on Saturday.')}</div>`,
    );
    expect(text(html)).toBe(kept);
  });

  it('a heading with a link inside a sentence, or a long section under a linked title, is kept', () => {
    const section =
      '<section><h2><a href="/lighthouse">The lighthouse</a></h2><p>' +
      'The lighthouse keeper, who has watched the coast for thirty years, says the storm was the worst since 1990. '.repeat(
        6,
      ) +
      '</p></section>';
    const r = text(article(section));
    expect(r).toContain('The lighthouse The lighthouse keeper');
  });

  it('on a listing page (the whole body is the content) teasers stay', () => {
    const html = `<html><body>${teaser('Ferry timetable changes', 'From Monday the ferry leaves twenty minutes earlier.')}${teaser('New playground opens', 'Children tested the slides on Saturday.')}</body></html>`;
    expect(text(html)).toContain('Ferry timetable changes From Monday the ferry');
  });
});

describe('main content: forms', () => {
  const article =
    '<h1>Night trains are back</h1><p>The night train to the coast runs again from June, three times a week, with sleeping cars.</p>' +
    '<p>Tickets go on sale next month; a couchette costs less than a hotel room at the coast in summer.</p>';

  it('a comment or sign-up form is left out', () => {
    const html = `<html><body><div class="story">${article}
<form action="/comment" method="post"><fieldset><legend>Who are you?</legend><label>Your name</label><input name="n"></fieldset>
<p class="explanation">To make paragraphs, just leave empty lines between them.</p><button>Send</button></form>
</div></body></html>`;
    expect(text(html)).toBe(
      'Night trains are back The night train to the coast runs again from June, three times a week, with sleeping cars. ' +
        'Tickets go on sale next month; a couchette costs less than a hotel room at the coast in summer.',
    );
  });

  it('a page wrapped whole in a form (ASP.NET) keeps its content', () => {
    const html = `<html><body><form id="aspnetForm" method="post" action="./page.aspx"><div class="story">${article}</div></form></body></html>`;
    expect(text(html)).toContain('Night trains are back The night train to the coast runs again');
  });
});

describe('main content: class words', () => {
  it('a wrapper named for its sidebar that holds many paragraphs is content, even with many links in them', () => {
    const para = (i: number) =>
      `<p>Paragraph ${i} of the report says what the committee heard (<a href="/source-${i}">the full statement of witness ${i}</a>).</p>`;
    const html =
      '<html><body><nav><a href="/">Home</a></nav>' +
      `<div class="content-with-sidebar-wrp"><h1>The committee's report</h1>${Array.from({ length: 9 }, (_, i) => para(i + 1)).join('')}` +
      '<aside class="sidebar"><a href="/a">Most read one</a> <a href="/b">Most read two</a></aside></div>' +
      '<footer>Contact and imprint</footer></body></html>';
    const t = text(html);
    expect(t).toContain("The committee's report");
    expect(t).toContain('Paragraph 1 of the report');
    expect(t).toContain('Paragraph 9 of the report');
    expect(t).not.toContain('Most read');
    expect(t).not.toContain('imprint');
  });
});
