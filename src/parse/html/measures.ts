import { FLAG, type Node } from './tree.js';

/**
 * What the main-content rules read of a built node (src/parse/html/tree.ts builds it, with its
 * visible and link characters counted): paragraphs and their score, link density, prose, kept text.
 * One definition each, so that the candidate scoring, the loose text runs, the fallback share and
 * the trimming agree on what a paragraph is.
 */

/** Elements whose own text is a paragraph of prose. */
export const PROSE_TAGS = new Set(['p', 'pre', 'td', 'blockquote', 'li', 'dd']);

/** h1 to h6 (what `/^h[1-6]$/` matches, without an expression run on every element's tag). */
export const isHeading = (tag: string): boolean => {
  const c = tag.charCodeAt(1);
  return tag.length === 2 && tag.charCodeAt(0) === 104 && c >= 49 && c <= 54;
};

/** Fewer visible characters than this make a label, a date, a caption line: not a paragraph. */
export const MIN_PARAGRAPH = 25;

/** A prose element long enough to be a paragraph. */
export const isParagraph = (n: Node): boolean => PROSE_TAGS.has(n.tag) && n.chars >= MIN_PARAGRAPH;

/** What a paragraph adds to its block's prose score (Readability's: 1, plus 1 per 100 characters up to 3). */
export const paragraphScore = (chars: number): number => 1 + Math.min(chars / 100, 3);

/** The share of a node's visible characters that are inside links. */
export const linkDensity = (n: Node): number => (n.chars === 0 ? 0 : n.linkChars / n.chars);

/** A block that reads as prose wherever it sits: 80 characters or more, few links, paragraphs. */
export const readsAsProse = (n: Node): boolean =>
  n.chars >= 80 && linkDensity(n) < 0.25 && (PROSE_TAGS.has(n.tag) || n.paras > 0);

/** The text of a subtree without its dropped elements; `between` goes before each element's text. */
export function keptText(n: Node, between = ''): string {
  const parts: string[] = [];
  const walk = (m: Node): void => {
    for (const k of m.kids) {
      if (typeof k === 'string') parts.push(k);
      else if (!(k.flags & FLAG.DROP)) {
        if (between !== '') parts.push(between);
        walk(k);
      }
    }
  };
  walk(n);
  return parts.join('');
}
