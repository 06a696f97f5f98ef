import { escapeLineStart, hasTable } from './markdown-parts.js';
import type { Node } from './tree.js';
import { FLAG } from './tree.js';

/**
 * Lists, definition lists and tables for the text and Markdown writer (markdown.ts), written into
 * each output the walk has on (`Writer.t`, `Writer.m`) in one pass over their items.
 */

/** A list of blocks per output: `t` for the text, `m` for the Markdown. */
export interface Outs {
  readonly t: string[];
  readonly m: string[];
}

/** What these writers use of the renderer (markdown.ts). */
export interface Writer {
  /** Which outputs are written now. */
  t: boolean;
  m: boolean;
  /** The Markdown beside the text `inlineText` returned. */
  readonly mi: string;
  /** Which outputs now on visit `n` (bits T, M; 0 when both skip it). */
  visits(n: Node): number;
  /** Turns on the outputs of a `visits` answer. */
  on(v: number): void;
  blocks(n: Node, out: Outs): void;
  block(n: Node, out: Outs): void;
  inlineText(n: Node): string;
  pushT(out: string[], block: string, level?: number): void;
  pushM(out: string[], block: string, level?: number): void;
}

const NESTED_LIST = /^(?:- |\d{1,9}\. )/;
const TABLE_PARTS = new Set(['thead', 'tbody', 'tfoot']);

export function writeList(w: Writer, n: Node, out: Outs): void {
  const t0 = w.t;
  const m0 = w.m;
  const ordered = n.tag === 'ol';
  let i = Number.parseInt(n.attrs.start ?? '1', 10);
  if (!Number.isFinite(i)) i = 1;
  let ts = '';
  let ms = '';
  for (const k of n.kids) {
    if (typeof k === 'string') continue;
    w.t = t0;
    w.m = m0;
    const v = w.visits(k);
    if (v === 0) continue;
    w.on(v);
    const inner: Outs = { t: [], m: [] };
    if (k.tag === 'li') w.blocks(k, inner);
    else w.block(k, inner);
    if (w.t && inner.t.length > 0) ts += (ts === '' ? '' : ' ') + inner.t.join(' ');
    if (!w.m || inner.m.length === 0) continue;
    const marker = ordered ? `${i++}. ` : '- ';
    const pad = ' '.repeat(marker.length);
    // A nested list follows its item's text on the next line: the list stays tight.
    let body = inner.m[0]!;
    for (let j = 1; j < inner.m.length; j++)
      body += (NESTED_LIST.test(inner.m[j]!) ? '\n' : '\n\n') + inner.m[j];
    ms += (ms === '' ? '' : '\n') + marker + body.replace(/\n(?=.)/g, `\n${pad}`);
  }
  w.t = t0;
  w.m = m0;
  if (t0 && ts !== '') w.pushT(out.t, ts);
  if (m0 && ms !== '') w.pushM(out.m, ms);
}

/**
 * A definition list (option lists, API members, glossaries) in the Markdown form Pandoc and
 * PHP Markdown Extra read: each term on its own line, each definition under it after `:   `, its
 * further lines indented; a blank line between entries. Markdown only (`block` writes it apart).
 */
export function writeDefinitions(w: Writer, n: Node, out: Outs): void {
  const entries: string[] = [];
  let terms: string[] = [];
  let defs: string[] = [];
  const close = () => {
    if (terms.length + defs.length > 0) entries.push([...terms, ...defs].join('\n'));
    terms = [];
    defs = [];
  };
  const add = (k: Node): void => {
    if (w.visits(k) === 0) return;
    // HTML lets a div group a term with its definitions.
    if (k.tag === 'div') {
      for (const g of k.kids) if (typeof g !== 'string') add(g);
      return;
    }
    if (k.tag === 'dt') {
      w.inlineText(k);
      const t = w.mi.replace(/\n/g, ' ');
      if (t === '') return;
      if (defs.length > 0) close();
      terms.push(escapeLineStart(t));
      return;
    }
    const inner: Outs = { t: [], m: [] };
    if (k.tag === 'dd') w.blocks(k, inner);
    else w.block(k, inner);
    if (inner.m.length > 0) defs.push(`:   ${inner.m.join('\n\n').replace(/\n(?=.)/g, '\n    ')}`);
  };
  for (const k of n.kids) if (typeof k !== 'string') add(k);
  close();
  if (entries.length > 0) w.pushM(out.m, entries.join('\n\n'));
}

/** Whether a row or row group of the table is a caption (read by the Markdown only). */
export function captionRows(n: Node): boolean {
  for (const k of n.kids) {
    if (typeof k === 'string') continue;
    if (k.flags & FLAG.CAPTION || (TABLE_PARTS.has(k.tag) && captionRows(k))) return true;
  }
  return false;
}

/** A data table as rows of cells; false for a layout table (written as blocks instead). */
export function writeTable(w: Writer, n: Node, out: Outs): boolean {
  const rows: Node[] = [];
  const collect = (t: Node): boolean => {
    for (const k of t.kids) {
      if (typeof k === 'string' || w.visits(k) === 0) continue;
      if (k.tag === 'tr') rows.push(k);
      else if (TABLE_PARTS.has(k.tag)) collect(k);
      else if (k.tag === 'table') return false;
    }
    return true;
  };
  if (!collect(n) || rows.length === 0) return false;
  const cells = rows.map((r) =>
    r.kids.filter((c): c is Node => typeof c !== 'string' && (c.tag === 'td' || c.tag === 'th')),
  );
  const width = Math.max(...cells.map((r) => r.length));
  if (width <= 1 || cells.some((r) => r.some((c) => hasTable(c)))) return false;
  let ts = '';
  let ms = '';
  for (const [i, r] of cells.entries()) {
    let tl = '';
    const ml: string[] = [];
    for (const c of r) {
      const t = w.inlineText(c).replace(/\n/g, ' ');
      if (w.t && t !== '') tl += (tl === '' ? '' : ' ') + t;
      if (w.m) ml.push(w.mi.replace(/\n/g, ' ').replace(/\|/g, '\\|'));
    }
    if (w.t && tl !== '') ts += (ts === '' ? '' : ' ') + tl;
    if (!w.m) continue;
    while (ml.length < width) ml.push('');
    ms += `${ms === '' ? '' : '\n'}| ${ml.join(' | ')} |`;
    if (i === 0) ms += `\n|${' --- |'.repeat(width)}`;
  }
  if (w.t && ts !== '') w.pushT(out.t, ts);
  if (w.m && ms !== '') w.pushM(out.m, ms);
  return true;
}
