import { FLAG, type Node } from './tree.js';

/**
 * What a script would show: blocks hidden in the served HTML (`hidden`, inline display:none or
 * visibility:hidden) and the body's `<noscript>`s. They are dropped while the tree is built, as most
 * are furniture (a mobile copy of a menu, a "please enable JavaScript" line, a closed tab); but when
 * they hold the page's text and the rest of the page does not, a browser would show that text:
 * - forum software serves the whole thread inside `<noscript>` to clients without scripts, and an
 *   empty shell around it;
 * - streamed server rendering sends the body in `<div hidden>` chunks that a script moves in place,
 *   and shops wrap the product in display:none until their script runs.
 * Then those blocks are put back (their counts added to their ancestors), and the usual rules choose
 * the content among them.
 */

/** Veiled text under this many characters is a line of furniture, whatever the page around it. */
const MIN_CHARS = 200;
/** A hidden block shorter than this is a tooltip, a menu's panel, a label: never revealed. */
const MIN_BLOCK = 150;

/**
 * Hidden in the served HTML until a script shows it: a block with `hidden` or display:none. A hidden
 * paragraph or inline element is text the page hides, and visibility:hidden keeps its place empty:
 * both are dropped for good (dropOnOpen in main-content.ts).
 */
export function isHidden(tag: string, attrs: Readonly<Record<string, string>>): boolean {
  if (!CONTAINERS.has(tag)) return false;
  if (attrs.hidden !== undefined) return true;
  const style = attrs.style;
  return style !== undefined && DISPLAY_NONE.test(style);
}
const CONTAINERS = new Set(['div', 'section', 'article', 'main', 'dd', 'li', 'ul', 'ol', 'table', 'details']);
const DISPLAY_NONE = /display\s*:\s*none/i;

/**
 * Hidden by its attributes, whatever its tag: `hidden`, `aria-hidden="true"`, inline display:none or
 * visibility:hidden (dropped as the tree is built, and never taken for the page's furniture-free text).
 */
export function hiddenByAttrs(attrs: Readonly<Record<string, string>>): boolean {
  if (attrs.hidden !== undefined || attrs['aria-hidden'] === 'true') return true;
  const style = attrs.style;
  return style !== undefined && HIDDEN_STYLE.test(style);
}
const HIDDEN_STYLE = /display\s*:\s*none|visibility\s*:\s*hidden/i;

/** Whether nothing between `n` and `body` is dropped (so its text would count once revealed). */
export function reachable(n: Node, body: Node): boolean {
  for (let p = n.parent; p && p !== body; p = p.parent) if (p.flags & FLAG.DROP) return false;
  return true;
}

/** Puts a veiled block back into the tree: its counts go to its ancestors, as on close. */
export function reveal(n: Node): void {
  n.flags &= ~(FLAG.DROP | FLAG.EXCLUDED | FLAG.VEILED);
  for (let p = n.parent; p; p = p.parent) {
    p.chars += n.chars;
    p.linkChars += n.linkChars;
    p.paras += n.paras;
    if (p.flags & FLAG.DROP) break;
  }
}

/**
 * Reveals the `<noscript>`s when they hold more text than the rest of the body, then the hidden
 * blocks when they do (each kind counted over its blocks that are not inside dropped ones).
 */
export function revealVeiled(veiled: readonly Node[], body: Node): void {
  if (veiled.length === 0) return;
  const open = veiled.filter((n) => reachable(n, body));
  for (const noscript of [true, false]) {
    const kind = open.filter(
      (n) =>
        ((n.flags & FLAG.NOSCRIPT) !== 0) === noscript &&
        n.flags & FLAG.VEILED &&
        (noscript || n.chars >= MIN_BLOCK),
    );
    const chars = kind.reduce((sum, n) => sum + n.chars, 0);
    if (chars < MIN_CHARS || chars <= body.chars) continue;
    for (const n of kind) reveal(n);
  }
}
