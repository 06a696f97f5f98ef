import { describe, expect, it } from 'vitest';
import { expectParsed, parse } from '../support.js';

// The chosen block against the rest of the page: excerpts of other pages (src/parse/html/excerpt.ts)
// and the share of the page's text it must hold (src/parse/html/prose-share.ts).
const PAGE = 'https://www.example.com/news/deportees-return-home/';
const text = (html: string) => expectParsed(parse(PAGE, html)).text;

const ARTICLE = [
  'NEW DELHI: Their dream shattered and their savings gone, nearly 150 people returned home on Wednesday.',
  'As they stepped outside the airport, one after the other, they looked tired and said little to the reporters.',
  'Most of them had paid agents large sums to reach the border, the officials said, and had been held for months.',
  'The families waiting outside had not known for weeks where they were or when they would come back home.',
];
const article = `<div class="main-article-content"><div class="shortcode-content">${ARTICLE.map((p) => `<p>${p}</p>`).join('')}</div></div>`;

/** A "breaking news" ticker: titles linked, each with an excerpt cut with an ellipsis. */
const ticker = (n: number) =>
  `<div class="breaking-news"><b>Breaking News</b><div class="breaking-block"><ul>${Array.from(
    { length: n },
    (_, i) =>
      `<li><a href="/story-${i}">Story number ${i} about the state elections and the markets</a>` +
      `<span>WASHINGTON: Expressing concern over the exercise, an independent bipartisan entity has said that close to two million residents of the state, number ${i}, may soon...</span></li>`,
  ).join('')}</ul></div></div>`;

describe('main content: excerpts of other pages', () => {
  it('a ticker of excerpts cut with an ellipsis, printed twice, is not the content; the article is', () => {
    const html = `<html><body><div class="content"><div class="main-content-left">${ticker(10)}${article}</div></div>
<div class="bottom"><div class="wrapper">${ticker(10)}</div></div></body></html>`;
    expect(text(html)).toBe(ARTICLE.join(' '));
  });
});

describe('main content: a small article among large link lists', () => {
  it('is chosen when it holds most of the text out of links, however many characters the link lists have', () => {
    const links = (label: string, n: number) =>
      `<ul class="featured">${Array.from({ length: n }, (_, i) => `<li><a href="/${label}/${i}">${label} story number ${i}: the new laptop with the old keyboard is here</a></li>`).join('')}</ul>`;
    const html = `<html><body><div id="main"><div id="content"><div class="article"><h1>A new laptop with a scissor keyboard next year</h1>
<div class="content">${ARTICLE.map((p) => `<p>${p}</p>`).join('')}</div></div></div>
<div id="right">${links('guide', 12)}${links('featured', 12)}</div></div>
<div id="bottom">${links('other-sites', 12)}</div></body></html>`;
    expect(text(html)).toBe(`A new laptop with a scissor keyboard next year ${ARTICLE.join(' ')}`);
  });

  it('a home page of teasers with summaries still keeps all of them', () => {
    const teasers = Array.from(
      { length: 8 },
      (_, i) =>
        `<div class="teaser"><h2><a href="/news/${i}">Headline number ${i} of the day</a></h2><p>The summary of story ${i}, a few lines on what happened in the town today and why it matters.</p></div>`,
    ).join('');
    const out = text(`<html><body><div class="front">${teasers}</div></body></html>`);
    expect(out).toContain('Headline number 0 of the day');
    expect(out).toContain('The summary of story 7');
  });
});

describe('main content: paragraphs written without <p>', () => {
  it('text runs between <br>s in a div score as its paragraphs and win over link lists', () => {
    const runs = ARTICLE.join('\n<br> <br>');
    const links = (n: number) =>
      `<ul>${Array.from({ length: n }, (_, i) => `<li><div class="text"><a href="/guide/${i}">Buyer's guide number ${i}: which laptop to buy this month, and which to wait for</a></div></li>`).join('')}</ul>`;
    const html = `<html><body><div id="content"><div class="article"><h1 class="title">A new laptop next year</h1>
<div class="content">${runs}</div></div></div>
<div id="right"><div id="guide">${links(8)}</div><div class="box">${links(8)}</div></div></body></html>`;
    expect(text(html).replace(/\s+/g, ' ')).toBe(`A new laptop next year ${ARTICLE.join(' ')}`);
  });

  it('a single line of text in a div is not a paragraph (a byline, a layout in divs)', () => {
    const lines = ARTICLE.map((p) => `<div><span>${p}</span></div>`).join('');
    const html = `<html><body><div class="post"><div class="post-body"><p>${ARTICLE[0]}</p>
<div class="reader">${lines}</div></div></div><div class="side"><a href="/a">Home</a> <a href="/b">More</a></div></body></html>`;
    expect(text(html)).toBe(`${ARTICLE[0]} ${ARTICLE.join(' ')}`);
  });
});
