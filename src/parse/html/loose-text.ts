import { MIN_PARAGRAPH, paragraphScore } from './measures.js';
import { FLAG, type Node, visibleChars } from './tree.js';

/**
 * Paragraphs written without `<p>`: runs of text straight in a `<div>` (or a `<section>`, a
 * `<font>`...), between `<br>`s or other blocks. Readability turns them into paragraphs before it
 * scores; without that, an article written so (a news site's `<div class="content">text<br><br>
 * text...`) scores nothing and loses to the link lists around it.
 */

const MIN_RUNS = 2;

/**
 * The prose score of the loose text runs right in `n` (its text kids and inline elements between
 * block kids), each scored as the candidate scoring scores a paragraph; links do not count.
 */
export function looseScore(n: Node): number {
  let score = 0;
  let runs = 0;
  let chars = 0;
  let links = 0;
  const end = () => {
    if (chars >= MIN_PARAGRAPH && links < chars / 2) {
      score += paragraphScore(chars);
      runs++;
    }
    chars = 0;
    links = 0;
  };
  for (const k of n.kids) {
    if (typeof k === 'string') chars += visibleChars(k);
    else if (k.flags & (FLAG.BLOCK | FLAG.HAS_BLOCK)) end();
    else if (!(k.flags & FLAG.DROP)) {
      chars += k.chars;
      links += k.linkChars;
    }
  }
  end();
  // One run is a line of text in a box (a byline, a caption, a line of a layout in divs): only
  // paragraphs, two or more, make a block of prose.
  return runs >= MIN_RUNS ? score : 0;
}
