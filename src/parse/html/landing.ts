import type { Node } from './tree.js';

/**
 * A landing page (a service's or product's home page) is a run of sections, each in its own wrapper
 * (`div#features_tasks`, `div#features_apps`, `div#features_modules`, each holding an inner div, a
 * heading and a list of short feature lines). The best block is one of them, and the siblings that
 * join it (main-content.ts's withSiblings) are its own heading and blocks inside its wrapper: the
 * other sections sit beyond their parent. An article's prose and the blocks that join it hold most
 * of the page's text; when they hold under half, the page goes on beyond them and the whole body
 * (boilerplate dropped) is the content.
 *
 * Measured on WCXB dev (tuned there only): 5 pages up by 0.23-0.50 word F1 (two service pages, two
 * products, a forum), none down; the test split's figures are in RESULTS.md.
 */
const RUN_SHARE = 0.5;

/**
 * Whether the kept blocks `only` hold too little of the page's text to be all of its content. Text
 * out of links, as prose-share.ts counts it: an article beside large link lists (menus, "most read")
 * still holds most of what the page says.
 */
export function pageGoesOn(only: ReadonlySet<Node>, body: Node): boolean {
  let chars = 0;
  for (const k of only) chars += k.chars - k.linkChars;
  return chars < (body.chars - body.linkChars) * RUN_SHARE;
}
