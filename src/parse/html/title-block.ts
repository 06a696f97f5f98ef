import { isHeading } from './measures.js';
import type { Node } from './tree.js';

/**
 * Headings and title blocks that a weak class word ("header", "toolbar", "banner") does not make
 * boilerplate: documentation generators name their headings so (rustdoc's `h2.small-section-header`,
 * `h3.code-header`; Javadoc's `div.header` holding the class's `<h1>`). A heading left with nothing
 * under it is still dropped when the page is written (render.ts), so a "Related" heading over a
 * dropped list goes with it.
 */

function holdsH1(n: Node): boolean {
  for (const k of n.kids) if (typeof k !== 'string' && (k.tag === 'h1' || holdsH1(k))) return true;
  return false;
}

function insideMain(n: Node): boolean {
  for (let p = n.parent; p; p = p.parent)
    if (p.tag === 'main' || p.tag === 'article' || p.attrs.role?.toLowerCase() === 'main') return true;
  return false;
}

/** A heading, or a block holding the `<h1>` inside a declared main block or article. */
export const isTitleBlock = (n: Node): boolean => isHeading(n.tag) || (holdsH1(n) && insideMain(n));
