import { FLAG, type Node } from './tree.js';

/** String helpers of the Markdown writer (markdown.ts): decorations, raw text, the shapes of items. */

/** Strong or emphasis markers inside the text's own leading and trailing spaces. */
export function emphasis(inner: string, mark: string): string {
  return inner.trim() === '' ? inner : wrap(inner, `${mark}${inner.trim()}${mark}`);
}

/** `core` with the leading and trailing whitespace of `around`. */
export function wrap(around: string, core: string): string {
  const lead = /^\s/.test(around) ? ' ' : '';
  const trail = /\s$/.test(around) ? ' ' : '';
  return lead + core + trail;
}

export function rawText(n: Node): string {
  let s = '';
  for (const k of n.kids) {
    if (typeof k === 'string') s += k;
    else if (k.tag === 'br') s += '\n';
    else if (!(k.flags & FLAG.DROP)) s += rawText(k);
  }
  return s;
}

/** Items whose one block is their content: a cell or list item that is one link keeps its text. */
const ITEMS = new Set(['td', 'th', 'li', 'dt', 'dd']);

/** The only block with text in a table cell or list item (`<td><p><a>name</a></p></td>`). */
export function isWholeItem(n: Node): boolean {
  const p = n.parent;
  if (!p || !ITEMS.has(p.tag)) return false;
  for (const k of p.kids)
    if (typeof k !== 'string' && k !== n && k.chars > 0 && !(k.flags & FLAG.DROP)) return false;
  return true;
}

/**
 * Holds the page's title (an `<h1>`): a title block whose breadcrumb-like name is links (rustdoc's
 * "Function std::alloc::dealloc") is not a link list.
 */
export function hasTitle(n: Node): boolean {
  for (const k of n.kids)
    if (typeof k !== 'string' && !(k.flags & FLAG.DROP) && (k.tag === 'h1' || hasTitle(k))) return true;
  return false;
}

export function hasTable(n: Node): boolean {
  for (const k of n.kids) if (typeof k !== 'string' && (k.tag === 'table' || hasTable(k))) return true;
  return false;
}

export function prefixLines(s: string, prefix: string, blank: string): string {
  return s
    .split('\n')
    .map((l) => (l === '' ? blank : prefix + l))
    .join('\n');
}
