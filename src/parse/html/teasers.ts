import { isHeading } from './measures.js';
import { FLAG, type Node } from './tree.js';

/**
 * Teasers and listings. A teaser is a small block under a title that is all link: a card of another
 * page (related articles, "read also", a listing's items), whatever its classes say. On an article
 * page they are left out; on a listing (a home page, a category, a shop's grid, a blog index) they
 * are what the page says: its item titles and teasers, with perhaps a short intro beside them.
 */

/** Larger blocks under a linked title are articles of a listing, or the content itself. */
const TEASER_MAX_CHARS = 400;

/** Teasers holding this share of a container's text make it a listing: they are kept. */
const LISTING_SHARE = 0.8;
/**
 * A lower share is enough when the container is no article, holds none and has under 1,000
 * characters out of links beside its teasers (an intro, an "about" blurb, a promotion bar beside the
 * cards: hackernoon.com's home page holds 0.79 of its text in teasers, pinchofyum.com's category
 * 0.70, a shop's category under two paragraphs of intro 0.75); a short article followed by related
 * cards holding more text than it stays an article, tagged or not. Tuned on WCXB dev.
 */
const LISTING_SHARE_NO_ARTICLE = 0.65;
/** Text out of links beside the teasers that makes an article, tagged or not (an intro is shorter). */
const ARTICLE_CHARS = 1000;

/** A teaser: a small block (not a heading: a heading alone is left to the link-density rule) under a linked title. */
export const isTeaser = (n: Node): boolean =>
  (n.flags & FLAG.TEASER_TITLE) !== 0 && n.chars < TEASER_MAX_CHARS && !isHeading(n.tag);

/** Whether the container's teasers are its content (a listing): they are not pruned. */
export function isListing(root: Node): boolean {
  if (root.chars === 0) return false;
  let chars = 0;
  let linkChars = 0;
  const walk = (n: Node) => {
    for (const k of n.kids) {
      if (typeof k === 'string' || k.flags & FLAG.DROP || !(k.flags & FLAG.TEASER_TITLE)) continue;
      if (isTeaser(k)) {
        chars += k.chars;
        linkChars += k.linkChars;
      } else walk(k);
    }
  };
  walk(root);
  const share = chars / root.chars;
  if (share >= LISTING_SHARE) return true;
  // The text out of links beside the teasers: an intro, or an article without an <article> tag.
  const prose = root.chars - root.linkChars - (chars - linkChars);
  return share >= LISTING_SHARE_NO_ARTICLE && prose < ARTICLE_CHARS && !isOrHoldsArticle(root);
}

/** An `<article>` or articleBody with paragraphs that is no teaser: the page's own article. */
const isArticle = (n: Node): boolean =>
  (n.tag === 'article' || /articlebody/i.test(n.attrs.itemprop ?? '')) && n.paras >= 2 && !isTeaser(n);

/** Whether the container is or holds the page's own article (walking only what holds a main signal). */
function isOrHoldsArticle(n: Node): boolean {
  if (isArticle(n)) return true;
  for (const k of n.kids) {
    if (typeof k === 'string' || k.flags & FLAG.DROP || !(k.flags & FLAG.HAS_MAIN) || isTeaser(k)) continue;
    if (isOrHoldsArticle(k)) return true;
  }
  return false;
}

/**
 * A card or a grid of cards of a listing, with text of its own beside its links (a price, a line of
 * teaser, an author): on a listing it is content however many links it holds. A column of a menu
 * under a linked heading is all links: not a card.
 */
export const isCardOrGrid = (n: Node): boolean =>
  n.linkChars <= n.chars * 0.8 && (isTeaser(n) || isCardGrid(n));

/** Cards alike needed to make a grid (two could be an article and its twin teaser). */
const MIN_CARDS = 3;

/**
 * A grid of cards: a block whose kids are teasers, three or more, holding most of its text (a shop's
 * product grid, a blog index's posts). Each card is a linked title and a price or a line of teaser,
 * so the grid is link-dense; where teasers are the content it is kept whatever its links.
 */
function isCardGrid(n: Node): boolean {
  let cards = 0;
  let chars = 0;
  for (const k of n.kids) {
    if (typeof k === 'string' || k.flags & FLAG.DROP || !isTeaser(k)) continue;
    cards++;
    chars += k.chars;
  }
  return cards >= MIN_CARDS && chars >= n.chars * 0.6;
}
