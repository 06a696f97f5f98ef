import { article } from '../../support/articles.js';

/**
 * A page as sites make them: navigation, header, aside and footer around the main text; `links`
 * go into the aside (outside the main text, as "more stories" boxes are).
 */
export function articlePage(title: string, main: string, links: readonly string[] = []): string {
  const nav = ['Home', 'World', 'Business', 'Sport', 'Culture', 'Opinion', 'Archive', 'Contact']
    .map((w) => `<li><a href="/">${w}</a></li>`)
    .join('');
  return (
    `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body>` +
    `<header><div class="logo">The Daily Example</div><nav><ul>${nav}</ul></nav></header>` +
    `<main><article><h1>${title}</h1>${main}</article></main>` +
    `<aside><h2>Most read</h2><p>${article(900, 60)}</p>${links.map((l) => `<a href="${l}">${l}</a>`).join(' ')}</aside>` +
    `<footer><p>Copyright 2026 The Daily Example. All rights reserved. Terms, privacy, cookies.</p></footer>` +
    '</body></html>'
  );
}

const paragraphs = (text: string) =>
  text
    .split('. ')
    .reduce<string[][]>((acc, s, i) => {
      if (i % 6 === 0) acc.push([]);
      acc.at(-1)!.push(s);
      return acc;
    }, [])
    .map((p) => `<p>${p.join('. ')}</p>`)
    .join('\n');

/**
 * Copy `i` of one article of `words` words: its own print date, its own view counter, and one
 * sentence of 14 words of its own in the middle (a correction, an update): about 3% of the words of
 * a 600-word article. Issue 32: the simhash at distance 3 made 4 canonicals of ten such copies.
 */
export function articleCopy(i: number, words = 600): string {
  const sentences = article(7, words).split('. ');
  const half = Math.floor(sentences.length / 2);
  const own = article(100 + i, 13).slice(0, -1);
  const text = [...sentences.slice(0, half), `Update ${own}`, ...sentences.slice(half)].join('. ');
  return `<p class="meta">Printed 2026-03-${String(10 + i).padStart(2, '0')}, viewed ${1000 + i * 37} times.</p>${paragraphs(text)}`;
}

/** A heavy template inside the main text: related stories and a newsletter box, 400 words. */
const TEMPLATE = `<div class="related"><h2>Related stories</h2>${paragraphs(article(901, 400))}</div>`;

/** Article `i` of many different short ones (300 words) that share the heavy template. */
export function templatedArticle(i: number): string {
  return `${paragraphs(article(200 + i, 300))}${TEMPLATE}`;
}
