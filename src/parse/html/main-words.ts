import { isHeading } from './measures.js';
import type { Node } from './tree.js';

/**
 * How a strong boilerplate word of a class or id (main-content.ts: "comment", "sidebar", "share",
 * "cookie"...) is read on a block inside a `<main>` or role=main, the declared main content. Web
 * pages put their sidebar, comments and share bar there (and name them in compounds:
 * "relatedlinks", "sharedaddy", "img-metadata"), so such a word still drops a block there, but not:
 * - from an id that is the anchor of the block's own heading (`<section id="comments">` opened by
 *   "2.1.3. Comments", `#cookie-management` by "Cookie management", `#embedding-python` by
 *   "Embedding Python"): a document's section named for its title, where a web page's comments
 *   block is titled "3 thoughts on ...";
 * - from Sphinx's toctree classes (`div.toctree-wrapper`, `li.toctree-l2`): the table of contents
 *   Sphinx writes into the page's text (an index page is made of it), no "toc" widget.
 */

/** Lowercased letters-only words of a name, split at non-letters and at camel-case humps. */
function wordsOf(name: string): string[] {
  return name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter((w) => w !== '');
}

/** The text of the first heading among the first element kids of `n` (before any other block with text). */
function firstHeading(n: Node): Node | undefined {
  for (const k of n.kids) {
    if (typeof k === 'string') {
      if (k.trim() !== '') return undefined;
      continue;
    }
    if (isHeading(k.tag)) return k;
    if (k.chars > 0) return undefined;
  }
  return undefined;
}

function textOf(n: Node): string {
  let s = '';
  for (const k of n.kids) s += typeof k === 'string' ? k : ` ${textOf(k)}`;
  return s;
}

/** Whether `id` is the slug of the block's own first heading ("cookie-management" of "Cookie management"). */
export function isHeadingAnchor(n: Node, id: string): boolean {
  const h = firstHeading(n);
  if (!h) return false;
  const slug = wordsOf(textOf(h)).join('-');
  const idWords = wordsOf(id).join('-');
  // Generators prefix or number their anchors ("s-comments" in Django's docs, "id2-comments").
  return idWords !== '' && slug !== '' && (slug === idWords || idWords.endsWith(`-${slug}`));
}

const SPHINX_TOC = /^(?:toctree-(?:wrapper|l\d+)|compound|current)$/;

/** Whether every class word of `n` is one of Sphinx's toctree classes. */
const isSphinxToc = (cls: string): boolean => {
  const words = cls.trim().split(/\s+/);
  return words.some((w) => w.startsWith('toctree')) && words.every((w) => SPHINX_TOC.test(w));
};

/**
 * Whether a strong word names the block inside a `<main>` (see above); `strong` tells whether a
 * class or id value holds one (main-content.ts's own test).
 */
export function strongInMain(n: Node, strong: (name: string) => boolean): boolean {
  const cls = n.attrs.class;
  if (cls !== undefined && !isSphinxToc(cls) && strong(cls)) return true;
  const id = n.attrs.id;
  return id !== undefined && strong(id) && !isHeadingAnchor(n, id);
}
