import type { TextSettings } from '../settings.js';
import { detach } from '../strings.js';
import { type MainContent, selectMainContent } from './main-content.js';
import { render } from './markdown.js';
import { matches } from './selectors.js';
import { FLAG, type Node, type TreeBuilder } from './tree.js';
import { trimFurniture } from './trim.js';

/** The page's main content as text and Markdown. */
export interface PageContent {
  /** undefined when an include selector matched: its text (TextCollector's) wins. */
  readonly text: string | undefined;
  readonly markdown: string | undefined;
}

/**
 * The main content of a built tree. With `textextractor.include.pattern` matching (`included` is the
 * index of the first selector that matched, else -1), the matched elements are the content, as in
 * StormCrawler; otherwise the extractor chooses (src/parse/html/main-content.ts).
 */
export function mainContent(
  tree: TreeBuilder,
  s: TextSettings,
  page: {
    readonly included: number;
    readonly base: URL | undefined;
    /** The page's titles (title, meta title, og:title), for the extractor's title test. */
    readonly titles?: readonly (string | undefined)[];
  },
): PageContent {
  const { included, base, titles = [] } = page;
  const md = s.markdown !== false;
  const opts = { base, maxLength: s.maxLength, text: true, markdown: md };
  if (included >= 0) {
    const selector = s.include[included]!;
    if (!md) return { text: undefined, markdown: undefined };
    const roots: Node[] = [];
    collectMatches(tree.root, selector, roots);
    const parts = roots.map(
      (root) => render({ root, pruneLinks: false, selected: true }, { ...opts, text: false }).markdown,
    );
    return { text: undefined, markdown: detach(parts.filter((p) => p !== '').join('\n\n')) };
  }
  const main: MainContent = s.document
    ? { root: tree.body(), pruneLinks: false, selected: true }
    : selectMainContent(tree, titles);
  trimFurniture(main);
  // The text and the Markdown in one walk.
  let out = render(main, opts);
  // A page whose every element reads as boilerplate keeps its whole text (and Markdown) rather than none.
  if (out.text === '') out = render({ root: tree.body(), pruneLinks: false, selected: true }, opts);
  // render's strings are the parser's own (never views of the page): no copy here.
  return { text: out.text, markdown: md ? out.markdown : undefined };
}

/** The outermost elements a selector matches (nested matches count once, as in the text). */
function collectMatches(n: Node, selector: TextSettings['include'][number], out: Node[]): void {
  for (const k of n.kids) {
    if (typeof k === 'string' || k.flags & FLAG.EXCLUDED) continue;
    if (matches(selector, k.tag, k.attrs)) out.push(k);
    else collectMatches(k, selector, out);
  }
}
