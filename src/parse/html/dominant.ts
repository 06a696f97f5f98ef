import { FLAG, type Node } from './tree.js';
import { hiddenByAttrs, reveal } from './veiled.js';

/**
 * Class and id words are hints, never a verdict against the page's own text: a block dropped as
 * boilerplate by its name (or an `<aside>`, a dialog) that holds more text than all that is kept of
 * the page is its content. Forum software names its posts and their list for comments
 * (`#comments`, `div.comment`), shops put a listing's cards in `relatedlink` blocks and a product's
 * description in an `<aside>` accordion or a `role="dialog"` panel. Posts come as siblings alike
 * (same tag and class), each short: they count together, and so do the bodies of posts alike each
 * dropped inside its own kept post (Invision's `article#elComment_N > div > div#comment-N_wrap`). A comment thread longer than the article
 * it follows stays out: blocks named for comments count only on a page that shows no article.
 */

/** Furniture by its tag or role, however much text it holds (a mega footer, a menu of every page). */
const FURNITURE_TAGS = new Set(['nav', 'footer', 'menu', 'header']);
const FURNITURE_ROLES = new Set(['navigation', 'banner', 'contentinfo', 'search', 'menu', 'menubar']);
/** Less text than this is never the page, whatever the rest holds. */
const MIN_CHARS = 200;

const furniture = (n: Node): boolean =>
  FURNITURE_TAGS.has(n.tag) ||
  (n.attrs.role !== undefined && FURNITURE_ROLES.has(n.attrs.role.trim().toLowerCase())) ||
  hiddenByAttrs(n.attrs);

/** Reader comments are prose too: they are the page only when it shows no article of its own. */
const COMMENTS = /comment|disqus|replies|respond|discussion/i;
/** Comments must outweigh the rest this many times (one long comment under a short post is a comment). */
const COMMENTS_WEIGHT = 2;
/** A page showing this much text of its own out of links is an article: its comments stay out. */
const ARTICLE_CHARS = 3000;
const showsArticle = (body: Node): boolean =>
  body.chars - body.linkChars >= ARTICLE_CHARS || declaresArticle(body);
const namesComments = (n: Node, blockers: readonly Node[]): boolean =>
  [n, ...blockers].some((b) => COMMENTS.test(`${b.attrs.class ?? ''} ${b.attrs.id ?? ''}`));

/** Whether the kept page holds an `<article>` or articleBody with paragraphs of prose. */
function declaresArticle(n: Node): boolean {
  for (const k of n.kids) {
    if (typeof k === 'string' || k.flags & FLAG.DROP || !(k.flags & FLAG.HAS_MAIN)) continue;
    // Not `<main>`: a forum's main block holds its thread, posts and all.
    const main = k.tag === 'article' || /article/i.test(k.attrs.role ?? '');
    if ((main || /articlebody/i.test(k.attrs.itemprop ?? '')) && k.paras >= 2) return true;
    if (declaresArticle(k)) return true;
  }
  return false;
}

/** Dropped siblings alike: same parent, tag and class. */
const groupKey = (n: Node): string => `${n.tag} ${n.attrs.class ?? ''}`;

/**
 * The dropped elements between `n` and `body`, innermost first (a post inside a dropped list of
 * posts); undefined when one of them is furniture, hidden or left out by the settings.
 */
function blockersOf(n: Node, body: Node): Node[] | undefined {
  const out: Node[] = [];
  for (let p = n.parent; p && p !== body; p = p.parent) {
    if (!(p.flags & FLAG.DROP)) continue;
    if (furniture(p) || p.flags & (FLAG.EXCLUDED | FLAG.VEILED)) return undefined;
    out.push(p);
  }
  return out;
}

/** The blockers of each member of a group; undefined when one of them is furniture or hidden. */
function blockersOfAll(g: readonly Node[], body: Node): Node[][] | undefined {
  const out: Node[][] = [];
  for (const n of g) {
    const b = blockersOf(n, body);
    if (b === undefined) return undefined;
    out.push(b);
  }
  return out;
}

/** Reveals, largest first, the dropped blocks (or runs of sibling blocks alike) that outweigh the rest. */
export function revealDominant(dropped: readonly Node[], body: Node): void {
  for (let round = 0; round < 4; round++) {
    const candidates = dropped.filter(
      (n) => n.flags & FLAG.DROP && n.chars >= 25 && n.parent && !furniture(n),
    );
    // A group is some of the candidates: when all of them together cannot outweigh the page (most
    // pages), no group can, and nothing is grouped.
    const all = candidates.reduce((s, n) => s + n.chars, 0);
    if (all < MIN_CHARS || all <= body.chars) return;
    // Alike: same tag and class under one parent; posts (blocks with paragraphs) also in parents of
    // the same tag and class (a post's body sits in a column of its own post: IPS's
    // `article > div.ipsColumn > div#comment-N_wrap`).
    const byParent = new Map<Node | string, Map<string, Node[]>>();
    for (const n of candidates) {
      // Not list items: nested entries of a table of contents are no posts.
      const parent = n.paras > 0 && n.tag !== 'li' ? groupKey(n.parent!) : n.parent!;
      let byKey = byParent.get(parent);
      if (!byKey) {
        byKey = new Map();
        byParent.set(parent, byKey);
      }
      const key = groupKey(n);
      const group = byKey.get(key);
      if (group) group.push(n);
      else byKey.set(key, [n]);
    }
    const groups = [...byParent.values()].flatMap((m) => [...m.values()]);
    let best: Node[] = [];
    let bestChars = 0;
    let blockers: Node[][] = [];
    for (const g of groups) {
      const chars = g.reduce((s, n) => s + n.chars, 0);
      if (chars <= bestChars) continue;
      const b = blockersOfAll(g, body);
      if (b === undefined) continue;
      if (namesComments(g[0]!, b[0]!) && (chars <= body.chars * COMMENTS_WEIGHT || showsArticle(body)))
        continue;
      best = g;
      bestChars = chars;
      blockers = b;
    }
    if (bestChars < MIN_CHARS || bestChars <= body.chars) return;
    // The inner ones first: each adds its text to the next, then the outermost to the page.
    for (const n of best) reveal(n);
    for (const b of blockers) for (const n of b) if (n.flags & FLAG.DROP) reveal(n);
  }
}
