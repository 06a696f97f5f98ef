/**
 * Trimming of the chosen content (src/parse/html/main-content.ts), once the container is chosen; no
 * per-site rule, only what the blocks are and say:
 * - `trimDeclared`: a declared container (`<main>`, `<article>`, articleBody) that also holds what
 *   follows the article (author box, related links, share bar, newsletter box) loses what comes after
 *   the block holding most of its text, unless it reads as prose (the rest of a split article);
 * - `trimFurniture`: short blocks (under 150 visible characters) that name themselves as furniture
 *   ("Read also: ...", "Related articles", "Subscribe to our newsletter", "Follow us", "Photo: ...",
 *   "© ...", "Advertisement", "3 comments": phrase families in English, German, French, Spanish and
 *   Polish, so a page in another language keeps them), and a date line before the first paragraph
 *   of prose (the publication date is metadata, not what the page says). Longer blocks are prose
 *   whatever words they hold.
 */

import { isOtherSpace } from '../strings.js';
import { insideGeneratorMain, isGeneratorMain } from './declared-main.js';
import { isFurnitureBlock, mayBeFurniture } from './furniture.js';
import { keptText, readsAsProse } from './measures.js';
import { FLAG, type Node } from './tree.js';

/**
 * The block inside a declared container that holds most of its text: followed down from the
 * container through the child holding 60% of its text and at least two paragraphs (a walk down one
 * path, no scoring of the subtree).
 */
function bulkOf(sig: Node): Node | undefined {
  let at = sig;
  for (;;) {
    let next: Node | undefined;
    for (const k of at.kids)
      if (typeof k !== 'string' && !(k.flags & FLAG.DROP) && k.paras >= 2 && k.chars >= sig.chars * 0.6)
        next = k;
    if (!next) break;
    at = next;
  }
  return at === sig ? undefined : at;
}

/**
 * In a declared container, leaves out what follows the block holding most of its text (at every
 * level up to the container), unless it reads as prose: 80 characters or more, few links, paragraphs.
 */
export function trimDeclared(sig: Node): void {
  const bulk = bulkOf(sig);
  if (!bulk) return;
  for (let a: Node = bulk; a !== sig && a.parent; a = a.parent) {
    const kids = a.parent.kids;
    for (let i = kids.indexOf(a) + 1; i < kids.length; i++) {
      const k = kids[i]!;
      if (typeof k === 'string' || k.flags & FLAG.DROP || k.chars === 0) continue;
      if (readsAsProse(k)) continue;
      k.flags |= FLAG.DROP;
    }
  }
}

/** What trimming reads of the chosen content (main-content.ts's MainContent: that file imports this one). */
interface Chosen {
  readonly root: Node;
  readonly only?: ReadonlySet<Node> | undefined;
  readonly selected?: boolean | undefined;
}

/** Blocks this long or longer are never furniture; the first of them with few links starts the prose. */
const SHORT = 150;
/** A block shorter than this that holds a date or a time, before the prose, is a date line. */
const DATE_LINE = 40;

const DATE = /\b(?:1[89]|20)\d\d\b|\b\d{1,2}[./-]\s?\d{1,2}[./-]\s?\d{2,4}\b|\b\d{1,2}:\d\d\b/;

/**
 * The leaf blocks of the content (blocks holding no block), in reading order; none inside a
 * generator's main block (declared-main.ts): all of it is what the page says, and documentation's
 * prose names the words of furniture ("The copyright string.", "Advances the iterator. Read more",
 * a contents line "28.2.10. pg_stat_ssl" read as a date).
 */
function leafBlocks(main: Chosen): Node[] {
  const out: Node[] = [];
  if (isGeneratorMain(main.root) || insideGeneratorMain(main.root)) return out;
  const walk = (n: Node, only?: ReadonlySet<Node>) => {
    for (const k of n.kids) {
      if (typeof k === 'string' || k.chars === 0 || k.flags & FLAG.DROP || (only && !only.has(k))) continue;
      // Inline elements (most of a page's) are neither walked nor kept: asked first.
      if (!(k.flags & (FLAG.BLOCK | FLAG.HAS_BLOCK)) || isGeneratorMain(k)) continue;
      if (k.flags & FLAG.HAS_BLOCK) walk(k);
      else out.push(k);
    }
  };
  walk(main.root, main.only);
  return out;
}

/**
 * The visible text of a short block, whitespace collapsed. Only the runs that are not already one
 * space are replaced (the same result as replacing every `\s+`): rewriting each lone space was 5%
 * of a page's parse on the bench web; and the expression runs only on a text that holds such a run
 * (`hasSpaceRun`, one loop): trying it at every character of every short block was a fifth of the
 * trimming's cost there.
 */
const keptSpaced = (n: Node): string => {
  const t = keptText(n);
  return (hasSpaceRun(t) ? t.replace(SPACE_RUNS, ' ') : t).trim();
};
const SPACE_RUNS = /\s{2,}|(?! )\s/g;

/** Whether `SPACE_RUNS` matches `s`: two whitespace characters in a row, or one that is not a space. */
export function hasSpaceRun(s: string): boolean {
  let space = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 32) {
      if (space) return true;
      space = true;
    } else if (c < 32 ? c >= 9 && c <= 13 : c >= 0xa0 && isOtherSpace(c)) return true;
    else space = false;
  }
  return false;
}

/** Marks the furniture lines of the chosen content as dropped (what an include selector matched is left whole). */
export function trimFurniture(main: Chosen): void {
  if (main.selected) return;
  let prose = false;
  const dates: Node[] = [];
  for (const b of leafBlocks(main)) {
    if (b.chars >= SHORT) {
      if (!prose && b.linkChars < b.chars * 0.3) {
        prose = true;
        for (const d of dates) d.flags |= FLAG.DROP;
      }
      continue;
    }
    // The text is built only for the blocks that need it: most hold no phrase (mayBeFurniture,
    // read from the text nodes once; the phrases are then matched on the text without it).
    const maybe = mayBeFurniture(b);
    const dateLine = !prose && b.chars < DATE_LINE;
    if (!maybe && !dateLine) continue;
    const text = keptSpaced(b);
    if (maybe && isFurnitureBlock(b, text)) b.flags |= FLAG.DROP;
    else if (dateLine && DATE.test(text)) dates.push(b);
  }
}
