import { isExcerpt } from './excerpt.js';
import { isParagraph } from './measures.js';
import { FLAG, type Node } from './tree.js';

/**
 * The share of the page's text a candidate must hold to be chosen however small it is beside the
 * rest of the page: its text out of links and out of excerpts of other pages, against the page's.
 * Link lists (menus, "most read", a big footer) and tickers of other stories' excerpts can make up
 * most of a page's characters; they do not make an article page a listing.
 */
const SHARE = 0.5;

/** Characters out of links in excerpts (src/parse/html/excerpt.ts) of the subtree. */
function excerptChars(n: Node): number {
  let sum = 0;
  for (const k of n.kids) {
    if (typeof k === 'string' || k.flags & FLAG.DROP || k.chars === 0) continue;
    if (isParagraph(k) && isExcerpt(k)) sum += k.chars - k.linkChars;
    else if (k.kids.length > 0) sum += excerptChars(k);
  }
  return sum;
}

/** Whether the chosen block holds most of the page's text out of links and excerpts. */
export function holdsTheProse(best: Node, body: Node): boolean {
  const mine = best.chars - best.linkChars;
  return mine >= (body.chars - body.linkChars - excerptChars(body)) * SHARE;
}
