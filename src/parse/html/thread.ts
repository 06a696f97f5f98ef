import { FLAG, type Node } from './tree.js';

/**
 * A thread or a listing: the best block is one of many posts alike (XenForo's `article.message`,
 * Discourse's `div.topic-post`, a listing's cards), each under its own wrappers and with its own
 * non-prose parts (author pane, signature, reactions), so its wrappers have more text than it and
 * sections.ts never reaches them. Their parent is the content: the opening post as well as the
 * replies, not the one post that scores best.
 */

/** Posts alike needed to make a thread (two could be an article and its twin teaser). */
const MIN_POSTS = 3;
/** The posts alike hold this share of their parent's text. */
const RUN = 0.6;
/** How far up from the best block a post is looked for. */
const MAX_UP = 14;

/** The first word of a class: posts alike share it, their states differ ("nested-level-root", "is-unread"). */
const firstClass = (n: Node): string => {
  const c = n.attrs.class?.trim() ?? '';
  const sp = c.search(/\s/);
  return sp < 0 ? c : c.slice(0, sp);
};

const kept = (k: Node | string): k is Node => typeof k !== 'string' && !(k.flags & FLAG.DROP) && k.chars > 0;

/** The parent of the posts alike the best block is in, when it is in such a run; else undefined. */
export function threadOf(best: Node, body: Node): Node | undefined {
  let up = 0;
  for (let n = best; n.parent && n.parent !== body && up < MAX_UP; n = n.parent, up++) {
    const p = n.parent;
    // Posts of as many characters are copies (a page's desktop and mobile variants), not posts.
    const sizes = new Set<number>();
    let chars = 0;
    const first = firstClass(n);
    for (const k of p.kids)
      if (kept(k) && k.tag === n.tag && firstClass(k) === first && !sizes.has(k.chars)) {
        sizes.add(k.chars);
        chars += k.chars;
      }
    if (sizes.size >= MIN_POSTS && chars >= p.chars * RUN) return p;
  }
  return undefined;
}
