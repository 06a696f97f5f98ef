import type { TextSettings } from '../settings.js';
import { detach } from '../strings.js';
import { matches } from './selectors.js';
import { HEAD_CONTENT } from './tree.js';

/**
 * Text extraction on the streaming parser, after StormCrawler's JSoupTextExtractor:
 * - the text of the body only (the head and what browsers never render - script, style, noscript,
 *   template, iframe, noembed, title - never counts);
 * - with `textextractor.include.pattern`, the text of the elements matched by the first selector that
 *   matches anything, else of the whole body; `textextractor.exclude.tags` drops elements and their
 *   descendants;
 * - whitespace runs become one space; block elements and `<br>` separate words; text inside `<pre>`
 *   is kept as is; the result is trimmed and cut to `textextractor.skip.after` characters.
 * - with `mainText` (a parse filter asked for it), also the body's text without nav, header, footer
 *   and aside elements: the main text that near-duplicate fingerprints are made of.
 * Differences: JSoup adds a space after a block only when a sibling follows and keeps nested matches
 * twice; here every block boundary separates words and nested matches count once.
 */

const HIDDEN = 1;
const RAW = 2;
const PRE = 4;
const BLOCK = 8;
const BOILERPLATE = 16;
const FIRST_MATCH_BIT = 5;

const NEVER_TEXT = new Set(['script', 'style', 'noscript', 'template', 'iframe', 'noembed', 'title']);
const BLOCKS = new Set(
  (
    'html head body frameset script noscript style meta link title frame noframes section nav aside ' +
    'hgroup header footer p h1 h2 h3 h4 h5 h6 ul ol pre div blockquote hr address figure figcaption ' +
    'form fieldset ins del dl dt dd li table caption thead tfoot tbody colgroup col tr th td video ' +
    'audio canvas details summary menu plaintext template article main svg math center dir applet ' +
    'marquee listing legend option optgroup search dialog'
  ).split(' '),
);
const PRE_TAGS = new Set(['pre', 'textarea', 'listing', 'plaintext']);
/** Left out of the main text (for fingerprints): what sites repeat around their content. */
const BOILERPLATE_TAGS = new Set(['nav', 'header', 'footer', 'aside']);
// Whitespace runs that are not already a single space: replacing every lone space is the slow part.
const WS = /[\t\n\f\r \u00a0]{2,}|[\t\n\f\r\u00a0]/g;
const isSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 12 || c === 13 || c === 0xa0;

/**
 * Accumulates text up to a length. Chunks are kept raw and normalised in one regex pass per run of
 * non-`pre` text (at a `pre` boundary, past the length limit, and at the end): far cheaper than a
 * replace per text event.
 */
class TextBuffer {
  /** Normalised text. */
  private readonly done: string[] = [];
  private doneLength = 0;
  private doneEndsWithSpace = true;
  /** Raw chunks and block separators since the last normalisation. */
  private pending: string[] = [];
  private pendingLength = 0;

  constructor(private readonly max: number) {}

  get full(): boolean {
    return this.max > 0 && this.doneLength >= this.max;
  }

  append(raw: string, preserve: boolean): void {
    if (this.full || raw.length === 0) return;
    if (preserve) {
      this.flush();
      this.push(raw);
      return;
    }
    this.pending.push(raw);
    this.pendingLength += raw.length;
    if (this.max > 0 && this.doneLength + this.pendingLength >= this.max) this.flush();
  }

  space(): void {
    if (this.pending.length > 0) this.pending.push(' ');
    else if (!this.doneEndsWithSpace && !this.full) this.push(' ');
  }

  private flush(): void {
    if (this.pending.length === 0) return;
    let t = this.pending.join('').replace(WS, ' ');
    this.pending = [];
    this.pendingLength = 0;
    if (this.doneEndsWithSpace && t.charCodeAt(0) === 32) t = t.slice(1);
    if (t.length > 0) this.push(t);
  }

  private push(t: string): void {
    this.done.push(t);
    this.doneLength += t.length;
    this.doneEndsWithSpace = isSpace(t.charCodeAt(t.length - 1));
  }

  toString(): string {
    this.flush();
    let s = this.done.join('');
    if (this.max > 0 && s.length > this.max) s = s.slice(0, this.max);
    return detach(s.trim());
  }
}

/**
 * Fed by the streaming parser's open/close/text events (which htmlparser2 keeps balanced: every
 * open gets one close, implied or not), it tracks per element whether its text counts.
 */
export class TextCollector {
  private readonly stack: number[] = [];
  private hidden = 0;
  private raw = 0;
  private pre = 0;
  private boilerplate = 0;
  private inHead = false;
  private readonly body: TextBuffer;
  /** The body without boilerplate elements, when asked for (`TextSettings.mainText`). */
  private readonly main: TextBuffer | undefined;
  private readonly included: TextBuffer[];
  private readonly active: number[];
  private readonly matched: boolean[];
  /**
   * No text, no include selector (the main content's tree writes the text): only raw elements are
   * tracked, for anchors (the block and pre bookkeeping of every element: 2% of a 90 KB page, profiled).
   */
  private readonly rawOnly: boolean;

  constructor(private readonly settings: TextSettings) {
    this.rawOnly = settings.noText && settings.include.length === 0 && !settings.mainText;
    this.body = new TextBuffer(settings.maxLength);
    this.main = settings.mainText ? new TextBuffer(settings.maxLength) : undefined;
    this.included = settings.include.map(() => new TextBuffer(settings.maxLength));
    this.active = settings.include.map(() => 0);
    this.matched = settings.include.map(() => false);
  }

  /** Inside script, style and the like: their content is not text, not even anchor text. */
  get inRawElement(): boolean {
    return this.raw > 0;
  }

  open(tag: string, attribs: Readonly<Record<string, string>>): void {
    if (this.rawOnly) {
      const raw = NEVER_TEXT.has(tag);
      if (raw) this.raw++;
      this.stack.push(raw ? RAW : 0);
      return;
    }
    if (tag === 'head') this.inHead = true;
    else if (tag === 'body' || (this.inHead && !HEAD_CONTENT.has(tag))) this.inHead = false;
    let flags = 0;
    if (NEVER_TEXT.has(tag)) flags |= HIDDEN | RAW;
    else if (this.settings.excludeTags.has(tag)) flags |= HIDDEN;
    if (PRE_TAGS.has(tag)) flags |= PRE;
    if (this.main && BOILERPLATE_TAGS.has(tag)) flags |= BOILERPLATE;
    if (BLOCKS.has(tag) || tag === 'br') {
      flags |= BLOCK;
      this.boundary();
    }
    const include = this.settings.include;
    for (let i = 0; i < include.length; i++) {
      if (matches(include[i]!, tag, attribs)) {
        flags |= 1 << (FIRST_MATCH_BIT + i);
        this.matched[i] = true;
        if (this.active[i]!++ === 0) this.included[i]!.space();
      }
    }
    if (flags & HIDDEN) this.hidden++;
    if (flags & RAW) this.raw++;
    if (flags & PRE) this.pre++;
    if (flags & BOILERPLATE) this.boilerplate++;
    this.stack.push(flags);
  }

  close(tag: string): void {
    const flags = this.stack.pop() ?? 0;
    if (tag === 'head') this.inHead = false;
    if (flags & HIDDEN) this.hidden--;
    if (flags & RAW) this.raw--;
    if (flags & PRE) this.pre--;
    if (flags & BOILERPLATE) this.boilerplate--;
    if (flags & BLOCK) this.boundary();
    for (let i = 0; i < this.active.length; i++) {
      if (flags & (1 << (FIRST_MATCH_BIT + i)) && --this.active[i]! === 0) this.included[i]!.space();
    }
  }

  text(data: string): void {
    if (this.hidden > 0 || this.settings.noText) return;
    if (this.inHead) {
      if (data.trim() === '') return;
      this.inHead = false;
    }
    const preserve = this.pre > 0;
    this.body.append(data, preserve);
    if (this.main && this.boilerplate === 0) this.main.append(data, preserve);
    for (let i = 0; i < this.active.length; i++)
      if (this.active[i]! > 0) this.included[i]!.append(data, preserve);
  }

  private boundary(): void {
    this.body.space();
    this.main?.space();
    for (let i = 0; i < this.active.length; i++) if (this.active[i]! > 0) this.included[i]!.space();
  }

  /** The index of the first include selector that matched; -1 when none did. */
  includedIndex(): number {
    return this.matched.indexOf(true);
  }

  /** The text of the first include selector that matched, else of the whole body. */
  result(): string {
    if (this.settings.noText) return '';
    const i = this.matched.indexOf(true);
    return i >= 0 ? this.included[i]!.toString() : this.body.toString();
  }

  /**
   * The text of the whole body without nav, header, footer and aside (and without what the text
   * is without: exclude tags, script...), for fingerprints; undefined unless `settings.mainText`.
   */
  mainResult(): string | undefined {
    if (this.settings.noText) return this.main ? '' : undefined;
    return this.main?.toString();
  }
}
