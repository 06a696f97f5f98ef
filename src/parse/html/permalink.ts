import type { Node } from './tree.js';

/**
 * Characters of a heading inside links to a place on the same page (`href="#..."`): documentation
 * generators link each heading to itself (rustdoc's `<h2><a href="#safety">Safety</a></h2>`), which
 * makes it all link without making it the title of a teaser of another page. So does a forum post's
 * title linked to the post itself (phpBB's `<div id="p550447">...<h3><a href="./viewtopic.php?p=550447#p550447">`):
 * a link whose fragment names a block the heading is in; and a heading inside the toggle that opens
 * an accordion's answer (inToggle): all of it.
 */
export function selfLinkChars(n: Node): number {
  return inToggle(n) ? n.chars : linkedToSelf(n);
}

/** The characters of `n`'s links to a place on this page, its descendants' included. */
function linkedToSelf(n: Node): number {
  let c = 0;
  for (const k of n.kids) {
    if (typeof k === 'string') continue;
    if (k.tag === 'a') {
      const href = k.attrs.href;
      if (href !== undefined && (href.startsWith('#') || linksToAncestor(n, href))) c += k.chars;
    } else c += linkedToSelf(k);
  }
  return c;
}

/** How far up a permalink's target is looked for (a post's block holds its title a few levels down). */
const MAX_UP = 12;

/** Whether the link's fragment is the id of an element holding `n`. */
function linksToAncestor(n: Node, href: string): boolean {
  const hash = href.indexOf('#');
  if (hash < 0 || hash === href.length - 1) return false;
  const id = href.slice(hash + 1);
  let up = 0;
  for (let p: Node | undefined = n; p && up < MAX_UP; p = p.parent, up++) if (p.attrs.id === id) return true;
  return false;
}

/** How far up the link around a heading is looked for (`<a><h3>`, `<a><div><h3>`). */
const TOGGLE_UP = 3;

/**
 * Whether the heading sits inside a link to this page itself (`href="#"` or a `javascript:` link): an
 * accordion's question wrapped in the toggle that opens its answer (Webflow's FAQ,
 * `<a href="#" class="accordion-question"><h3>Is ... ?</h3></a>`), no title of a teaser of another page.
 * WCXB dev (tuned there only): service pages' word F1 0.812 -> 0.814 (waveapps.com 0.72 -> 0.95, a
 * doorbell's product page 0.85 -> 0.93); an article's FAQ after it that its truth leaves out 0.99 -> 0.50.
 */
function inToggle(n: Node): boolean {
  let up = 0;
  for (let p = n.parent; p && up < TOGGLE_UP; p = p.parent, up++) {
    if (p.tag !== 'a') continue;
    const href = p.attrs.href?.trim().toLowerCase();
    return href !== undefined && (href.startsWith('#') || href.startsWith('javascript:'));
  }
  return false;
}
