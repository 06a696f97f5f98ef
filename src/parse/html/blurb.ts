import type { Node } from './tree.js';

/**
 * A declared `<article>` that is only a blurb: a podcast's summary card before the 2,000-word
 * transcript that sits beside it (nutritionfacts.org's `main > article` + `div#podcast-info`), a
 * product's teaser before its description. When the page's best block of prose lies outside that
 * article and holds far more text of its own, the content is the block holding both.
 */

/** An article shorter than this may be a blurb; a longer one is the page's, whatever is beside it. */
export const BLURB_CHARS = 1000;
/** The prose outside must hold this many times the article's characters. */
const OUTWEIGH = 2;
/** An article that is no declared `<main>`: only the blurb rule applies. */
const NOT_DECLARED = { main: false, named: () => false };

/**
 * The block holding both the blurb and the prose beside it; undefined when the article is the content.
 * A short declared `<main>` (`declared.main` set) with far more prose outside it may be joined by the body
 * itself when that prose follows it: a page has one main, and what goes on after it is its template's
 * (a calculator's hero in `<main>`, its explanation in the next `<section>` after `</main>`; a
 * streamed page's sections after its shell's `<main>`), not another page's, unless `named` says a
 * block holding it is boilerplate by its class or id (`declared.named`).
 */
export function beyondBlurb(
  article: Node,
  best: Node | undefined,
  body: Node,
  declared: { readonly main: boolean; readonly named: (n: Node) => boolean } = NOT_DECLARED,
): Node | undefined {
  const { main, named } = declared;
  if (!best || article.chars >= BLURB_CHARS) return undefined;
  if (best.chars - best.linkChars < article.chars * OUTWEIGH) return undefined;
  const above = new Set<Node>();
  for (let p: Node | undefined = article; p; p = p.parent) above.add(p);
  let common: Node | undefined = best;
  while (common && !above.has(common)) common = common.parent;
  // Inside the article (its own best paragraph block), or holding it: the article is the content.
  if (!common || common === article || common === best || (common === body && !main)) return undefined;
  // What goes on after a short <main> continues it; prose before it is the template's (a promo bar),
  // and so is prose whose class or id names it (a sign-in dialog's panels after the <main>).
  if (main && (!follows(best, article, common) || namedUpTo(best, common, named))) return undefined;
  return common;
}

/** Whether `n` or an element above it, below `top`, is `named`. */
function namedUpTo(n: Node, top: Node, named: (n: Node) => boolean): boolean {
  for (let p: Node | undefined = n; p && p !== top; p = p.parent) if (named(p)) return true;
  return false;
}

/** Whether `later` comes after `earlier` in the page, both inside `common` and neither holding the other. */
function follows(later: Node, earlier: Node, common: Node): boolean {
  const childOf = (n: Node): Node | undefined => {
    let c: Node | undefined = n;
    while (c && c.parent !== common) c = c.parent;
    return c;
  };
  const a = childOf(earlier);
  const b = childOf(later);
  return a !== undefined && b !== undefined && common.kids.indexOf(b) > common.kids.indexOf(a);
}
