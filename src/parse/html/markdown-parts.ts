import { resolveCached } from '../resolve.js';
import { collapseSpace, detach, isSpaceCode } from '../strings.js';
import { FLAG, MD_ESCAPED, type Node } from './tree.js';

/** String helpers of the text and Markdown writer (markdown.ts): decorations, escapes, raw text, the shapes of items. */

/** Strong or emphasis markers inside the text's own leading and trailing spaces. */
export function emphasis(inner: string, mark: string): string {
  const core = inner.trim();
  return core === '' ? inner : wrap(inner, `${mark}${core}${mark}`);
}

/**
 * `core` with the leading and trailing whitespace of `around` (one space each); its first and last
 * characters read, not two expressions run for every link and emphasis.
 */
export function wrap(around: string, core: string): string {
  if (around.length === 0) return core;
  const lead = isSpaceCode(around.charCodeAt(0)) ? ' ' : '';
  const trail = isSpaceCode(around.charCodeAt(around.length - 1)) ? ' ' : '';
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

// Whitespace runs that are not already one space: replacing every lone space is the slow part.
const WS = /[\t\n\f\r \u00a0]{2,}|[\t\n\f\r\u00a0]/g;
const MD_SPECIAL = new RegExp(`[${MD_ESCAPED.replace(/[\\\]]/g, '\\$&')}]`, 'g');
// The same without /g, to test first: most text has none, and a test is cheaper than a replace.
const HAS_MD_SPECIAL = new RegExp(MD_SPECIAL.source);
/** Stands for a hard line break until whitespace is collapsed. */
export const BR = '\u0001';
const BR_RUN = /\s*\u0001\s*/g;

// A block starting like Markdown's own syntax (a heading, a list item, a quote, a fence) is escaped.
const MD_LINE_START = /^(?:#{1,6}(?:\s|$)|[-+*]\s|\d{1,9}[.)]\s|>|=+\s*$|`{3}|~{3})/;

/** A block of Markdown that would read as syntax at the start of its line, escaped. */
export function escapeLineStart(t: string): string {
  return MD_LINE_START.test(t) ? `\\${t}` : t;
}

/** Text escaped for Markdown. */
export function escapeMarkdown(s: string): string {
  return HAS_MD_SPECIAL.test(s) ? s.replace(MD_SPECIAL, '\\$&') : s;
}

/**
 * Inline text finished: whitespace collapsed (when `spaces` says there may be some to collapse),
 * trimmed, hard breaks written (`\` + line break in Markdown, a space in the text).
 */
export function finishInline(s: string, spaces: boolean, markdown: boolean): string {
  const t = (spaces ? s.replace(WS, ' ') : s).trim();
  if (!t.includes(BR)) return t;
  const br = markdown ? '\\\n' : ' ';
  return t
    .replace(BR_RUN, BR)
    .replace(/^\u0001+|\u0001+$/g, '')
    .replaceAll(BR, br);
}

/** A link or image address, resolved against `base`; undefined for none or a script. */
function markdownUrl(href: string | undefined, base: URL | undefined): string | undefined {
  if (href === undefined) return undefined;
  const h = href.trim();
  if (h === '') return undefined;
  // Through the outlinks' cache: the same links, resolved once for both.
  const u = base ? resolveCached(h, base) : h;
  if (u === undefined) return undefined;
  if (/^(?:javascript|vbscript):/i.test(u)) return undefined;
  return /[\s()<>]/.test(u) ? `<${u.replace(/[<>\s]/g, encodeURIComponent)}>` : u;
}

export function markdownImage(n: Node, base: URL | undefined): string {
  const src = markdownUrl(n.attrs.src ?? n.attrs['data-src'], base);
  if (src === undefined || src.startsWith('data:')) return '';
  const alt = collapseSpace(n.attrs.alt ?? '').replace(/[[\]\\]/g, '\\$&');
  return `![${alt}](${src})`;
}

/**
 * The Markdown of an inline element around its content's Markdown (`inner`); `spaces` false when
 * `inner` holds no whitespace to collapse (markdown.ts knows it as it writes).
 */
export function decorate(n: Node, inner: string, base: URL | undefined, spaces: boolean): string {
  switch (n.tag) {
    case 'a': {
      const href = markdownUrl(n.attrs.href, base);
      const t = (spaces ? inner.replace(WS, ' ') : inner).trim();
      return href === undefined || t === '' ? inner : wrap(inner, `[${t}](${href})`);
    }
    case 'strong':
    case 'b':
      return emphasis(inner, '**');
    case 'em':
    case 'i':
      return emphasis(inner, '*');
    case 'code':
    case 'kbd':
    case 'samp': {
      if (n.flags & FLAG.PRE) return inner;
      const raw = rawText(n).replace(WS, ' ');
      if (raw.trim() === '') return inner;
      const tick = raw.includes('`') ? '``' : '`';
      return wrap(raw, `${tick}${raw.trim()}${tick}`);
    }
    default:
      return inner;
  }
}

/** The blocks written, less a heading with nothing under it, joined and cut at `max`. */
export function joinBlocks(
  out: readonly string[],
  levels: readonly number[],
  sep: string,
  max: number,
): string {
  // A heading with nothing under it titled what was left out ("Related posts" over a dropped list).
  const kept: string[] = [];
  let next = 0;
  for (let i = out.length - 1; i >= 0; i--) {
    const level = levels[i]!;
    if (level > 0 && (next === 0 ? i === out.length - 1 || kept.length === 0 : next <= level)) continue;
    kept.push(out[i]!);
    next = level;
  }
  kept.reverse();
  const s = kept.join(sep);
  if (max > 0 && s.length > max) return detach(s.slice(0, max));
  // A join of two or more parts is a new flat string, sharing no memory with the page: copying it
  // again (detach) was 3.5% of a 90 KB page's parse. One part may be a view of the page's text.
  return kept.length > 1 ? s : detach(s);
}
