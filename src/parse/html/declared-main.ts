import type { Node } from './tree.js';

/**
 * The main blocks documentation generators declare in their own markup, beside `<main>` and
 * role=main (main-content.ts): trusted and kept whole like a `<main>`, and inside any of them class
 * and id words never drop a block (a section whose id is `comments`, Node's `div.api_metadata`
 * History tables, a Doxygen `memdoc`). Each is recognised by the generator's markup, never by host:
 * - Doxygen: `div.contents` after the page's `div.header` (its member tables are grids of links);
 * - asciidoc: `div#content` in a `<body>` of class article, manpage or book;
 * - Node's API docs: `div#apicontent`;
 * - Docusaurus: `div.markdown` (the article's text);
 * - DocBook XSL: a division (`div.chapter`, `div.sect1`, `div.refentry`...) straight in `<body>`
 *   that opens with its `div.titlepage` (the navigation header and footer are its siblings).
 * Only the element's attributes, its parent's and the kids already built are read, so it holds when
 * a descendant closes (the tree is built in one pass).
 */

const ASCIIDOC_BODIES = new Set(['article', 'manpage', 'book']);
const DOCBOOK_DIVISIONS = new Set([
  'book',
  'part',
  'chapter',
  'appendix',
  'preface',
  'article',
  'reference',
  'refentry',
  'sect1',
  'sect2',
  'section',
  'glossary',
  'index',
  'bibliography',
  'colophon',
  'set',
  'legalnotice',
]);

const classWords = (n: Node): string[] => n.attrs.class?.toLowerCase().split(/\s+/) ?? [];

/** The first element kid of `n` (its text before it ignored). */
function firstElement(n: Node): Node | undefined {
  for (const k of n.kids) if (typeof k !== 'string') return k;
  return undefined;
}

/** Whether `n` is a generator's declared main block (see above). */
export function isGeneratorMain(n: Node): boolean {
  if (n.tag !== 'div') return false;
  const id = n.attrs.id;
  const cls = n.attrs.class;
  if (id === undefined && cls === undefined) return false;
  if (id === 'apicontent') return true;
  const parent = n.parent;
  if (id === 'content' && parent?.tag === 'body')
    return classWords(parent).some((w) => ASCIIDOC_BODIES.has(w));
  if (cls === undefined) return false;
  const words = classWords(n);
  if (words.includes('markdown')) return true;
  if (words.includes('contents') && parent) return afterDoxygenHeader(n, parent);
  if (parent?.tag === 'body' && words.some((w) => DOCBOOK_DIVISIONS.has(w))) {
    const first = firstElement(n);
    return first !== undefined && first.tag === 'div' && first.attrs.class === 'titlepage';
  }
  return false;
}

/** Doxygen's `div.contents` follows the page's `div.header` (title, summary links). */
function afterDoxygenHeader(n: Node, parent: Node): boolean {
  const at = parent.kids.lastIndexOf(n);
  for (let i = at - 1; i >= 0; i--) {
    const k = parent.kids[i]!;
    if (typeof k === 'string') continue;
    return k.tag === 'div' && k.attrs.class === 'header';
  }
  return false;
}

/** `<main>`, role=main or a generator's main block (see above). */
export const isDeclaredMain = (n: Node): boolean =>
  n.tag === 'main' || n.attrs.role?.toLowerCase() === 'main' || isGeneratorMain(n);

/** Whether an ancestor of `n` is a generator's main block: class and id words do not drop `n` there. */
export function insideGeneratorMain(n: Node): boolean {
  for (let p = n.parent; p; p = p.parent) if (isGeneratorMain(p)) return true;
  return false;
}

/** Whether an ancestor of `n` is a `<main>` or role=main. */
export function insideMain(n: Node): boolean {
  for (let p = n.parent; p; p = p.parent)
    if (p.tag === 'main' || p.attrs.role?.toLowerCase() === 'main') return true;
  return false;
}

/**
 * Furniture of a generator's item headings, left out as it opens: rustdoc's `rightside` and
 * `out-of-band` spans (the "1.0.0 · source" beside each item: a version and a link to the source
 * file), its `srclink` links and its copy-path button. Exact class values only (one string compare).
 */
const GENERATOR_FURNITURE = new Set(['rightside', 'out-of-band', 'srclink']);

export const isGeneratorFurniture = (attrs: Readonly<Record<string, string>>): boolean =>
  (attrs.class !== undefined && GENERATOR_FURNITURE.has(attrs.class)) || attrs.id === 'copy-path';
