import { FLAG, type Node } from './tree.js';

/**
 * Excerpts: a paragraph or list item whose text is cut with an ellipsis ("...", "…", "[…]") is the
 * teaser of another page (a "breaking news" ticker, a list of latest posts, a search result), not
 * prose of this one: it adds nothing to its container's score as the main content's candidate.
 */

const ELLIPSIS = /(?:\.\.\.|…)\s*\]?\s*$/;
/** Only the last characters are looked at: the ellipsis ends the item. */
const TAIL = 12;

/** The last text of a subtree (kept elements only), at most `TAIL` characters of it. */
function tail(n: Node): string {
  for (let i = n.kids.length - 1; i >= 0; i--) {
    const k = n.kids[i]!;
    if (typeof k === 'string') {
      if (k.trim() !== '') return k.slice(-TAIL);
    } else if (!(k.flags & FLAG.DROP) && k.chars > 0) return tail(k);
  }
  return '';
}

/** Whether the element's text ends with an ellipsis. */
export const isExcerpt = (n: Node): boolean => ELLIPSIS.test(tail(n));
