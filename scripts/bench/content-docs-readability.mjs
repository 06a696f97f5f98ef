// @ts-check
// What content-docs.mjs reads through jsdom (a bench dependency, never the crawler's): a page's
// truth, the text of the block its generator declares as the main content, and Readability.js's
// text of the same page. Both are written as text the same way: blocks separated by a space.

import { Readability } from '@mozilla/readability';
import { JSDOM } from 'jsdom';

/** Never read as text, wherever they are (a button's label is an icon's or a widget's). */
const NEVER = 'script, style, noscript, template, button, svg, select, textarea';

const BLOCKS = new Set(
  (
    'address article aside blockquote body dd details div dl dt fieldset figcaption figure footer form ' +
    'h1 h2 h3 h4 h5 h6 header hr li main nav ol p pre section summary table tbody thead tfoot tr td th ' +
    'caption ul br'
  ).split(' '),
);

/** @typedef {import('jsdom').DomNode} DomNode */

/** The text of a DOM subtree, blocks separated by a space, whitespace collapsed. @param {DomNode} root */
function textOf(root) {
  /** @type {string[]} */
  const parts = [];
  const walk = (/** @type {DomNode} */ n) => {
    for (const k of Array.from(n.childNodes)) {
      if (k.nodeType === 3) parts.push(k.nodeValue ?? '');
      else if (k.nodeType === 1) {
        const block = BLOCKS.has(k.localName);
        if (block) parts.push(' ');
        walk(k);
        if (block) parts.push(' ');
      }
    }
  };
  walk(root);
  return parts.join('').replace(/\s+/g, ' ').trim();
}

/** @type {JSDOM | undefined} */
let last;
/** @type {string | undefined} */
let lastHtml;

/** @param {string} html @param {string} url */
function dom(html, url) {
  if (lastHtml !== html || !last) {
    last?.window.close();
    last = new JSDOM(html, { url });
    lastHtml = html;
  }
  return last;
}

/**
 * The text of the declared main block: the first selector of `main` that matches (all its matches
 * that are not inside another one, in document order), without `furniture` nor what is never text.
 * @param {string} html @param {readonly string[]} main @param {string | undefined} furniture
 */
export function truthText(html, main, furniture) {
  const doc = dom(html, 'http://docs.example/').window.document;
  for (const sel of main) {
    const found = Array.from(doc.querySelectorAll(sel)).filter(
      (e, _i, all) => !all.some((o) => o !== e && o.contains(e)),
    );
    if (found.length === 0) continue;
    return found
      .map((e) => {
        const c = e.cloneNode(true);
        for (const x of Array.from(c.querySelectorAll(furniture ? `${NEVER}, ${furniture}` : NEVER)))
          x.remove();
        return textOf(c);
      })
      .join(' ');
  }
  return '';
}

/** Readability.js's text of a page (its defaults), '' when it finds no article. @param {string} html @param {string} url */
export function readabilityText(html, url) {
  const d = dom(html, url);
  lastHtml = undefined; // Readability changes the document: the next call parses again.
  let article;
  try {
    article = new Readability(d.window.document).parse();
  } catch {
    return '';
  }
  if (!article?.content) return '';
  return textOf(JSDOM.fragment(article.content));
}
