import { NameMemo } from './class-hint.js';
import { FLAG, type Node } from './tree.js';

/**
 * The main blocks documentation generators declare in their own markup, beside `<main>` and
 * role=main (main-content.ts): trusted and kept whole like a `<main>`, and inside any of them class
 * and id words never drop a block (a section whose id is `comments`, Node's `div.api_metadata`
 * History tables, a Doxygen `memdoc`). Each is recognised by the generator's markup, never by host:
 * - Doxygen: `div.contents` after the page's `div.header` (its member tables are grids of links);
 * - asciidoc: `div#content` in a `<body>` of class article, manpage or book;
 * - Node's API docs: `div#apicontent`;
 * - rustdoc: `#main-content` in `body.rustdoc` (its `<main>` also holds the search bar; trimmed as a
 *   web page's `<main>` would be, it lost the trait-implementation lists after the item's docs);
 * - Docusaurus: `div.markdown` (the article's text);
 * - DocBook XSL: a division (`div.chapter`, `div.sect1`, `div.refentry`...) straight in `<body>`
 *   that opens with its `div.titlepage` (the navigation header and footer are its siblings);
 * - Texinfo: the Top node (`div.top#Top`, which holds a one-page manual) and a node's block straight
 *   in `<body>` that opens with the node's navigation bar (isTexinfoNav, itself left out).
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

/**
 * Whether a class value holds `markdown` or `contents` in any case, remembered per value (bounded,
 * keys copied): lower-casing and searching every div's class as it closes was 0.7% of a 90 KB
 * page's parse (profiled), and a page repeats a few class values.
 */
const MARKDOWN_OR_CONTENTS = new NameMemo((cls) => {
  const lower = cls.toLowerCase();
  return lower.includes('markdown') || lower.includes('contents');
});
const namesMarkdownOrContents = (cls: string): boolean => MARKDOWN_OR_CONTENTS.of(cls);

/** Whether `n` is a generator's declared main block (see above). */
export function isGeneratorMain(n: Node): boolean {
  const id = n.attrs.id;
  if (id === 'main-content') return inRustdocBody(n);
  if (n.tag !== 'div') return false;
  const cls = n.attrs.class;
  if (id === undefined && cls === undefined) return false;
  if (id === 'apicontent') return true;
  const parent = n.parent;
  if (id === 'content' && parent?.tag === 'body')
    return classWords(parent).some((w) => ASCIIDOC_BODIES.has(w));
  if (cls === undefined) return false;
  // Most divs with a class are neither in `<body>` nor of these two classes: said without splitting
  // the class into words (this runs for every div as the tree is built and trimmed).
  if (parent?.tag !== 'body' && !namesMarkdownOrContents(cls)) return false;
  const words = classWords(n);
  if (words.includes('markdown')) return true;
  if (words.includes('contents') && parent) return afterDoxygenHeader(n, parent);
  if (parent?.tag !== 'body') return false;
  const first = firstElement(n);
  if (id === 'Top' && (cls === 'top' || cls === 'top-level-extent')) return true;
  if (first !== undefined && isTexinfoNav(first)) return true;
  if (words.some((w) => DOCBOOK_DIVISIONS.has(w)))
    return first !== undefined && first.tag === 'div' && first.attrs.class === 'titlepage';
  return false;
}

/**
 * Texinfo's navigation bar of a node ("Next: Getting Help, Previous: Version, Up: Top [Contents]
 * [Index]"): `div.header` (Texinfo 6) or `div.nav-panel` (7) whose links carry access keys.
 * Left out wherever it is, inside the node's block too.
 */
export function isTexinfoNav(n: Node): boolean {
  if (n.tag !== 'div' || (n.attrs.class !== 'header' && n.attrs.class !== 'nav-panel')) return false;
  return hasAccessKeyLink(n);
}

function hasAccessKeyLink(n: Node): boolean {
  for (const k of n.kids) {
    if (typeof k === 'string') continue;
    if ((k.tag === 'a' && k.attrs.accesskey !== undefined) || hasAccessKeyLink(k)) return true;
  }
  return false;
}

/** rustdoc's `#main-content` lies in a `<body>` of class rustdoc (under its `<main>`, beside the search bar). */
function inRustdocBody(n: Node): boolean {
  for (let p = n.parent; p; p = p.parent) if (p.tag === 'body') return classWords(p).includes('rustdoc');
  return false;
}

/** Doxygen's `div.contents` follows the page's `div.header` (title, summary links). */
function afterDoxygenHeader(n: Node, parent: Node): boolean {
  const before = elementBefore(n, parent);
  return before !== undefined && before.tag === 'div' && before.attrs.class === 'header';
}

/** The element right before `n` (a kid of `parent`), its text between them ignored. */
function elementBefore(n: Node, parent: Node): Node | undefined {
  const at = parent.kids.lastIndexOf(n);
  for (let i = at - 1; i >= 0; i--) {
    const k = parent.kids[i]!;
    if (typeof k !== 'string') return k;
  }
  return undefined;
}

/**
 * The title block a generator writes just before its main block, part of what the page says:
 * Doxygen's `div.header` holding `div.headertitle > div.title` ("std::vector< _Tp > Class Template
 * Reference", on a short page most of its words), and that `div.headertitle` (a weak word, "header",
 * would drop it). Known as each closes, by its own markup.
 */
export function isGeneratorTitle(n: Node): boolean {
  if (n.tag !== 'div') return false;
  const cls = n.attrs.class;
  if (cls === 'headertitle') return n.parent?.tag === 'div' && n.parent.attrs.class === 'header';
  return cls === 'header' && headerTitleOf(n) !== undefined;
}

const headerTitleOf = (n: Node): Node | undefined => {
  for (const k of n.kids) if (typeof k !== 'string' && k.attrs.class === 'headertitle') return k;
  return undefined;
};

/**
 * Keeps only the title of Doxygen's `div.header` as it closes (its counts not yet added to its
 * parent): the summary links beside it ("Public Types | List of all members") are navigation.
 */
export function keepTitleOnly(header: Node): void {
  const title = headerTitleOf(header);
  if (!title) return;
  for (const k of header.kids) if (typeof k !== 'string' && k !== title) k.flags |= FLAG.DROP;
  header.chars = title.chars;
  header.linkChars = title.linkChars;
  header.paras = title.paras;
}

/** The generator's title block before its main block `n` (see isGeneratorTitle), if any. */
export function generatorTitleOf(n: Node): Node | undefined {
  const parent = n.parent;
  if (!parent || n.tag !== 'div') return undefined;
  const before = elementBefore(n, parent);
  return before && classWords(n).includes('contents') && isGeneratorTitle(before) ? before : undefined;
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
