import { pickArticle } from './article-pick.js';
import { BLURB_CHARS, beyondBlurb } from './blurb.js';
import { isButtonLink } from './buttons.js';
import { HintTests, hintOf } from './class-hint.js';
import {
  generatorTitleOf,
  insideGeneratorMain,
  insideMain,
  isDeclaredMain,
  isGeneratorFurniture,
  isGeneratorMain,
  isGeneratorTitle,
  isTexinfoNav,
  keepTitleOnly,
} from './declared-main.js';
import { revealDominant } from './dominant.js';
import { isExcerpt } from './excerpt.js';
import { pageGoesOn } from './landing.js';
import { keepContentsPage } from './link-pages.js';
import { looseScore } from './loose-text.js';
import { strongInMain } from './main-words.js';
import {
  isHeading,
  isParagraph,
  linkDensity,
  MIN_PARAGRAPH,
  PROSE_TAGS,
  paragraphScore,
  readsAsProse,
} from './measures.js';
import { isProductPanel } from './panels.js';
import { selfLinkChars } from './permalink.js';
import { isPopup } from './popup.js';
import { holdsTheProse } from './prose-share.js';
import { alike, isRunOfSections, sectionOf } from './sections.js';
import { isListing } from './teasers.js';
import { threadOf } from './thread.js';
import { isTitleBlock } from './title-block.js';
import { titleWords } from './title-match.js';
import { FLAG, type Node, TreeBuilder } from './tree.js';
import { trimDeclared } from './trim.js';
import { hiddenByAttrs, isHidden, revealVeiled } from './veiled.js';

/**
 * Main-content extraction over the light tree (src/parse/html/tree.ts), after Readability and
 * trafilatura, kept general (no per-site rules):
 * 1. Boilerplate is dropped while the tree is built: nav, aside, footer, menu, dialog, header outside
 *    an article; ARIA landmarks navigation, banner, contentinfo, complementary, search; hidden
 *    elements (hidden, aria-hidden, inline display:none); elements whose class or id names a menu,
 *    sidebar, comments, share buttons, related links, cookie banner, footer, copyright... (unless they
 *    hold the page's declared main content; a panel named for a product's text is not, panels.ts);
 *    short links drawn as buttons (buttons.ts);
 *    forms with fewer than two paragraphs.
 * 2. The main container is what the page declares (schema.org articleBody, the `<article>` titled as
 *    the page or one dominant one (article-pick.ts), `<main>`, role=main) with the prose blocks and
 *    headings right before it (a lead, a title), else the block with the best prose score (paragraph
 *    text, discounted by link density; text runs between `<br>`s count as paragraphs, loose-text.ts;
 *    excerpts of other pages do not, excerpt.ts), climbed to the sections alike of an article cut
 *    into several, or to the posts alike of a thread (thread.ts), with those of its siblings that
 *    read as prose; a declared article that is a short blurb beside far more prose joins it (blurb.ts); a candidate holding too little of
 *    the page (under 30% of its text and under half of its text out of links and excerpts,
 *    prose-share.ts) falls back to the whole body (home pages, listings, docs), boilerplate still
 *    dropped.
 * 3. Inside it, link-dense blocks (link lists, tag clouds) and teasers (small blocks under a heading
 *    that is all link) are left out, unless the container itself is mostly links or teasers (a
 *    listing page: they are its content, and its cards and their grids are no link lists, teasers.ts).
 * 4. Then src/parse/html/trim.ts trims it: what follows the article inside a declared container,
 *    short furniture lines ("Read also", "Photo: ...", "Subscribe..."), a date line before the prose.
 */

/** The chosen content: a root element and, when siblings joined it, the kids of its parent to keep. */
export interface MainContent {
  readonly root: Node;
  /** When set, only these kids of `root` are rendered (the candidate and its prose siblings). */
  readonly only?: ReadonlySet<Node>;
  /** Left out: link-dense blocks (false on link listings, where the links are the content). */
  readonly pruneLinks: boolean;
  /**
   * The page declared it (main, role=main, articleBody, its article): its tables and lists are kept
   * however many links they hold (an API's summary tables, an index's entries); in a `<main>`
   * (`main`: what documentation generators declare), every block (Javadoc's summary tables are
   * `div` grids of links). An article's other blocks of links are still pruned (related posts).
   */
  readonly declared?: 'main' | 'article';
  /** Left out: teasers, small blocks under a linked title (false when the content is the whole body). */
  readonly pruneTeasers?: boolean;
  /** Teasers are the content (teasers.ts): its cards and their grids are kept however many links they hold. */
  readonly listing?: boolean;
  /** What an include selector matched: all of it but textextractor.exclude.tags, boilerplate or not. */
  readonly selected?: boolean;
}

const BOILERPLATE_TAGS = new Set(['nav', 'aside', 'footer', 'menu', 'dialog']);
const BOILERPLATE_ROLES = new Set([
  'navigation',
  'banner',
  'contentinfo',
  'complementary',
  'search',
  'dialog',
  'alertdialog',
  'menu',
  'menubar',
]);
const MAIN_ROLES = new Set(['main', 'article']);
// Class and id words of boilerplate, matched on the joined, lowercased class and id at the start of
// a word (so "relatedposts", "sharedaddy", "navbar" match, "download" does not, nor Shopify's
// "metafield": a product's own text). Strong words drop an element even when a content word is there
// too ("entry-meta", "author-box--content"). "nav" is no colour: `text-color-navy` (a Webflow
// testimonial's text) and `bg-navy` name no menu.
const STRONG_WORDS =
  'breadcrumb|byline|comment|consent|cookie|disqus|footer|gdpr|menu|meta(?!field)|modal|nav(?!y)|newsletter|outbrain|' +
  'pagination|pager|popup|rating|related|share|sharing|sidebar|social|subscribe|taboola|tags|tagcloud|' +
  'author|signup|login|shoutbox|agegate|' +
  // Copyright lines, post metadata (WordPress "postmetadata", "entry-utility"), embedded players and
  // posts, tables of contents, overlays, recommendations, what a class hides ("hide-mobile", "noprint").
  'copyright|postmeta|entry-utility|embed|toc|overlay|recommend|hide|noprint';
const WEAK_WORDS =
  'banner|combx|community|header|masthead|promo|remark|replies|rss|skip|skyscraper|sponsor|supplemental|toolbar|widget';
const STRONG = new RegExp(`(?:^|[^a-z])(?:${STRONG_WORDS})`);
/** Whether one class or id value holds a strong word (main-words.ts reads them apart). */
const namesStrong = (name: string): boolean => STRONG.test(hintOf({ class: name }));
// "ad" is a word of its own: not the tail of a generated class name ("jxk9ad-smkayb", "css-1x2ad").
const UNLIKELY = new RegExp(
  `(?:^|[^a-z])(?:${STRONG_WORDS}|${WEAK_WORDS})|(?:^|[^a-z0-9])ads?(?:$|[^a-z0-9])`,
);
// Words that say "content": an element with one of them is kept unless a strong word says otherwise.
const MAYBE = /(?:^|[^a-z])(?:article|body|content|entry|main|post|story|text)(?:$|[^a-z])/;
const CAPTION = /(?:^|[^a-z])(?:caption|credit|legend)/;
const COMMENTS = /comment|disqus|replies|respond|discussion/;
/** UNLIKELY (bit 1) and CAPTION (bit 2) of a hint, remembered. */
const HINT_TESTS = new HintTests([UNLIKELY, CAPTION]);
/** Whether a hint or name holds a word of boilerplate, strong or weak (panels.ts reads names apart). */
const unlikely = (hint: string): boolean => (HINT_TESTS.bits(hint) & 1) !== 0;
const NEVER_DROP_BY_HINT = new Set([
  'body',
  'html',
  'main',
  'article',
  'a',
  'td',
  'th',
  'tr',
  'tbody',
  'table',
]);

/**
 * Whether an element is boilerplate by its tag or role (an `<aside>` revealed for its text) or its
 * class or id holds a word of boilerplate (kept or not for its prose).
 */
const namedBoilerplateWords = (n: Node): boolean => {
  if (namedBoilerplate(n.tag, n.attrs)) return true;
  const hint = hintOf(n.attrs);
  return hint !== '' && unlikely(hint);
};

/** Boilerplate by its tag or ARIA role, shown or not. */
function namedBoilerplate(tag: string, attrs: Readonly<Record<string, string>>): boolean {
  if (BOILERPLATE_TAGS.has(tag)) return true;
  const role = attrs.role;
  return role !== undefined && BOILERPLATE_ROLES.has(role.trim().toLowerCase());
}

function dropOnOpen(tag: string, attrs: Readonly<Record<string, string>>): boolean {
  // Hidden: what veiled.ts's isHidden keeps aside to reveal is flagged before this is asked.
  if (hiddenByAttrs(attrs) || isGeneratorFurniture(attrs)) return true;
  return namedBoilerplate(tag, attrs) && !isProductPanel(tag, attrs, unlikely);
}

/** Hidden blocks kept aside, as a script may show them (veiled.ts); never a menu or a banner. */
const veil = (tag: string, attrs: Readonly<Record<string, string>>): boolean =>
  isHidden(tag, attrs) && !namedBoilerplate(tag, attrs);

const isMainSignal = (n: Node): boolean =>
  n.tag === 'article' ||
  n.tag === 'main' ||
  (n.attrs.role !== undefined && MAIN_ROLES.has(n.attrs.role.toLowerCase())) ||
  n.attrs.itemprop?.toLowerCase().includes('articlebody') === true ||
  isGeneratorMain(n);

function insideArticle(n: Node): boolean {
  for (let p = n.parent; p; p = p.parent) if (p.tag === 'article' || p.tag === 'main') return true;
  return false;
}

function dropOnClose(n: Node): boolean {
  // The links to the heading itself (a permalink) are looked for only when links are most of it.
  if (
    isHeading(n.tag) &&
    n.chars > 0 &&
    n.linkChars >= n.chars * 0.9 &&
    n.linkChars - selfLinkChars(n) >= n.chars * 0.9
  )
    n.flags |= FLAG.TEASER_TITLE;
  const drop = isBoilerplate(n);
  if (!drop && n.flags & FLAG.TEASER_TITLE && n.parent) n.parent.flags |= FLAG.TEASER_TITLE;
  return drop;
}

function isBoilerplate(n: Node): boolean {
  if (isMainSignal(n)) n.flags |= FLAG.HAS_MAIN;
  if (isParagraph(n)) n.paras++;
  if (n.tag === 'header') return !insideArticle(n);
  // A form (search, sign-in, comment, newsletter) is not content; a page wrapped whole in a form
  // (ASP.NET) has paragraphs in it.
  if (n.tag === 'form' && n.paras < 2 && !(n.flags & FLAG.HAS_MAIN)) return true;
  const hint = hintOf(n.attrs);
  const bits = hint === '' ? 0 : HINT_TESTS.bits(hint);
  // Not a heading: a card's title styled small (Etsy's `h2.wt-text-caption`) is no caption.
  if (n.tag === 'figcaption' || (n.paras < 2 && (bits & 2) !== 0 && !isHeading(n.tag)))
    n.flags |= FLAG.CAPTION;
  if (isTexinfoNav(n)) return true;
  if (isGeneratorTitle(n)) {
    keepTitleOnly(n);
    return false;
  }
  // A link drawn as a button is an action, as a <button> is (buttons.ts); not inside code nor a
  // generator's declared main block (MkDocs' `md-button`, sphinx-design's `sd-btn`), as below.
  if (isButtonLink(n) && !(n.flags & FLAG.PRE) && !insideGeneratorMain(n)) return true;
  if (NEVER_DROP_BY_HINT.has(n.tag) || n.flags & FLAG.HAS_MAIN) return false;
  if ((bits & 1) === 0 || isProductPanel(n.tag, n.attrs, unlikely)) return false;
  // Inside code (syntax highlighting: rustdoc's `span.comment`) and inside a generator's declared
  // main block (declared-main.ts), class and id words never drop a block.
  if (n.flags & FLAG.PRE || insideGeneratorMain(n)) return false;
  // A block of prose is content whatever its class says ("sidebar-and-content-body", "modal-enabled"),
  // unless it names reader comments, which are prose too.
  // A pop-up's prose is not the page's (popup.ts).
  const popup = isPopup(n.attrs);
  const prose = n.linkChars < n.chars * 0.25 && !popup;
  if (prose && (n.paras >= 4 || n.chars >= 1500) && !COMMENTS.test(hint)) return false;
  // So is a block of many paragraphs with links in them: a wrapper named for the sidebar beside its
  // article ("content-with-sidebar-wrp") holds the article (the sidebar goes by its own class).
  if (n.paras >= 8 && n.linkChars < n.chars * 0.5 && !COMMENTS.test(hint) && !popup) return false;
  // Inside a <main>, not from the id of a section's own heading nor Sphinx's toctree (main-words.ts).
  if (STRONG.test(hint)) return !insideMain(n) || strongInMain(n, namesStrong);
  // Inside a <main> or role=main a weak word never drops a block (Javadoc's `div.table-header` cells);
  // a strong one still does (pages put their sidebar, comments and share bars inside <main>).
  if (insideMain(n)) return false;
  // A weak word ("widget", "header", "skip") drops only what is short or mostly links, and never a
  // heading or title block (title-block.ts).
  return !MAYBE.test(hint) && (n.chars < 200 || !prose) && !isTitleBlock(n);
}

/** A tree builder with the boilerplate rules of this extractor. */
export function mainContentTree(excludeTags: ReadonlySet<string>): TreeBuilder {
  return new TreeBuilder(dropOnOpen, dropOnClose, excludeTags, veil);
}

/** Kept elements of the subtree, depth first (dropped subtrees skipped). */
function elements(n: Node, out: Node[] = []): Node[] {
  for (const k of n.kids) {
    if (typeof k === 'string' || k.flags & FLAG.DROP) continue;
    out.push(k);
    if (k.kids.length > 0) elements(k, out);
  }
  return out;
}

/**
 * Kept elements that are or hold a main signal (FLAG.HAS_MAIN), depth first: `elements` filtered,
 * walking only the subtrees that hold one (the walk of every element was 1.5% of a large page's parse).
 */
function mainSignals(n: Node, out: Node[] = []): Node[] {
  for (const k of n.kids) {
    if (typeof k === 'string' || k.flags & FLAG.DROP || !(k.flags & FLAG.HAS_MAIN)) continue;
    out.push(k);
    if (k.kids.length > 0) mainSignals(k, out);
  }
  return out;
}

/** The declared main container: articleBody, a dominant article, main / role=main. */
function declared(body: Node, titles: readonly Set<string>[]): Node | undefined {
  let articleBody: Node | undefined;
  let main: Node | undefined;
  const articles: Node[] = [];
  for (const n of mainSignals(body)) {
    if (n.attrs.itemprop?.toLowerCase().includes('articlebody')) {
      if (!articleBody || n.chars > articleBody.chars) articleBody = n;
    } else if (n.tag === 'article' || n.attrs.role?.toLowerCase() === 'article') {
      articles.push(n);
    } else if (isDeclaredMain(n)) {
      if (!main || n.chars > main.chars) main = n;
    }
  }
  if (articleBody && articleBody.chars >= 200) return articleBody;
  // Articles nested in articles (comments, related posts): the outermost count.
  const outer = articles.filter((a) => !articles.some((b) => b !== a && contains(b, a)));
  const article = pickArticle(outer, articles, titles);
  if (article) return article;
  // A generator's main block is the content however short (a Doxygen member list of one entry).
  if (main && (main.chars >= 200 || isGeneratorMain(main))) return main;
  return undefined;
}

function contains(outer: Node, inner: Node): boolean {
  for (let p = inner.parent; p; p = p.parent) if (p === outer) return true;
  return false;
}

/** Readability's candidate: prose scores summed into parents (half into grandparents). */
function bestCandidate(body: Node): Node | undefined {
  const scored: Node[] = [];
  for (const n of elements(body)) {
    if (!PROSE_TAGS.has(n.tag)) {
      if (n.paras === 0 && LOOSE_HOSTS.has(n.tag)) addLoose(n, scored);
      continue;
    }
    if (!isParagraph(n) || isExcerpt(n) || !n.parent) continue;
    credit(n.parent, paragraphScore(n.chars), scored);
  }
  let best: Node | undefined;
  let bestScore = 0;
  for (const n of scored) {
    const s = n.score * (1 - linkDensity(n));
    if (s > bestScore) {
      best = n;
      bestScore = s;
    }
  }
  return best;
}

/** Blocks whose own text runs can be paragraphs (as Readability turns a div's text into p). */
const LOOSE_HOSTS = new Set(['div', 'section', 'article', 'main']);

/** Text runs straight in a block without paragraphs score as its paragraphs (loose-text.ts). */
function addLoose(n: Node, scored: Node[]): void {
  if (n.chars < MIN_PARAGRAPH) return;
  const s = looseScore(n);
  if (s > 0) credit(n, s, scored);
}

/** A block's prose score grows by `s` and its parent's by half. */
function credit(n: Node, s: number, scored: Node[]): void {
  raise(n, s, scored);
  if (n.parent) raise(n.parent, s / 2, scored);
}

/** Each scored block is listed once, when it first scores. */
function raise(n: Node, s: number, scored: Node[]): void {
  if (n.score === 0) scored.push(n);
  n.score += s;
}

/** Picks the main content of a built tree; `titles` are the page's `<title>` and og:title. */
export function selectMainContent(
  tree: TreeBuilder,
  titles: readonly (string | undefined)[] = [],
): MainContent {
  const main = chooseContent(tree, titles);
  // A contents page: its table of contents is what it says (link-pages.ts), links and all.
  return keepContentsPage(main.root, main.only) ? { ...main, pruneLinks: false } : main;
}

function chooseContent(tree: TreeBuilder, titles: readonly (string | undefined)[] = []): MainContent {
  const body = tree.body();
  revealVeiled(tree.veiled, body);
  revealDominant(tree.dropped, body);
  const sig = declared(body, titleWords(titles));
  // A declared body often leaves its lead (standfirst, teaser) and title just before it, outside.
  // A short article beside far more prose (a summary card before its transcript): both (blurb.ts).
  const both =
    sig && !isGeneratorMain(sig) && sig.chars < BLURB_CHARS
      ? beyondBlurb(sig, bestCandidate(body), body, {
          main: isDeclaredMain(sig),
          named: namedBoilerplateWords,
        })
      : undefined;
  if (both) return { root: both, pruneLinks: pruneOf(both), ...teasersOf(both) };
  if (sig) {
    // A generator's main block is kept whole: what follows its bulk is its last sections.
    if (!isGeneratorMain(sig)) trimDeclared(sig);
    const kind = isDeclaredMain(sig) ? 'main' : 'article';
    return { ...withSiblings(sig, body, true), declared: kind };
  }
  const best = bestCandidate(body);
  if (!best || (best.chars < body.chars * 0.3 && !holdsTheProse(best, body)))
    return { root: body, pruneLinks: pruneOf(body), listing: isListing(body) };
  // A page cut into sections alike keeps them all (sections.ts), else the block and its prose siblings.
  const section = sectionOf(best, body);
  if (!section) {
    // One post of a thread (or card of a listing) among others alike: the thread (thread.ts).
    const thread = threadOf(best, body);
    if (thread) return { root: thread, pruneLinks: pruneOf(thread), ...teasersOf(thread) };
    return runOrBody(withSiblings(best, body, false), body);
  }
  section.score = Math.max(section.score, best.score);
  const run = section.parent;
  if (run && isRunOfSections(section))
    return { root: run, pruneLinks: pruneOf(run), ...teasersOf(run, body) };
  return withSiblings(section, body, false, true);
}

const pruneOf = (n: Node) => linkDensity(n) < 0.5;

/** The best block with its siblings, or the whole body when the page goes on beyond them (landing.ts). */
function runOrBody(chosen: MainContent, body: Node): MainContent {
  return chosen.only && pageGoesOn(chosen.only, body)
    ? { root: body, pruneLinks: pruneOf(body), listing: isListing(body) }
    : chosen;
}

/** Teasers are pruned unless the content is a listing (teasers.ts) or the whole body (its teasers kept). */
function teasersOf(root: Node, body?: Node): { pruneTeasers: boolean; listing: boolean } {
  const listing = isListing(root);
  return { pruneTeasers: root !== body && !listing, listing };
}

/**
 * The chosen block and those of its siblings that read as prose (split articles, a lead before the
 * body), with the heading right before it; only the siblings before it when `before` is set.
 */
function withSiblings(best: Node, body: Node, before: boolean, sections = false): MainContent {
  const parent = best.parent;
  const teasers = teasersOf(best, body);
  // A generator's title block before its main block (Doxygen's div.header) is kept with it.
  const title = before ? generatorTitleOf(best) : undefined;
  if (parent && title && parent === body)
    return { root: parent, only: new Set([title, best]), pruneLinks: pruneOf(best), ...teasers };
  if (!parent || best === body || (before && parent === body))
    return { root: best, pruneLinks: pruneOf(best), ...teasers };
  const only = new Set<Node>();
  const threshold = Math.max(10, best.score * 0.2);
  const kids = parent.kids.filter(
    (k): k is Node => typeof k !== 'string' && !(k.flags & FLAG.DROP) && k.chars > 0,
  );
  const at = kids.indexOf(best);
  for (const [i, k] of kids.entries()) {
    if (before && i > at) break;
    if (k === best || (!before && k.score >= threshold) || readsAsProse(k) || (sections && alike(k, best)))
      only.add(k);
    else if (before && k === title) only.add(k);
  }
  // Headings right before a kept block title it (the title over the lead over the body).
  for (let i = kids.length - 2; i >= 0; i--) {
    const k = kids[i]!;
    if (isHeading(k.tag) && only.has(kids[i + 1]!)) only.add(k);
  }
  return only.size === 1
    ? { root: best, pruneLinks: pruneOf(best), ...teasers }
    : { root: parent, only, pruneLinks: pruneOf(parent), ...teasers };
}
