import { isHeading } from './measures.js';
import { FLAG, type Node } from './tree.js';

/**
 * Sections kept together: a page cut into sibling sections (an asciidoc man page's NAME, SYNOPSIS,
 * DESCRIPTION, OPTIONS as `div.sect1` blocks, DocBook's `div.refsect1`, HTML `<section>`s, an
 * article split under one wrapper per part) is the run of those sections, not the one that scores
 * best. The best block is followed up through its wrappers (a parent holding nothing else, or only
 * the section's heading beside it) to the highest one that has a twin: a sibling of the same tag and
 * class with prose in it. When the twins hold most of their parent's text, the parent is the content
 * (intro and closing lines with it); else the twins join the best block (main-content.ts's
 * withSiblings), the short ones too (a NAME section of one line is still a section of the page).
 */

/** Whether two blocks are sections alike: the same tag and class (`<section>`s need no class). */
export function alike(a: Node, b: Node): boolean {
  if (a.tag !== b.tag) return false;
  const cls = a.attrs.class;
  if (cls === undefined || cls.trim() === '')
    return a.tag === 'section' && (b.attrs.class ?? '').trim() === '';
  return b.attrs.class === cls;
}

const kept = (k: Node | string): k is Node => typeof k !== 'string' && !(k.flags & FLAG.DROP) && k.chars > 0;

/** A kept sibling alike with prose in it: another section of the same page. */
function hasTwin(n: Node): boolean {
  return n.parent?.kids.some((k) => kept(k) && k !== n && k.paras > 0 && alike(k, n)) === true;
}

/** The parent holds nothing but `n` and headings: `n` is the body of one titled section. */
function onlyTitledBy(n: Node): boolean {
  const p = n.parent!;
  return p.kids.every((k) => !kept(k) || k === n || isHeading(k.tag));
}

/** The section the best block is the body of, when the page has sections alike; else undefined. */
export function sectionOf(best: Node, body: Node): Node | undefined {
  let found: Node | undefined = best.parent && best.parent !== body && hasTwin(best) ? best : undefined;
  for (let n = best; n.parent && n.parent !== body; ) {
    if (n.parent.chars !== n.chars && !onlyTitledBy(n)) break;
    n = n.parent;
    if (hasTwin(n)) found = n;
  }
  return found;
}

/** Sections alike holding this share of their parent's text make the parent the page's content. */
const RUN = 0.6;

/**
 * Whether the section's parent is a run of sections (with perhaps an intro and a closing line):
 * then the parent is the content, not its best child.
 */
export function isRunOfSections(section: Node): boolean {
  const p = section.parent;
  if (!p) return false;
  let chars = 0;
  for (const k of p.kids) if (kept(k) && alike(k, section)) chars += k.chars;
  return chars >= p.chars * RUN;
}
