/**
 * A light element tree built from the streaming parser's events, for main-content extraction: the
 * page is tokenised once (src/parse/html/extract.ts) and this tree sees the same events. It keeps
 * only what the extractor and the Markdown writer read: tag, the parser's attribute object (no copy),
 * children (elements and raw text), and per element the count of visible text characters and of
 * those inside links, summed on close. What browsers never render (head, script, style...) gets no
 * node at all.
 */

/** An element of the light tree. */
export interface Node {
  readonly tag: string;
  readonly parent: Node | undefined;
  readonly attrs: Readonly<Record<string, string>>;
  readonly kids: (Node | string)[];
  /** Bit set of `FLAG`. */
  flags: number;
  /** Non-space text characters of the subtree (dropped descendants not counted). */
  chars: number;
  /** The part of `chars` inside `<a>`. */
  linkChars: number;
  /** Paragraph-like descendants (p, pre, td, li with text...): how much prose the subtree holds. */
  paras: number;
  /** Readability-style content score, set by the extractor. */
  score: number;
}

export const FLAG = {
  /** Boilerplate or hidden: left out of the main content with its subtree. */
  DROP: 1,
  /** A block element (separates words, ends a paragraph). */
  BLOCK: 2,
  /** Some descendant is a block (an inline element that wraps blocks renders as a block). */
  HAS_BLOCK: 4,
  /** The element or a descendant says it is the main content (article, main, articleBody). */
  HAS_MAIN: 8,
  /** Inside `<pre>`: whitespace is kept. */
  PRE: 16,
  /** textextractor.exclude.tags: left out even of what an include selector matched. */
  EXCLUDED: 64,
  /** A caption or image credit: part of a figure, written in the Markdown beside its image only. */
  CAPTION: 32,
  /** A heading that is all link (the title of a teaser) is the element or one of its descendants. */
  TEASER_TITLE: 128,
  /**
   * Hidden (`hidden`, display:none) or a `<noscript>` in the body: dropped, but listed in
   * `TreeBuilder.veiled`, as what a script would reveal may be the page's text (veiled.ts).
   */
  VEILED: 256,
  /** A `<noscript>` of the body: also EXCLUDED, as no selector nor whole-body fallback read it before. */
  NOSCRIPT: 512,
  /**
   * A text kid holds whitespace that collapsing changes (a tab, line break, no-break space or two
   * spaces): the Markdown writer looks for it only in paragraphs that hold such text (markdown.ts).
   */
  SPACES: 1024,
  /**
   * A text kid holds a character Markdown escapes (markdown-parts.ts's escapeMarkdown): the writer
   * tests only such elements' text (an expression run on every text node was 1% of a page's parse).
   */
  MD_CHARS: 2048,
} as const;

/** The characters Markdown escapes in text (markdown-parts.ts's escapeMarkdown): all below 97. */
export const MD_ESCAPED = '\\`*_[]<';

/**
 * Per code unit, what a text node's scan notes (bits): INVISIBLE (whitespace: not counted in
 * `chars`), COLLAPSES (whitespace Markdown's whitespace expression replaces even alone: \t \n \f
 * \r, no-break space), MARKDOWN (a character to escape), SPACE (a plain space: two in a row
 * collapse). A lookup and three bit operations a character, no branch: the tests it replaces
 * (letters and spaces alternate) were 4.6 ns a character on the bench web, this 2.9.
 */
const INVISIBLE = 1;
const COLLAPSES = 2;
const MARKDOWN = 4;
const SPACE = 8;
const TEXT_CLASS = new Uint8Array(65536);
for (const c of [9, 10, 11, 12, 13, 32, 0xa0]) TEXT_CLASS[c] = INVISIBLE;
for (const c of [9, 10, 12, 13, 0xa0]) TEXT_CLASS[c]! |= COLLAPSES;
for (const c of MD_ESCAPED) TEXT_CLASS[c.charCodeAt(0)]! |= MARKDOWN;
TEXT_CLASS[32]! |= SPACE;

/** Never text; no node is built for them nor their descendants. */
const SKIP = new Set([
  'script',
  'style',
  'template',
  'iframe',
  'noembed',
  'title',
  'svg',
  'math',
  'object',
  'embed',
  'canvas',
  'select',
  'option',
  'button',
  'textarea',
  'input',
  'audio',
  'video',
  'map',
]);

/** What a `<head>` holds: any other element ends it (a page without `</head>` and `<body>`). */
export const HEAD_CONTENT = new Set([
  'title',
  'meta',
  'link',
  'script',
  'style',
  'base',
  'noscript',
  'template',
]);

export const BLOCK_TAGS = new Set(
  (
    'address article aside blockquote body center dd details dialog dir div dl dt fieldset figcaption ' +
    'figure footer form h1 h2 h3 h4 h5 h6 header hgroup hr li main menu nav ol p pre section summary ' +
    'table tbody thead tfoot tr td th caption ul br html listing legend search'
  ).split(' '),
);

/** Per tag, SKIPPED (in SKIP) and FLAG.BLOCK (in BLOCK_TAGS): one lookup as each element opens. */
const SKIPPED = 1;
const TAG_BITS = new Map<string, number>();
for (const t of SKIP) TAG_BITS.set(t, SKIPPED);
for (const t of BLOCK_TAGS) TAG_BITS.set(t, (TAG_BITS.get(t) ?? 0) | FLAG.BLOCK);

/** Non-space characters of a text chunk, counted without allocating. */
export function visibleChars(s: string): number {
  let invisible = 0;
  for (let i = 0; i < s.length; i++) invisible += TEXT_CLASS[s.charCodeAt(i)]! & INVISIBLE;
  return s.length - invisible;
}

/** Decides, when an element opens, whether it is boilerplate whatever its content. */
export type DropRule = (tag: string, attrs: Readonly<Record<string, string>>) => boolean;
/** Decides, when an element closes (its subtree known), whether it is boilerplate. */
export type LateDropRule = (node: Node) => boolean;
/** Decides, when an element opens, whether it is hidden until a script shows it. */
export type VeilRule = (tag: string, attrs: Readonly<Record<string, string>>) => boolean;

export class TreeBuilder {
  readonly root: Node = newNode('#root', undefined, {});
  private current: Node = this.root;
  private skip = 0;
  private inLink = 0;
  private inHead = false;
  /** Open nodes and nodes skipped (undefined), in the parser's order, to match closes to opens. */
  private readonly open: (Node | undefined)[] = [];
  /** Hidden elements and body `<noscript>`s, not boilerplate by their names, in document order. */
  readonly veiled: Node[] = [];
  /** Elements dropped as boilerplate (by tag, role or name), in the order they close. */
  readonly dropped: Node[] = [];
  /** The body, once its end tag is seen: anything after it still goes in it. */
  private closedBody: Node | undefined;

  constructor(
    private readonly dropOnOpen: DropRule,
    private readonly dropOnClose: LateDropRule,
    private readonly excludeTags: ReadonlySet<string> = new Set(),
    private readonly veil: VeilRule = () => false,
  ) {}

  onOpen(tag: string, attrs: Readonly<Record<string, string>>): void {
    if (tag === 'head') this.inHead = true;
    else if (tag === 'body' || (this.inHead && !HEAD_CONTENT.has(tag))) this.inHead = false;
    // A `<noscript>` of the head holds styles and tracking pixels; one of the body may hold the page.
    const bits = TAG_BITS.get(tag) ?? 0;
    const skipped = (bits & SKIPPED) !== 0 || (tag === 'noscript' && this.inHead);
    if (this.skip > 0 || skipped || (this.inHead && tag !== 'body')) {
      if (this.skip > 0 || skipped) this.skip++;
      this.open.push(undefined);
      return;
    }
    const parent = this.current;
    const node = newNode(tag, parent, attrs);
    node.flags |= bits & FLAG.BLOCK;
    if (tag === 'pre' || (parent.flags & FLAG.PRE) !== 0) node.flags |= FLAG.PRE;
    if (this.excludeTags.has(tag)) node.flags |= FLAG.DROP | FLAG.EXCLUDED;
    else if (tag === 'noscript') node.flags |= FLAG.DROP | FLAG.EXCLUDED | FLAG.VEILED | FLAG.NOSCRIPT;
    else if (this.veil(tag, attrs)) node.flags |= FLAG.DROP | FLAG.VEILED;
    else if (this.dropOnOpen(tag, attrs)) node.flags |= FLAG.DROP;
    if (tag === 'a') this.inLink++;
    parent.kids.push(node);
    this.current = node;
    this.open.push(node);
  }

  onClose(tag: string): void {
    const node = this.open.pop();
    if (node === undefined) {
      if (this.skip > 0) this.skip--;
      if (tag === 'head') this.inHead = false;
      return;
    }
    if (tag === 'a') this.inLink--;
    const parent = node.parent ?? this.root;
    this.current = parent;
    // Browsers ignore a stray `</body>` or `</html>` (a template's, before the article): what follows
    // goes on in the body (HTML's "after body" mode), where htmlparser2 would put it beside the body.
    if (node.tag === 'body') this.closedBody = node;
    if ((node.tag === 'body' || node.tag === 'html') && this.closedBody) this.current = this.closedBody;
    if (node.flags & FLAG.VEILED) {
      // Its counts and flags are set as for any element, so that revealing it is adding them up.
      if (this.dropOnClose(node)) node.flags &= ~FLAG.VEILED;
      else this.veiled.push(node);
    } else if (node.flags & FLAG.DROP) {
      if (!(node.flags & FLAG.EXCLUDED)) this.dropped.push(node);
    } else if (this.dropOnClose(node)) {
      node.flags |= FLAG.DROP;
      this.dropped.push(node);
    }
    if (node.flags & (FLAG.BLOCK | FLAG.HAS_BLOCK)) parent.flags |= FLAG.HAS_BLOCK;
    if (node.flags & FLAG.HAS_MAIN) parent.flags |= FLAG.HAS_MAIN;
    if (node.flags & FLAG.DROP) return;
    parent.chars += node.chars;
    parent.linkChars += node.linkChars;
    parent.paras += node.paras;
  }

  onText(data: string): void {
    if (this.skip > 0) return;
    if (this.inHead) {
      if (data.trim() === '') return;
      this.inHead = false;
    }
    const node = this.current;
    node.kids.push(data);
    // One loop for all: the visible characters, whether whitespace to collapse is there (what
    // markdown.ts's whitespace expression replaces: \t \n \f \r, no-break space, two spaces), and
    // characters to escape in Markdown.
    let seen = 0;
    let invisible = 0;
    let pairs = 0;
    let lastSpace = 0;
    for (let i = 0; i < data.length; i++) {
      const k = TEXT_CLASS[data.charCodeAt(i)]!;
      seen |= k;
      invisible += k & INVISIBLE;
      pairs |= lastSpace & k;
      lastSpace = k & SPACE;
    }
    const spaces = (seen & COLLAPSES) !== 0 || pairs !== 0;
    const md = (seen & MARKDOWN) !== 0;
    const n = data.length - invisible;
    if (spaces) node.flags |= FLAG.SPACES;
    if (md) node.flags |= FLAG.MD_CHARS;
    node.chars += n;
    if (this.inLink > 0) node.linkChars += n;
  }

  /** The `<body>` element (the root when the page has none). */
  body(): Node {
    for (const k of this.root.kids) {
      if (typeof k !== 'string' && k.tag === 'html') {
        for (const b of k.kids) if (typeof b !== 'string' && b.tag === 'body') return b;
        return k;
      }
      if (typeof k !== 'string' && k.tag === 'body') return k;
    }
    return this.root;
  }
}

function newNode(tag: string, parent: Node | undefined, attrs: Readonly<Record<string, string>>): Node {
  return { tag, parent, attrs, kids: [], flags: 0, chars: 0, linkChars: 0, paras: 0, score: 0 };
}
