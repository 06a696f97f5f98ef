import { keptText } from './measures.js';
import { FLAG, type Node } from './tree.js';

/**
 * Whether a block carries the page's own title: its first heading says what the page's `<title>` or
 * Open Graph title says. A page that shows several articles (the story and cards of others, each an
 * `<article>`) names the one it is about in its title; the cards' headings name other pages.
 */

const WORD = /[\p{L}\p{N}]+/gu;
/** A heading of fewer words ("News", "Top stories") says nothing about which article is the page's. */
const MIN_WORDS = 3;
/** The share of the heading's words the title must hold (titles add a site name, a kicker, a date). */
const MIN_SHARE = 0.7;
/** Headings are searched this deep only: an article's title comes before its body. */
const MAX_VISITED = 200;

const words = (s: string): string[] => s.toLowerCase().match(WORD) ?? [];

/** The words of the page's titles, one set per title given (`<title>`, og:title). */
export function titleWords(titles: readonly (string | undefined)[]): Set<string>[] {
  const out: Set<string>[] = [];
  for (const t of titles) {
    const w = t === undefined ? [] : words(t);
    if (w.length > 0) out.push(new Set(w));
  }
  return out;
}

/** The text of the first kept h1-h3 of a subtree (document order), if it has one near its start. */
function firstHeading(root: Node): string | undefined {
  let visited = 0;
  let found: Node | undefined;
  const walk = (n: Node): void => {
    for (const k of n.kids) {
      if (found || visited > MAX_VISITED) return;
      if (typeof k === 'string' || k.flags & FLAG.DROP) continue;
      visited++;
      if ((k.tag === 'h1' || k.tag === 'h2' || k.tag === 'h3') && k.chars > 0) found = k;
      else walk(k);
    }
  };
  walk(root);
  return found && keptText(found, ' ');
}

/** Whether the first heading of `n` is (nearly) one of the titles. */
export function headingMatchesTitle(n: Node, titles: readonly Set<string>[]): boolean {
  if (titles.length === 0) return false;
  const heading = firstHeading(n);
  if (heading === undefined) return false;
  const w = words(heading);
  if (w.length < MIN_WORDS) return false;
  return titles.some((t) => w.filter((x) => t.has(x)).length >= w.length * MIN_SHARE);
}
