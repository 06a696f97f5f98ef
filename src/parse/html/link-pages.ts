import { FLAG, type Node } from './tree.js';

/**
 * Link lists that are the page: a table of contents, an index, the contents page of a manual's part
 * or chapter (DocBook's `div.toc`, Sphinx's `div.toctree-wrapper`). Their class says "toc", which
 * drops a table of contents beside an article; but when such a list holds at least as much text as
 * everything kept around it, it is what the page says, and it is kept, its links as text (and as a
 * Markdown list).
 */

const TOC = /(?:^|[^a-z])toc/;
const HIDDEN = /display\s*:\s*none|visibility\s*:\s*hidden/i;

/** A block left out for naming itself a table of contents (not for being hidden or navigation). */
function isDroppedContents(n: Node): boolean {
  if (!(n.flags & FLAG.DROP) || n.flags & FLAG.EXCLUDED || isHidden(n)) return false;
  const a = n.attrs;
  if (n.tag === 'nav' || n.tag === 'aside' || a.role !== undefined) return false;
  return TOC.test(`${a.class ?? ''} ${a.id ?? ''}`.toLowerCase());
}

/** The dropped tables of contents in a subtree (outermost ones; kept kids only where `only` says). */
function contentsIn(n: Node, out: Node[], only?: ReadonlySet<Node>): void {
  for (const k of n.kids) {
    if (typeof k === 'string' || (only && !only.has(k))) continue;
    if (isDroppedContents(k)) out.push(k);
    else if (!(k.flags & FLAG.DROP)) contentsIn(k, out);
  }
}

/** Visible characters of a subtree, what its class words dropped in it counted too (not what is hidden). */
function allChars(n: Node): number {
  let c = n.chars;
  for (const k of n.kids)
    if (typeof k !== 'string')
      c += k.flags & FLAG.DROP ? (isHidden(k) ? 0 : allChars(k)) : allChars(k) - k.chars;
  return c;
}

/** Clears the drop of a table of contents and of what its class words dropped inside it. */
function keep(n: Node): void {
  n.flags &= ~FLAG.DROP;
  for (const k of n.kids) if (typeof k !== 'string' && !isHidden(k)) keep(k);
}

const isHidden = (n: Node): boolean =>
  n.attrs.hidden !== undefined ||
  n.attrs['aria-hidden'] === 'true' ||
  (n.attrs.style !== undefined && HIDDEN.test(n.attrs.style));

/**
 * Keeps the tables of contents of the chosen content when they hold at least as much text as the rest
 * of it; true when it did (the links are then the content: not pruned).
 */
export function keepContentsPage(root: Node, only?: ReadonlySet<Node>): boolean {
  const found: Node[] = [];
  contentsIn(root, found, only);
  if (found.length === 0) return false;
  let rest = 0;
  if (only) for (const k of only) rest += k.chars;
  else rest = root.chars;
  const toc = found.reduce((s, n) => s + allChars(n), 0);
  if (toc < rest) return false;
  for (const n of found) keep(n);
  return true;
}
