import { NameMemo } from './class-hint.js';
import { FLAG, type Node } from './tree.js';

/**
 * A link drawn as a button (`role="button"`, a class word `btn` or `button`: Bootstrap's `a.btn`,
 * WordPress's `a.wp-block-button__link`, Webflow's `a.button-nav`) is an action, "Start free trial",
 * "Get a quote", "Read the case study", as a `<button>` is, whose text is never read (tree.ts). Landing
 * and service pages repeat them after every section; what they say is no part of the page's text.
 * Short ones only: a card linked whole is no button whatever its class.
 *
 * Measured on WCXB dev (tuned there only): word F1 of all pages 0.847 -> 0.848, listings 0.685 -> 0.692,
 * products 0.615 -> 0.616; service pages' shingle F1 0.798 -> 0.799 (word F1 0.816 -> 0.815: a
 * portfolio whose filter buttons were its truth's text, 1.00 -> 0.54); 120 pages moved, most by a few
 * hundredths. CTA buttons that title a shop's cards are the truth's text on one collection (0.87 -> 0.57).
 */
const BUTTON = /(?:^|[^a-z])(?:btn|button)(?:$|[^a-z])/;
/** Whether a class value names a button, remembered per value (every short link asks; a page repeats a few). */
const DRAWN = new NameMemo((c) => BUTTON.test(c.toLowerCase()));
/** Longer than a call to action ("Compare all plans side by side" is 30). */
const MAX_CHARS = 40;

/**
 * Whether `n`, as it closes, is a short link drawn as a button that stands alone: not in a sentence
 * ("To get started, <a class="btn">download the app</a> and open it" keeps its words), read from what
 * precedes it in its parent, as what follows is not parsed yet.
 */
export function isButtonLink(n: Node): boolean {
  if (n.tag !== 'a' || n.chars > MAX_CHARS || n.chars === 0) return false;
  const c = n.attrs.class;
  const drawn = n.attrs.role?.trim().toLowerCase() === 'button' || (c !== undefined && DRAWN.of(c));
  return drawn && !afterInlineText(n);
}

/** Whether text of the same line (a text or an inline element that is not a link) comes before `n`. */
function afterInlineText(n: Node): boolean {
  const kids = n.parent?.kids;
  if (kids === undefined) return false;
  for (let i = kids.lastIndexOf(n) - 1; i >= 0; i--) {
    const k = kids[i]!;
    if (typeof k === 'string') {
      if (k.trim() === '') continue;
      return true;
    }
    return k.tag !== 'a' && k.chars > 0 && (k.flags & (FLAG.BLOCK | FLAG.HAS_BLOCK | FLAG.DROP)) === 0;
  }
  return false;
}
