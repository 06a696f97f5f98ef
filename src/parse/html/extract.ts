import { type Handler, Parser } from 'htmlparser2';
import { isFeedLink } from '../feed/links.js';
import type { TextSettings } from '../settings.js';
import { collapseSpace } from '../strings.js';
import { mainContent } from './content.js';
import { mainContentTree } from './main-content.js';
import { TextCollector } from './text.js';
import type { TreeBuilder } from './tree.js';

/** A link as written in the page: not resolved, not filtered. */
export interface RawLink {
  readonly href: string;
  /** Whitespace-collapsed text of an `<a>`; "" for area, frame and iframe. */
  anchor: string;
  /** rel contains nofollow. */
  readonly nofollow: boolean;
}

/** What one pass over the page finds. Strings may still be views of the page: copy what you keep. */
export interface Extracted {
  title: string | undefined;
  metaTitle: string | undefined;
  readonly descriptions: string[];
  readonly keywords: string[];
  readonly canonicals: string[];
  baseHref: string | undefined;
  /** Content of the first `<meta name~=robots content>`. */
  robots: string | undefined;
  /** Content of the first `<meta http-equiv~=refresh content>`. */
  refresh: string | undefined;
  readonly links: RawLink[];
  /** hrefs of `<link rel="alternate">` to RSS, Atom and JSON feeds. */
  readonly feeds: string[];
  text: string;
  /**
   * The text near-duplicate fingerprints are made of, only with `TextSettings.mainText`: the main
   * content's text (the same as `text`), or with `wholePage` the body's text without nav, header,
   * footer and aside.
   */
  mainText: string | undefined;
  /** The main content as Markdown; undefined when `TextSettings.markdown` is off. */
  markdown: string | undefined;
}

const ANCHOR_MAX = 1024;
const FOREIGN = new Set(['svg', 'math']);

const relHas = (rel: string | undefined, token: string) =>
  rel
    ?.toLowerCase()
    .split(/[\t\n\f\r ]+/)
    .includes(token) ?? false;

const nonBlank = (s: string | undefined): s is string => s !== undefined && s.trim() !== '';

/**
 * The streaming pass: one htmlparser2 tokenizer run that collects the fields of StormCrawler's
 * default jsoupfilters.json (title, description, keywords, canonical), `<base href>`, the robots and
 * refresh `<meta>`s, the links with their anchor texts, and the text. An optional second handler
 * (a DomHandler, when a parse filter needs a DOM) sees the same events, so the page is tokenised
 * once either way.
 */
export class HtmlExtractor implements Partial<Handler> {
  readonly out: Extracted = {
    title: undefined,
    metaTitle: undefined,
    descriptions: [],
    keywords: [],
    canonicals: [],
    baseHref: undefined,
    robots: undefined,
    refresh: undefined,
    links: [],
    feeds: [],
    text: '',
    mainText: undefined,
    markdown: undefined,
  };
  private readonly text: TextCollector;
  /** The light tree of the main-content extraction; undefined with `wholePage` or no text. */
  private readonly tree: TreeBuilder | undefined;
  private foreign = 0;
  private titleParts: string[] | undefined;
  private titleDone = false;
  /** `<meta property="og:title">`: the main content's article is the one titled so. */
  private ogTitle: string | undefined;
  private anchor: { link: RawLink; parts: string[]; length: number } | undefined;

  constructor(
    private readonly textSettings: TextSettings,
    private readonly base?: () => URL | undefined,
  ) {
    const main = !textSettings.wholePage && !textSettings.noText;
    // With main content and no include selector, the body's text is not needed: the collector only
    // tracks raw elements (for anchors) then, and include selectors when there are some.
    this.text = new TextCollector(
      main ? { ...textSettings, mainText: false, noText: textSettings.include.length === 0 } : textSettings,
    );
    this.tree = main ? mainContentTree(textSettings.excludeTags) : undefined;
  }

  onopentag(name: string, attribs: { [s: string]: string }): void {
    this.text.open(name, attribs);
    this.tree?.onOpen(name, attribs);
    switch (name) {
      case 'a':
      case 'area': {
        this.endAnchor();
        const href = attribs.href;
        if (href === undefined) break;
        const link: RawLink = { href, anchor: '', nofollow: relHas(attribs.rel, 'nofollow') };
        this.out.links.push(link);
        if (name === 'a') this.anchor = { link, parts: [], length: 0 };
        break;
      }
      case 'frame':
      case 'iframe':
        if (attribs.src !== undefined)
          this.out.links.push({ href: attribs.src, anchor: '', nofollow: false });
        break;
      case 'base':
        if (this.out.baseHref === undefined && attribs.href !== undefined) this.out.baseHref = attribs.href;
        break;
      case 'meta':
        this.meta(attribs);
        break;
      case 'link':
        if (attribs.href !== undefined && isFeedLink(attribs.rel, attribs.type))
          this.out.feeds.push(attribs.href);
        break;
      case 'title':
        if (this.foreign === 0 && !this.titleDone) this.titleParts = [];
        break;
      default:
        if (FOREIGN.has(name)) this.foreign++;
    }
    if (attribs.rel !== undefined && attribs.href !== undefined && relHas(attribs.rel, 'canonical'))
      this.out.canonicals.push(attribs.href);
  }

  onclosetag(name: string): void {
    this.text.close(name);
    this.tree?.onClose(name);
    if (name === 'a') this.endAnchor();
    else if (name === 'title' && this.titleParts) {
      this.out.title = collapseSpace(this.titleParts.join(''));
      this.titleParts = undefined;
      this.titleDone = true;
    } else if (FOREIGN.has(name)) this.foreign--;
  }

  ontext(data: string): void {
    if (this.titleParts) {
      this.titleParts.push(data);
      return;
    }
    this.text.text(data);
    this.tree?.onText(data);
    const a = this.anchor;
    if (a && a.length < ANCHOR_MAX && !this.text.inRawElement) {
      a.parts.push(data);
      a.length += data.length;
    }
  }

  onend(): void {
    this.endAnchor();
    this.out.text = this.text.result();
    this.out.mainText = this.text.mainResult();
    if (!this.tree) return;
    const titles = [this.out.title, this.out.metaTitle, this.ogTitle];
    const main = mainContent(this.tree, this.textSettings, {
      included: this.text.includedIndex(),
      base: this.base?.(),
      titles,
    });
    if (main.text !== undefined) this.out.text = main.text;
    if (this.textSettings.mainText) this.out.mainText = this.out.text;
    this.out.markdown = main.markdown;
  }

  private endAnchor(): void {
    const a = this.anchor;
    if (!a) return;
    this.anchor = undefined;
    a.link.anchor = collapseSpace(a.parts.join('')).slice(0, ANCHOR_MAX);
  }

  private meta(attribs: { [s: string]: string }): void {
    const content = attribs.content;
    if (content === undefined) return;
    const equiv = attribs['http-equiv']?.toLowerCase();
    if (equiv?.includes('refresh') && this.out.refresh === undefined) this.out.refresh = content;
    if (attribs.property === 'og:title' && this.ogTitle === undefined) this.ogTitle = content;
    const name = attribs.name?.trim().toLowerCase();
    if (name === undefined) return;
    if (name.includes('robots') && this.out.robots === undefined) this.out.robots = content;
    else if (name === 'description' && nonBlank(content)) this.out.descriptions.push(collapseSpace(content));
    else if (name === 'keywords' && nonBlank(content)) this.out.keywords.push(collapseSpace(content));
    else if (name === 'title' && this.out.metaTitle === undefined && nonBlank(content))
      this.out.metaTitle = collapseSpace(content);
  }
}

/** Handler that forwards every event to two handlers: the extractor first, then a DOM builder. */
function tee(a: Partial<Handler>, b: Partial<Handler>): Partial<Handler> {
  const events = [
    'onparserinit',
    'onreset',
    'onend',
    'onerror',
    'onclosetag',
    'onopentag',
    'ontext',
    'oncomment',
    'oncommentend',
    'oncdatastart',
    'oncdataend',
    'onprocessinginstruction',
  ] as const;
  const out: Record<string, (...args: unknown[]) => void> = {};
  for (const e of events) {
    const fa = a[e] as ((...args: unknown[]) => void) | undefined;
    const fb = b[e] as ((...args: unknown[]) => void) | undefined;
    if (!fa && !fb) continue;
    out[e] = (...args) => {
      fa?.apply(a, args);
      fb?.apply(b, args);
    };
  }
  return out as Partial<Handler>;
}

/**
 * Runs the pass over a decoded page; `dom` receives the same events when given. `baseOf` gives the
 * URL the Markdown's links and images resolve against from the page's `<base href>` (the parser's
 * `baseUrlOf`); without it they stay as written.
 */
export function extractHtml(
  html: string,
  textSettings: TextSettings,
  dom?: Partial<Handler>,
  baseOf?: (baseHref: string | undefined) => URL,
): Extracted {
  const extractor: HtmlExtractor = new HtmlExtractor(textSettings, (): URL | undefined =>
    baseOf?.(extractor.out.baseHref),
  );
  const handler = dom ? tee(extractor, dom) : extractor;
  const parser = new Parser(handler, {
    decodeEntities: true,
    lowerCaseTags: true,
    lowerCaseAttributeNames: true,
  });
  parser.end(html);
  return extractor.out;
}
