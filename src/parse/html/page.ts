import { load } from 'cheerio/slim';
import { DomHandler } from 'htmlparser2';
import { ERROR_SOURCE, MD } from '../../model/keys.js';
import type { Metadata } from '../../model/metadata.js';
import type { MetadataTransfer } from '../../model/metadata-transfer.js';
import { charsetDisplayName, decode, detectCharset } from '../charset.js';
import { addFeedLinks } from '../feed/links.js';
import { detectMediaType, isHtmlType, isPlainText } from '../mime.js';
import { OutlinkCollector } from '../outlinks.js';
import type { ParseFilters } from '../parsefilters/chain.js';
import type { ParseContext } from '../parsefilters/types.js';
import { failed, parsingFailed, runFilters } from '../results.js';
import type { ParseSettings } from '../settings.js';
import { handOff } from '../shunt.js';
import { detach, detachMetadata } from '../strings.js';
import type { OutlinkFilter, ParseInput, ParseResult } from '../types.js';
import { extractHtml } from './extract.js';
import { addPageLinks, baseUrlOf } from './links.js';
import {
  applyDirectives,
  headerDirectives,
  noDirectives,
  refreshTarget,
  writeDirectives,
} from './robots-meta.js';

/** What the parser needs besides the page; built once at start-up and shared by all pages. */
export interface ParserDeps {
  readonly settings: ParseSettings;
  readonly transfer: MetadataTransfer;
  /** The URL filter chain. */
  readonly urlFilter: OutlinkFilter;
  readonly filters?: ParseFilters;
}

/** `parsed.by` values. */
export const PARSED_BY = { html: 'HtmlParser', text: 'PlainTextParser', tika: 'TikaParser' } as const;

/**
 * Parses a fetched page (StormCrawler's JSoupParserBolt). Synchronous and self-contained, so it can
 * run on a worker thread; it never throws: any failure is an ERROR result with `error.source`
 * "content parsing" (or "content filtering" when a parse filter threw). The input metadata is not
 * changed; results carry a copy, and every string in them is detached from the page.
 *
 * - not HTML nor text/plain → ERROR "content-type checking" (`jsoup.treat.non.html.as.error`) or a
 *   parsed page with empty text and no links (the parse filters still run, with no DOM);
 * - text/plain → the decoded content, verbatim, is the text (cut at `textextractor.skip.after`); no links;
 * - `<meta http-equiv="refresh">` with a URL → REDIRECTION with `_redirTo` (absolute) and the target
 *   as outlink when `redirections.allowed` (unless `jsoup.ignore.meta.redirections`); a refresh to
 *   the page itself is not a redirection (DIFFERS FROM STORMCRAWLER, which loops on it);
 * - otherwise a parsed page: title, description, keywords, canonical, robots.* keys, text, links.
 *
 * `beforeFilters` changes the metadata of an HTML page before the parse filters run (the Tika stage
 * adds the document's metadata there, as StormCrawler's ParserBolt does).
 */
export function parseHtml(
  input: ParseInput,
  deps: ParserDeps,
  beforeFilters?: (md: Metadata) => void,
): ParseResult {
  const md = input.metadata.copy();
  try {
    return parse(input, md, deps, beforeFilters);
  } catch (e) {
    return parsingFailed(input.url, md, e);
  }
}

function parse(
  input: ParseInput,
  md: Metadata,
  deps: ParserDeps,
  beforeFilters: ((md: Metadata) => void) | undefined,
): ParseResult {
  const { url, content } = input;
  const s = deps.settings;
  const contentType = md.getFirstValue(s.protocolPrefix + 'content-type');
  const mime = detectMediaType(content, contentType);
  md.setValue(MD.contentType, mime);
  const robots = noDirectives();
  if (!s.robotsHeadersSkip) headerDirectives(md, s.protocolPrefix, robots);

  if (!isHtmlType(mime) && !isPlainText(mime)) {
    // The shunt: a document Tika reads goes to the Tika stage (src/parse/shunt.ts).
    const document = s.documents?.claim(mime, content);
    if (document !== undefined) return handOff(url, md, document);
    if (s.treatNonHtmlAsError)
      return failed(url, md, 'ERROR', {
        source: ERROR_SOURCE.contentType,
        message: `Exception content-type ${mime} for ${url}`,
      });
    return finish(input, md, deps, { text: '', robots, collector: undefined, base: undefined });
  }

  const charset = detectCharset(content, contentType, s.charsetSniffLength);
  md.setValue(MD.contentEncoding, charsetDisplayName(charset.charset));
  if (isPlainText(mime)) {
    md.setValue(MD.parsedBy, PARSED_BY.text);
    const text = s.text.noText ? '' : cut(decode(content, charset), s.text.maxLength);
    return finish(input, md, deps, { text, robots, collector: undefined, base: undefined });
  }

  md.setValue(MD.parsedBy, PARSED_BY.html);
  const dom = deps.filters?.needsDom ? new DomHandler() : undefined;
  const ex = extractHtml(decode(content, charset), s.text, dom, (href) => baseUrlOf(url, href));
  if (!s.robotsMetaSkip && ex.robots !== undefined) applyDirectives(robots, [ex.robots]);
  const base = baseUrlOf(url, ex.baseHref);
  const collector = new OutlinkCollector(input, deps, {
    max: s.maxOutlinksPerPage,
    trackAnchors: s.trackAnchors,
  });

  const refresh =
    s.ignoreMetaRedirections || ex.refresh === undefined ? undefined : refreshTarget(ex.refresh);
  const target = refresh === undefined ? undefined : OutlinkCollector.resolve(refresh, base);
  if (target !== undefined && target !== url) {
    writeDirectives(md, robots);
    md.setValue(MD.redirTo, target);
    if (s.redirectionsAllowed) collector.add(target, base);
    detachMetadata(md);
    return { kind: 'status', url, status: 'REDIRECTION', metadata: md, outlinks: collector.outlinks() };
  }

  replace(md, MD.title, ex.title?.trim() ? [ex.title] : ex.metaTitle ? [ex.metaTitle] : []);
  replace(md, MD.description, ex.descriptions);
  replace(md, MD.keywords, ex.keywords);
  replace(
    md,
    MD.canonical,
    ex.canonicals.filter((c) => c.trim() !== ''),
  );
  addFeedLinks(collector, ex.feeds, base, { pageNoFollow: robots.noFollow, strict: s.robotsNoFollowStrict });
  addPageLinks(collector, ex.links, base, { pageNoFollow: robots.noFollow, strict: s.robotsNoFollowStrict });
  const doc = dom ? load(dom.root) : null;
  beforeFilters?.(md);
  return finish(input, md, deps, {
    text: ex.text,
    mainText: ex.mainText,
    markdown: ex.markdown,
    robots,
    collector,
    base,
    doc,
  });
}

interface Parsed {
  readonly text: string;
  readonly mainText?: string | undefined;
  /** The main content as Markdown (HTML pages, unless textextractor.markdown is false). */
  readonly markdown?: string | undefined;
  readonly robots: ReturnType<typeof noDirectives>;
  readonly collector: OutlinkCollector | undefined;
  readonly base: URL | undefined;
  readonly doc?: ReturnType<typeof load> | null;
}

/** Runs the parse filters and builds the parsed result. */
function finish(input: ParseInput, md: Metadata, deps: ParserDeps, p: Parsed): ParseResult {
  const { settings: s } = deps;
  writeDirectives(md, p.robots);
  const blocked = p.robots.noFollow && s.robotsNoFollowStrict;
  const { collector, base } = p;
  const context: ParseContext = {
    metadata: md,
    text: p.text,
    ...(p.mainText === undefined ? {} : { mainText: p.mainText }),
    content: input.content,
    get outlinks() {
      return collector?.outlinks() ?? [];
    },
    addOutlink: (href, anchor) =>
      collector && base && !blocked ? collector.add(href, base, anchor?.trim() || undefined) : undefined,
  };
  const failure = runFilters(deps.filters, input.url, p.doc ?? null, context);
  if (failure) return failure;
  detachMetadata(md);
  return {
    kind: 'parsed',
    url: input.url,
    metadata: md,
    // The extracted text is already a copy; only a text a filter put there needs copying.
    text: context.text === p.text ? p.text : detach(context.text),
    ...(p.markdown === undefined ? {} : { markdown: p.markdown }),
    outlinks: s.emitOutlinks && collector ? collector.outlinks() : [],
    noIndex: p.robots.noIndex,
  };
}

function replace(md: Metadata, key: string, values: readonly string[]): void {
  md.remove(key);
  md.setValues(key, values);
}

/** The first `max` characters, copied so that the cut text does not keep the whole content. */
function cut(text: string, max: number): string {
  return max > 0 && text.length > max ? detach(text.slice(0, max)) : text;
}
