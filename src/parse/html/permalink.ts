import type { Node } from './tree.js';

/**
 * Characters of a heading inside links to a place on the same page (`href="#..."`): documentation
 * generators link each heading to itself (rustdoc's `<h2><a href="#safety">Safety</a></h2>`), which
 * makes it all link without making it the title of a teaser of another page.
 */
export function selfLinkChars(n: Node): number {
  let c = 0;
  for (const k of n.kids) {
    if (typeof k === 'string') continue;
    if (k.tag === 'a') {
      if (k.attrs.href?.startsWith('#') === true) c += k.chars;
    } else c += selfLinkChars(k);
  }
  return c;
}
