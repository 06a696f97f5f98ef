import { headingMatchesTitle } from './title-match.js';
import type { Node } from './tree.js';

/**
 * Which of a page's `<article>`s is its content, when it has several (the story beside cards of
 * other stories, a post with "you may also like" posts nested in it). `outer` are the articles not
 * inside another, `all` every article, both in document order.
 */

/** An article must hold this much text of its own to be the page's. */
const MIN_CHARS = 200;
/** A titled article must hold a few paragraphs: a title block (heading, date, lead) is not the body. */
const TITLED_PARAS = 3;
/** The share of the articles' text the chosen one must hold when nothing else names it. */
const DOMINANT = 0.6;

/**
 * 1. The largest outer article when its first heading is the page's title: the page says which
 *    article it is about, however long the cards beside it together (a title block of a few lines
 *    before the body's own article is not the content, so only the largest one counts).
 * 2. The outer article holding most of the articles' own text, not counting the articles nested in
 *    them: a post whose only text is a list of nested related posts is not the page's content.
 * 3. The outer article holding most of their text, nested ones included (comments as articles).
 */
export function pickArticle(
  outer: readonly Node[],
  all: readonly Node[],
  titles: readonly Set<string>[],
): Node | undefined {
  const largest = outer.reduce<Node | undefined>((a, b) => (a && a.chars >= b.chars ? a : b), undefined);
  if (largest && largest.paras >= TITLED_PARAS && headingMatchesTitle(largest, titles)) return largest;
  const own = ownChars(outer, all);
  const byOwn = dominant(outer, (a) => own.get(a) ?? 0);
  return byOwn ?? dominant(outer, (a) => a.chars);
}

function dominant(outer: readonly Node[], size: (a: Node) => number): Node | undefined {
  if (outer.length === 0) return undefined;
  let total = 0;
  let best = outer[0]!;
  for (const a of outer) {
    total += size(a);
    if (size(a) > size(best)) best = a;
  }
  return size(best) >= MIN_CHARS && size(best) >= total * DOMINANT ? best : undefined;
}

/** Each outer article's characters less those of the articles nested right in it. */
function ownChars(outer: readonly Node[], all: readonly Node[]): Map<Node, number> {
  const own = new Map<Node, number>(outer.map((a) => [a, a.chars]));
  const set = new Set(all);
  for (const a of all) {
    let p = a.parent;
    while (p && !set.has(p)) p = p.parent;
    // Only an outer article loses a nested one: deeper ones are inside that one's count already.
    const n = p && own.get(p);
    if (p && n !== undefined) own.set(p, n - a.chars);
  }
  return own;
}
