import { resolveCached } from '../resolve.js';
import { detach } from '../strings.js';
import { codeLanguage } from './code-language.js';
import { linksAreCode } from './code-links.js';
import type { MainContent } from './main-content.js';
import { emphasis, hasTable, hasTitle, isWholeItem, prefixLines, rawText, wrap } from './markdown-parts.js';
import { isCardOrGrid, isTeaser } from './teasers.js';
import { FLAG, type Node } from './tree.js';

/**
 * Writes the main content (src/parse/html/main-content.ts) as plain text or as Markdown, in one walk
 * of the light tree:
 * - text: as the whole-page text (src/parse/html/text.ts) reads: whitespace runs collapsed to one
 *   space, blocks (paragraphs, headings, list items, table cells) separated by a space, `<pre>`
 *   kept as is;
 * - Markdown (CommonMark + GFM tables): ATX headings, `**strong**`, `*emphasis*`, inline code, nested
 *   lists, fenced code keeping its lines (language from a `language-*` / `lang-*` class), block
 *   quotes, tables with a header row, links and images made absolute against the base URL.
 * Layout tables (nested tables, one column) are written as the blocks they hold.
 */

export interface RenderOptions {
  readonly markdown: boolean;
  /** Resolves links and images; undefined leaves them as written. */
  readonly base: URL | undefined;
  /** -1 = no limit. */
  readonly maxLength: number;
}

const HEADINGS: Record<string, number> = { h1: 1, h2: 2, h3: 3, h4: 4, h5: 5, h6: 6 };
// Containers left out when mostly links. Not inline elements: a `<span>` or `<code>` inside a link
// is the link's text (Sphinx writes `<a><code><span>NAME</span></code></a>`), not a link list.
const LINK_DENSE_CONTAINERS = new Set(['div', 'section', 'ul', 'ol', 'dl', 'table', 'form', 'p']);
// What a declared main block keeps whatever its links: the tables and lists it is made of.
const LINK_LISTS = new Set(['ul', 'ol', 'dl', 'table']);
// Whitespace runs that are not already one space: replacing every lone space is the slow part.
const WS = /[\t\n\f\r \u00a0]{2,}|[\t\n\f\r\u00a0]/g;
const MD_SPECIAL = /[\\`*_[\]<]/g;
// The same without /g, to test first: most text has none, and a test is cheaper than a replace.
const HAS_MD_SPECIAL = new RegExp(MD_SPECIAL.source);
const MD_LINE_START = /^(?:#{1,6}(?:\s|$)|[-+*]\s|\d{1,9}[.)]\s|>|=+\s*$|`{3}|~{3})/;
const NESTED_LIST = /^(?:- |\d{1,9}\. )/;
/** A permalink to a heading ("¶", "#", "§"): an icon, not text. */
const PERMALINK = /^[^\p{L}\p{N}]?$/u;
/** Stands for a hard line break until whitespace is collapsed. */
const BR = '\u0001';
const BR_RUN = /\s*\u0001\s*/g;

class Renderer {
  private length = 0;
  /** The top-level blocks and, beside them, their heading level (0 for other blocks). */
  readonly top: string[] = [];
  readonly levels: number[] = [];
  /**
   * Whether the inline text being built may hold whitespace to collapse: some of its text does
   * (FLAG.SPACES, found as the tree was built) or two of its parts meet space to space. Testing
   * every paragraph with the whitespace expression instead was a third of a 90 KB page's render.
   */
  private spaces = false;

  private readonly pruneLinks: boolean;
  /** Inside a declared block: its tables and lists (in a `<main>`, all its blocks) keep their links. */
  private readonly declared: 'main' | 'article' | undefined;
  private readonly pruneTeasers: boolean;
  /** Only excluded tags are skipped (what an include selector matched is kept whole). */
  private readonly selected: boolean;
  /** A listing: its cards and their grids are not link lists (teasers.ts). */
  private readonly listing: boolean;

  /** `main`: how the extractor chose the content, which says what is pruned. */
  constructor(
    private readonly o: RenderOptions,
    main: Pick<MainContent, 'pruneLinks' | 'declared' | 'pruneTeasers' | 'selected' | 'listing'>,
  ) {
    this.pruneLinks = main.pruneLinks;
    this.declared = main.declared;
    this.pruneTeasers = main.pruneTeasers === true;
    this.selected = main.selected ?? false;
    this.listing = main.listing === true;
  }

  private get full(): boolean {
    return this.o.maxLength > 0 && this.length >= this.o.maxLength;
  }

  private skipped(n: Node): boolean {
    if (this.selected) return (n.flags & FLAG.EXCLUDED) !== 0;
    if (n.flags & FLAG.DROP || (n.flags & FLAG.CAPTION && !this.o.markdown)) return true;
    if (this.pruneTeasers && isTeaser(n)) return true;
    return (
      this.pruneLinks &&
      n.chars > 0 &&
      n.linkChars > n.chars * (n.tag === 'p' ? 0.8 : 0.5) &&
      LINK_DENSE_CONTAINERS.has(n.tag) &&
      this.declared !== 'main' &&
      !(this.declared === 'article' && LINK_LISTS.has(n.tag)) &&
      !isWholeItem(n) &&
      !hasTitle(n) &&
      !(this.listing && isCardOrGrid(n)) &&
      !(n.tag === 'p' && linksAreCode(n))
    );
  }

  /** The blocks of a container, in order. */
  blocks(n: Node, out: string[], only?: ReadonlySet<Node>): void {
    let para: string[] = [];
    let space = false;
    this.spaces = false;
    const add = (part: string) => {
      para.push(part);
      space = this.meet(space, part);
    };
    const flush = () => {
      if (para.length === 0) return;
      const t = this.finishInline(para.join(''));
      para = [];
      space = false;
      if (t !== '') this.push(out, this.o.markdown && MD_LINE_START.test(t) ? `\\${t}` : t);
    };
    for (const k of n.kids) {
      if (this.full) break;
      if (typeof k === 'string') {
        if (n.flags & FLAG.SPACES) this.spaces = true;
        add(n.flags & FLAG.PRE ? k : this.escape(k));
        continue;
      }
      if (only && !only.has(k)) continue;
      if (this.skipped(k)) continue;
      if (!(k.flags & (FLAG.BLOCK | FLAG.HAS_BLOCK))) {
        add(this.inline(k));
        continue;
      }
      if (k.tag === 'br') {
        add(BR);
        continue;
      }
      flush();
      this.block(k, out);
    }
    flush();
  }

  /**
   * Notes two parts meeting space to space (then the text has whitespace to collapse); `space` is
   * whether the text before `part` ends with a space; returns whether the text ends with one after it.
   */
  private meet(space: boolean, part: string): boolean {
    if (part.length === 0) return space;
    if (space && part.charCodeAt(0) === 32) this.spaces = true;
    return part.charCodeAt(part.length - 1) === 32;
  }

  private push(out: string[], block: string, level = 0): void {
    out.push(block);
    if (out === this.top) this.levels.push(level);
    this.length += block.length + 1;
  }

  block(n: Node, out: string[]): void {
    const md = this.o.markdown;
    const level = HEADINGS[n.tag];
    if (level !== undefined) {
      const t = this.inlineText(n);
      if (t !== '') this.push(out, md ? `${'#'.repeat(level)} ${t}` : t, level);
      return;
    }
    switch (n.tag) {
      case 'pre':
        this.pre(n, out);
        return;
      case 'ul':
      case 'ol':
        this.list(n, out);
        return;
      case 'dl':
        if (md) {
          this.definitions(n, out);
          return;
        }
        break;
      case 'blockquote': {
        const inner: string[] = [];
        this.blocks(n, inner);
        if (inner.length === 0) return;
        this.push(out, md ? prefixLines(inner.join('\n\n'), '> ', '>') : inner.join(' '));
        return;
      }
      case 'table':
        if (this.table(n, out)) return;
        break;
      case 'hr':
        if (md) this.push(out, '---');
        return;
    }
    this.blocks(n, out);
  }

  private pre(n: Node, out: string[]): void {
    let code = rawText(n);
    if (code.startsWith('\n')) code = code.slice(1);
    code = code.replace(/\s+$/, '');
    if (code === '') return;
    if (!this.o.markdown) {
      this.push(out, code);
      return;
    }
    const fence = code.includes('```') ? '~~~~' : '```';
    this.push(out, `${fence}${codeLanguage(n)}\n${code}\n${fence}`);
  }

  private list(n: Node, out: string[]): void {
    const md = this.o.markdown;
    const ordered = n.tag === 'ol';
    let i = Number.parseInt(n.attrs.start ?? '1', 10);
    if (!Number.isFinite(i)) i = 1;
    const items: string[] = [];
    for (const k of n.kids) {
      if (typeof k === 'string' || this.skipped(k)) continue;
      const inner: string[] = [];
      if (k.tag === 'li') this.blocks(k, inner);
      else this.block(k, inner);
      if (inner.length === 0) continue;
      if (!md) {
        items.push(inner.join(' '));
        continue;
      }
      const marker = ordered ? `${i++}. ` : '- ';
      const pad = ' '.repeat(marker.length);
      // A nested list follows its item's text on the next line: the list stays tight.
      let body = inner[0]!;
      for (let j = 1; j < inner.length; j++) body += (NESTED_LIST.test(inner[j]!) ? '\n' : '\n\n') + inner[j];
      items.push(marker + body.replace(/\n(?=.)/g, `\n${pad}`));
    }
    if (items.length > 0) this.push(out, items.join(md ? '\n' : ' '));
  }

  /**
   * A definition list (option lists, API members, glossaries) in the Markdown form Pandoc and
   * PHP Markdown Extra read: each term on its own line, each definition under it after `:   `, its
   * further lines indented; a blank line between entries.
   */
  private definitions(n: Node, out: string[]): void {
    const entries: string[] = [];
    let terms: string[] = [];
    let defs: string[] = [];
    const close = () => {
      if (terms.length + defs.length > 0) entries.push([...terms, ...defs].join('\n'));
      terms = [];
      defs = [];
    };
    const add = (k: Node): void => {
      if (this.skipped(k)) return;
      // HTML lets a div group a term with its definitions.
      if (k.tag === 'div') {
        for (const g of k.kids) if (typeof g !== 'string') add(g);
        return;
      }
      if (k.tag === 'dt') {
        const t = this.inlineText(k).replace(/\n/g, ' ');
        if (t === '') return;
        if (defs.length > 0) close();
        terms.push(MD_LINE_START.test(t) ? `\\${t}` : t);
        return;
      }
      const inner: string[] = [];
      if (k.tag === 'dd') this.blocks(k, inner);
      else this.block(k, inner);
      if (inner.length > 0) defs.push(`:   ${inner.join('\n\n').replace(/\n(?=.)/g, '\n    ')}`);
    };
    for (const k of n.kids) if (typeof k !== 'string') add(k);
    close();
    if (entries.length > 0) this.push(out, entries.join('\n\n'));
  }

  /** A data table as rows of cells; false for a layout table (written as blocks instead). */
  private table(n: Node, out: string[]): boolean {
    const rows: Node[] = [];
    const collect = (t: Node): boolean => {
      for (const k of t.kids) {
        if (typeof k === 'string' || this.skipped(k)) continue;
        if (k.tag === 'tr') rows.push(k);
        else if (k.tag === 'thead' || k.tag === 'tbody' || k.tag === 'tfoot') collect(k);
        else if (k.tag === 'table') return false;
      }
      return true;
    };
    if (!collect(n) || rows.length === 0) return false;
    const cells = rows.map((r) =>
      r.kids
        .filter((c): c is Node => typeof c !== 'string' && (c.tag === 'td' || c.tag === 'th'))
        .map((c) => c),
    );
    const width = Math.max(...cells.map((r) => r.length));
    if (width <= 1 || cells.some((r) => r.some((c) => hasTable(c)))) return false;
    const md = this.o.markdown;
    const text = cells.map((r) => r.map((c) => this.cell(c)));
    const lines: string[] = [];
    for (const [i, r] of text.entries()) {
      if (!md) {
        const line = r.filter((c) => c !== '').join(' ');
        if (line !== '') lines.push(line);
        continue;
      }
      while (r.length < width) r.push('');
      lines.push(`| ${r.join(' | ')} |`);
      if (i === 0) lines.push(`|${' --- |'.repeat(width)}`);
    }
    if (lines.length > 0) this.push(out, lines.join(md ? '\n' : ' '));
    return true;
  }

  private cell(c: Node): string {
    const t = this.inlineText(c).replace(/\n/g, ' ');
    return this.o.markdown ? t.replace(/\|/g, '\\|') : t;
  }

  /** The finished inline text of a heading, a table cell or a term. */
  private inlineText(n: Node): string {
    this.spaces = false;
    return this.finishInline(this.inlineKids(n));
  }

  /** Inline content of an element, blocks flattened (headings and cells hold inline text only). */
  private inlineKids(n: Node): string {
    let s = '';
    let space = false;
    if (n.flags & FLAG.SPACES) this.spaces = true;
    for (const k of n.kids) {
      let part: string;
      if (typeof k === 'string') part = this.escape(k);
      else if (this.skipped(k)) continue;
      else if (k.flags & FLAG.BLOCK) {
        const inner = this.inline(k);
        // The spaces around a block meet its text's own and the text around it.
        if (space || inner.length === 0 || inner.charCodeAt(0) === 32 || inner.endsWith(' '))
          this.spaces = true;
        part = ` ${inner} `;
      } else part = this.inline(k);
      s += part;
      space = this.meet(space, part);
    }
    return s;
  }

  private inline(n: Node): string {
    if (n.tag === 'br') return BR;
    if (n.tag === 'img') return this.image(n);
    const inner = this.inlineKids(n);
    if (n.tag === 'a' && n.attrs.href?.startsWith('#') && PERMALINK.test(inner.trim())) return '';
    if (!this.o.markdown) return inner;
    switch (n.tag) {
      case 'a': {
        const href = this.url(n.attrs.href);
        const t = inner.replace(WS, ' ').trim();
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

  private image(n: Node): string {
    if (!this.o.markdown) return '';
    const src = this.url(n.attrs.src ?? n.attrs['data-src']);
    if (src === undefined || src.startsWith('data:')) return '';
    const alt = (n.attrs.alt ?? '')
      .replace(WS, ' ')
      .trim()
      .replace(/[[\]\\]/g, '\\$&');
    return `![${alt}](${src})`;
  }

  private url(href: string | undefined): string | undefined {
    if (href === undefined || href.trim() === '') return undefined;
    // Through the outlinks' cache: the same links, resolved once for both.
    const u = this.o.base ? resolveCached(href.trim(), this.o.base) : href.trim();
    if (u === undefined) return undefined;
    if (/^(?:javascript|vbscript):/i.test(u)) return undefined;
    return /[\s()<>]/.test(u) ? `<${u.replace(/[<>\s]/g, encodeURIComponent)}>` : u;
  }

  private escape(s: string): string {
    return this.o.markdown && HAS_MD_SPECIAL.test(s) ? s.replace(MD_SPECIAL, '\\$&') : s;
  }

  /** Whitespace collapsed (where `spaces` says there may be some to collapse), trimmed, breaks written. */
  private finishInline(s: string): string {
    const t = (this.spaces ? s.replace(WS, ' ') : s).trim();
    this.spaces = false;
    if (!t.includes(BR)) return t;
    const br = this.o.markdown ? '\\\n' : ' ';
    return t
      .replace(BR_RUN, BR)
      .replace(/^\u0001+|\u0001+$/g, '')
      .replaceAll(BR, br);
  }
}

/**
 * The main content as text (markdown false) or Markdown, cut at `maxLength` characters; a string of
 * its own (src/parse/strings.ts `detach`), never a view of the page.
 */
export function render(main: MainContent, o: RenderOptions): string {
  const r = new Renderer(o, main);
  const out = r.top;
  if (main.only) r.blocks(main.root, out, main.only);
  else r.block(main.root, out);
  // A heading with nothing under it titled what was left out ("Related posts" over a dropped list).
  const kept: string[] = [];
  let next = 0;
  for (let i = out.length - 1; i >= 0; i--) {
    const level = r.levels[i]!;
    if (level > 0 && (next === 0 ? i === out.length - 1 || kept.length === 0 : next <= level)) continue;
    kept.push(out[i]!);
    next = level;
  }
  kept.reverse();
  const s = kept.join(o.markdown ? '\n\n' : ' ');
  if (o.maxLength > 0 && s.length > o.maxLength) return detach(s.slice(0, o.maxLength));
  // A join of two or more parts is a new flat string, sharing no memory with the page: copying it
  // again (detach) was 3.5% of a 90 KB page's parse. One part may be a view of the page's text.
  return kept.length > 1 ? s : detach(s);
}
