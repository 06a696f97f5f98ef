import { codeLanguage } from './code-language.js';
import { linksAreCode } from './code-links.js';
import type { MainContent } from './main-content.js';
import {
  captionRows,
  type Outs,
  type Writer,
  writeDefinitions,
  writeList,
  writeTable,
} from './markdown-lists.js';
import {
  BR,
  decorate,
  escapeLineStart,
  escapeMarkdown,
  finishInline,
  hasTitle,
  isWholeItem,
  joinBlocks,
  markdownImage,
  prefixLines,
  rawText,
} from './markdown-parts.js';
import { isCardOrGrid, isTeaser } from './teasers.js';
import { FLAG, type Node } from './tree.js';

/**
 * Writes the main content (src/parse/html/main-content.ts) as plain text and as Markdown, both in
 * one walk of the light tree (the skip tests, link-density checks and inline recursion are shared;
 * each output has its own strings, length and whitespace state):
 * - text: as the whole-page text (src/parse/html/text.ts) reads: whitespace runs collapsed to one
 *   space, blocks (paragraphs, headings, list items, table cells) separated by a space, `<pre>`
 *   kept as is;
 * - Markdown (CommonMark + GFM tables): ATX headings, `**strong**`, `*emphasis*`, inline code, nested
 *   lists, fenced code keeping its lines (language from a `language-*` / `lang-*` class), block
 *   quotes, tables with a header row, links and images made absolute against the base URL.
 * Layout tables (nested tables, one column) are written as the blocks they hold. A caption is in
 * the Markdown only: the walk visits it for the Markdown alone. Each output is what a walk writing
 * it alone would write (scripts/bench/content-hashes.mjs checks this on 5,389 real pages).
 */

export interface RenderOptions {
  /** Which outputs to write (at least one). */
  readonly text: boolean;
  readonly markdown: boolean;
  /** Resolves links and images; undefined leaves them as written. */
  readonly base: URL | undefined;
  /** -1 = no limit; each output is cut at it. */
  readonly maxLength: number;
}

/** The outputs, '' for one not asked for. */
export interface Rendered {
  readonly text: string;
  readonly markdown: string;
}

const HEADINGS: Record<string, number> = { h1: 1, h2: 2, h3: 3, h4: 4, h5: 5, h6: 6 };
// Containers left out when mostly links. Not inline elements: a `<span>` or `<code>` inside a link
// is the link's text (Sphinx writes `<a><code><span>NAME</span></code></a>`), not a link list.
const LINK_DENSE_CONTAINERS = new Set(['div', 'section', 'ul', 'ol', 'dl', 'table', 'form', 'p']);
// What a declared main block keeps whatever its links: the tables and lists it is made of.
const LINK_LISTS = new Set(['ul', 'ol', 'dl', 'table']);
/** A permalink to a heading ("¶", "#", "§"): an icon, not text. */
const PERMALINK = /^[^\p{L}\p{N}]?$/u;
/** `visits` bits: the element is written into the text, into the Markdown. */
const T = 1;
const M = 2;

class Renderer implements Writer {
  /**
   * Which outputs the walk writes now. An element one output skips (a caption: Markdown only) or
   * one past an output's length is visited with that output off; every write and every state
   * change of an output is guarded by its flag, so each output sees what a walk of its own saw.
   */
  t: boolean;
  m: boolean;
  private tLength = 0;
  private mLength = 0;
  /**
   * Whether the inline text being built may hold whitespace to collapse: some of its text does
   * (FLAG.SPACES, found as the tree was built) or two of its parts meet space to space. Testing
   * every paragraph with the whitespace expression instead was a third of a 90 KB page's render.
   */
  private tSpaces = false;
  private mSpaces = false;
  /** The Markdown beside the text an inline method returns (read right after the call). */
  mi = '';
  /** The top-level blocks and, beside them, their heading level (0 for other blocks). */
  readonly top: Outs = { t: [], m: [] };
  readonly tLevels: number[] = [];
  readonly mLevels: number[] = [];

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
    this.t = o.text;
    this.m = o.markdown;
    this.pruneLinks = main.pruneLinks;
    this.declared = main.declared;
    this.pruneTeasers = main.pruneTeasers === true;
    this.selected = main.selected ?? false;
    this.listing = main.listing === true;
  }

  private full(length: number): boolean {
    return this.o.maxLength > 0 && length >= this.o.maxLength;
  }

  /** Which of the outputs now written visit `n` (bits T, M; 0 when both skip it). */
  visits(n: Node): number {
    if (this.selected) return n.flags & FLAG.EXCLUDED ? 0 : (this.t ? T : 0) | (this.m ? M : 0);
    if (n.flags & FLAG.DROP) return 0;
    if (this.pruneTeasers && isTeaser(n)) return 0;
    if (
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
    )
      return 0;
    return (this.t && !(n.flags & FLAG.CAPTION) ? T : 0) | (this.m ? M : 0);
  }

  on(v: number): void {
    this.t = (v & T) !== 0;
    this.m = (v & M) !== 0;
  }

  /** The blocks of a container, in order. */
  blocks(n: Node, out: Outs, only?: ReadonlySet<Node>): void {
    const t0 = this.t;
    const m0 = this.m;
    let tOn = t0;
    let mOn = m0;
    // Each output's paragraph: its inline parts so far, whether it has any, whether it ends with a space.
    let tp = '';
    let mp = '';
    let tAny = false;
    let mAny = false;
    let tEnd = false;
    let mEnd = false;
    if (t0) this.tSpaces = false;
    if (m0) this.mSpaces = false;
    // The paragraphs are written by methods, not closures over these variables: captured, they
    // lived in a context allocated for each container, read and written there for every kid.
    for (const k of n.kids) {
      // An output past its length takes no more of this container (its paragraph is still written).
      if (tOn && this.full(this.tLength)) tOn = false;
      if (mOn && this.full(this.mLength)) mOn = false;
      if (!tOn && !mOn) break;
      if (typeof k === 'string') {
        if (n.flags & FLAG.SPACES) {
          if (tOn) this.tSpaces = true;
          if (mOn) this.mSpaces = true;
        }
        if (tOn) {
          tp += k;
          tAny = true;
          tEnd = this.meetT(tEnd, k);
        }
        if (mOn) {
          const e = n.flags & FLAG.PRE || !(n.flags & FLAG.MD_CHARS) ? k : escapeMarkdown(k);
          mp += e;
          mAny = true;
          mEnd = this.meetM(mEnd, e);
        }
        continue;
      }
      if (only && !only.has(k)) continue;
      this.t = tOn;
      this.m = mOn;
      const v = this.visits(k);
      if (v === 0) continue;
      this.on(v);
      if (!(k.flags & (FLAG.BLOCK | FLAG.HAS_BLOCK)) || k.tag === 'br') {
        const ti = this.inline(k);
        const mi = this.mi;
        if (this.t) {
          tp += ti;
          tAny = true;
          tEnd = this.meetT(tEnd, ti);
        }
        if (this.m) {
          mp += mi;
          mAny = true;
          mEnd = this.meetM(mEnd, mi);
        }
        continue;
      }
      if (this.t && tAny) {
        this.flushT(out, tp);
        tp = '';
        tAny = false;
        tEnd = false;
      }
      if (this.m && mAny) {
        this.flushM(out, mp);
        mp = '';
        mAny = false;
        mEnd = false;
      }
      this.block(k, out);
    }
    if (tAny) this.flushT(out, tp);
    if (mAny) this.flushM(out, mp);
    this.t = t0;
    this.m = m0;
  }

  /** Writes a paragraph's text (`blocks`). */
  private flushT(out: Outs, tp: string): void {
    const s = finishInline(tp, this.tSpaces, false);
    this.tSpaces = false;
    if (s !== '') this.pushT(out.t, s);
  }

  /** Writes a paragraph's Markdown (`blocks`). */
  private flushM(out: Outs, mp: string): void {
    const s = finishInline(mp, this.mSpaces, true);
    this.mSpaces = false;
    if (s !== '') this.pushM(out.m, escapeLineStart(s));
  }

  /** Notes two parts meeting space to space (see `tSpaces`); returns whether the text now ends with a space. */
  private meetT(space: boolean, part: string): boolean {
    if (part.length === 0) return space;
    if (space && part.charCodeAt(0) === 32) this.tSpaces = true;
    return part.charCodeAt(part.length - 1) === 32;
  }

  private meetM(space: boolean, part: string): boolean {
    if (part.length === 0) return space;
    if (space && part.charCodeAt(0) === 32) this.mSpaces = true;
    return part.charCodeAt(part.length - 1) === 32;
  }

  pushT(out: string[], block: string, level = 0): void {
    out.push(block);
    if (out === this.top.t) this.tLevels.push(level);
    this.tLength += block.length + 1;
  }

  pushM(out: string[], block: string, level = 0): void {
    out.push(block);
    if (out === this.top.m) this.mLevels.push(level);
    this.mLength += block.length + 1;
  }

  /** Writes `n` into each output now on, one at a time (where the two read it differently). */
  private apart(n: Node, out: Outs): void {
    const t = this.t;
    this.t = false;
    this.block(n, out);
    this.t = t;
    this.m = false;
    this.block(n, out);
    this.m = true;
  }

  block(n: Node, out: Outs): void {
    // A definition list is a list in the Markdown, blocks in the text; a table with a row that is a
    // caption (text skips it) may be a data table in one and a layout table in the other.
    if (this.t && this.m && (n.tag === 'dl' || (n.tag === 'table' && !this.selected && captionRows(n)))) {
      this.apart(n, out);
      return;
    }
    const level = HEADINGS[n.tag];
    if (level !== undefined) {
      const t = this.inlineText(n);
      const m = this.mi;
      if (this.t && t !== '') this.pushT(out.t, t, level);
      if (this.m && m !== '') this.pushM(out.m, `${'#'.repeat(level)} ${m}`, level);
      return;
    }
    switch (n.tag) {
      case 'pre':
        this.pre(n, out);
        return;
      case 'ul':
      case 'ol':
        writeList(this, n, out);
        return;
      case 'dl':
        if (this.m) {
          writeDefinitions(this, n, out);
          return;
        }
        break;
      case 'blockquote': {
        const inner: Outs = { t: [], m: [] };
        this.blocks(n, inner);
        if (this.t && inner.t.length > 0) this.pushT(out.t, inner.t.join(' '));
        if (this.m && inner.m.length > 0) this.pushM(out.m, prefixLines(inner.m.join('\n\n'), '> ', '>'));
        return;
      }
      case 'table':
        if (writeTable(this, n, out)) return;
        break;
      case 'hr':
        if (this.m) this.pushM(out.m, '---');
        return;
    }
    this.blocks(n, out);
  }

  private pre(n: Node, out: Outs): void {
    let code = rawText(n);
    if (code.startsWith('\n')) code = code.slice(1);
    code = code.replace(/\s+$/, '');
    if (code === '') return;
    if (this.t) this.pushT(out.t, code);
    if (!this.m) return;
    const fence = code.includes('```') ? '~~~~' : '```';
    this.pushM(out.m, `${fence}${codeLanguage(n)}\n${code}\n${fence}`);
  }

  /** The finished inline text of a heading, a table cell or a term; its Markdown in `mi`. */
  inlineText(n: Node): string {
    if (this.t) this.tSpaces = false;
    if (this.m) this.mSpaces = false;
    const t = this.inlineKids(n);
    if (this.m) {
      this.mi = finishInline(this.mi, this.mSpaces, true);
      this.mSpaces = false;
    }
    if (!this.t) return '';
    const s = finishInline(t, this.tSpaces, false);
    this.tSpaces = false;
    return s;
  }

  /**
   * Inline content of an element, blocks flattened (headings and cells hold inline text only): the
   * text returned, the Markdown in `mi`.
   */
  private inlineKids(n: Node): string {
    const t0 = this.t;
    const m0 = this.m;
    let ts = '';
    let ms = '';
    let tEnd = false;
    let mEnd = false;
    if (n.flags & FLAG.SPACES) {
      if (t0) this.tSpaces = true;
      if (m0) this.mSpaces = true;
    }
    for (const k of n.kids) {
      let tp: string;
      let mp: string;
      this.t = t0;
      this.m = m0;
      if (typeof k === 'string') {
        tp = k;
        mp = !m0 ? '' : n.flags & FLAG.MD_CHARS ? escapeMarkdown(k) : k;
      } else {
        const v = this.visits(k);
        if (v === 0) continue;
        this.on(v);
        tp = this.inline(k);
        mp = this.mi;
        if (k.flags & FLAG.BLOCK) {
          // The spaces around a block meet its text's own and the text around it.
          if (this.t) {
            if (tEnd || tp.length === 0 || tp.charCodeAt(0) === 32 || tp.endsWith(' ')) this.tSpaces = true;
            tp = ` ${tp} `;
          }
          if (this.m) {
            if (mEnd || mp.length === 0 || mp.charCodeAt(0) === 32 || mp.endsWith(' ')) this.mSpaces = true;
            mp = ` ${mp} `;
          }
        }
      }
      if (this.t) {
        ts += tp;
        tEnd = this.meetT(tEnd, tp);
      }
      if (this.m) {
        ms += mp;
        mEnd = this.meetM(mEnd, mp);
      }
    }
    this.t = t0;
    this.m = m0;
    this.mi = ms;
    return ts;
  }

  /** An inline element's text (returned) and Markdown (in `mi`). */
  private inline(n: Node): string {
    if (n.tag === 'br') {
      this.mi = BR;
      return BR;
    }
    if (n.tag === 'img') {
      this.mi = this.m ? markdownImage(n, this.o.base) : '';
      return '';
    }
    // Whether the element's own Markdown may hold whitespace to collapse (for decorate): what its
    // kids note, apart from what its paragraph noted before it (added back after).
    const before = this.mSpaces;
    this.mSpaces = false;
    let t = this.inlineKids(n);
    const m = this.mi;
    const spaces = this.mSpaces;
    this.mSpaces ||= before;
    if (n.tag === 'a' && n.attrs.href?.startsWith('#')) {
      if (this.t && PERMALINK.test(t.trim())) t = '';
      if (this.m && PERMALINK.test(m.trim())) {
        this.mi = '';
        return t;
      }
    }
    this.mi = this.m ? decorate(n, m, this.o.base, spaces) : '';
    return t;
  }
}

/**
 * The main content as text and Markdown (each '' unless asked for), each cut at `maxLength`
 * characters; strings of their own (src/parse/strings.ts `detach`), never views of the page.
 */
export function render(main: MainContent, o: RenderOptions): Rendered {
  const r = new Renderer(o, main);
  if (main.only) r.blocks(main.root, r.top, main.only);
  else r.block(main.root, r.top);
  return {
    text: o.text ? joinBlocks(r.top.t, r.tLevels, ' ', o.maxLength) : '',
    markdown: o.markdown ? joinBlocks(r.top.m, r.mLevels, '\n\n', o.maxLength) : '',
  };
}
