import { describe, expect, it } from 'vitest';
import { expectParsed, parse } from '../support.js';

// Which of several <article>s is the page's content (src/parse/html/article-pick.ts, title-match.ts).
const PAGE = 'https://www.example.com/2019/stadia-reviews';
const text = (html: string) => expectParsed(parse(PAGE, html)).text;

const STORY =
  '<p>Stadia, the streaming game service, launches today. Here is what the first reviews say about it.</p>' +
  '<p>The service promises games in 4K on any screen, with no console and no download at all.</p>' +
  '<p>Reviewers found the picture good on a fast line and the choice of games thin for the price.</p>';
const STORY_TEXT =
  'Stadia, the streaming game service, launches today. Here is what the first reviews say about it. ' +
  'The service promises games in 4K on any screen, with no console and no download at all. ' +
  'Reviewers found the picture good on a fast line and the choice of games thin for the price.';

/** A grid of story cards, each an <article>, more text together than the story. */
const cards = (n: number) =>
  Array.from(
    { length: n },
    (_, i) =>
      `<div class="col"><article class="card"><h2><a href="/story/${i}">Card story number ${i} about reindeer herding</a></h2>` +
      `<p>The Sami have herded reindeer for generations; then the miners came to the valley, story ${i}.</p></article></div>`,
  ).join('');

describe('main content: several articles on one page', () => {
  it('the article whose heading is the page title wins over a grid of cards holding more text', () => {
    const html = `<html><head><title>The Early Reviews For Stadia Are Here - Digg</title></head><body>
<section><article class="single-story"><header><h1 class="headline">The Early Reviews For Stadia Are Here</h1></header>
<div class="content">${STORY}</div></article></section>
<section class="more">${cards(6)}</section></body></html>`;
    expect(text(html)).toBe(`The Early Reviews For Stadia Are Here ${STORY_TEXT}`);
  });

  it('og:title names the article when <title> says it otherwise', () => {
    const html = `<html><head><title>Google Stadia: first reviews of the new cloud gaming service in the US - News</title>
<meta property="og:title" content='Stadia reviews are in: "Not great!"'></head><body>
<article class="content-article"><h1>Stadia reviews are in: "Not great!"</h1>${STORY}</article>
<section class="topic-stacks">${cards(6)}</section></body></html>`;
    expect(text(html)).toBe(`Stadia reviews are in: "Not great!" ${STORY_TEXT}`);
  });

  it('a title block of its own article is not the content when the body is a larger article', () => {
    const html = `<html><head><title>Mandarin cheesecake with sour cream</title></head><body><main>
<article class="recipe-header"><h1>Mandarin cheesecake with sour cream</h1><p>A fruity cake for the weekend, ready in ninety minutes, rated 4.5 by 900 readers.</p></article>
<article class="recipe-method"><h2>Method</h2>
<p>Knead flour, butter, sugar and an egg into a short dough and line a 26 cm springform pan with it.</p>
<p>Stir the quark, sour cream, pudding powder and sugar smooth and fold in the drained mandarins.</p>
<p>Bake for seventy minutes at 175 degrees and leave the cake to cool in the switched-off oven.</p></article>
</main></body></html>`;
    expect(text(html)).toContain('Knead flour, butter, sugar and an egg');
    expect(text(html)).toContain('Bake for seventy minutes');
  });

  it('a post whose text is all nested related posts loses to the post with text of its own', () => {
    const related = Array.from(
      { length: 6 },
      (_, i) =>
        `<article class="postbox post-${i}"><h2><a href="/p${i}">Related message ${i}</a></h2>` +
        `<p>Another reflection on love, faith and family, number ${i}, to read and share with your friends today.</p></article>`,
    ).join('');
    const html = `<html><head><title>Only who loves himself... - Reflections</title></head><body><div id="primary">
<article class="articlebox post-1806"><h1>Only who loves himself…</h1>
<p>Living a true love is one of the greatest pleasures of life. Liking is feeling with the soul, but saying it depends on each of us.</p>
<p>Only who loves himself can find a true love: nobody else can fill the emptiness we dig ourselves.</p></article>
<article class="postbox post-1806">${related}</article>
</div></body></html>`;
    expect(text(html)).toBe(
      'Only who loves himself… Living a true love is one of the greatest pleasures of life. Liking is feeling ' +
        'with the soul, but saying it depends on each of us. Only who loves himself can find a true love: nobody ' +
        'else can fill the emptiness we dig ourselves.',
    );
  });
});

describe('main content: an article cut into sections', () => {
  it('sections alike, each under its own wrappers, join the chosen one; a sidebar beside them does not', () => {
    const section = (ps: string[]) =>
      `<div class="acf-content"><section class="outer"><div class="container"><div class="post__content">${ps
        .map((p) => `<p>${p}</p>`)
        .join('')}</div></div></section></div>`;
    const first = [
      'When the immunologist looked deep inside the lungs of infected mice, he thought he saw an error.',
      'The cells he found there were tuft cells, known from the gut, where they taste parasites.',
    ];
    const second = [
      'Tuft cells carry the same taste receptors as the tongue, and they use them to sense danger.',
      'In the gut they call the immune system when worms arrive, and the lining renews itself.',
      'In the lungs they seem to do the same after the flu has gone, with less happy results.',
      'The lab now wants to know whether the cells help or harm the recovery of the lungs.',
    ];
    const html = `<html><body><div id="postBody">${section(first)}
<figure><img src="/cells.jpg"></figure>${section(second)}</div>
<div class="sidebar-box"><div class="inner"><ul><li><a href="/a">Most read: a new theory of everything</a></li><li><a href="/b">Most read: the shape of the universe</a></li></ul></div></div>
</body></html>`;
    expect(text(html)).toBe([...first, ...second].join(' '));
  });
});
