import type { ValueOf } from '../config/define.js';
import { parseKeys } from '../config/keys/parse.js';
import { tikaKeys } from '../config/keys/tika.js';
import { ConfigError } from '../util/errors.js';
import { compileSelector, type SimpleSelector } from './html/selectors.js';
import { compileWhitelist, type DocumentShunt, documentShunt } from './shunt.js';
import { SITEMAP_EXTENSIONS, type SitemapExtension } from './sitemap/extensions.js';

/** The configuration the parse stage reads: its own keys plus three owned by other roles. */
export type ParseConfig = { readonly [K in keyof typeof parseKeys]: ValueOf<(typeof parseKeys)[K]> } & {
  readonly 'redirections.allowed': boolean;
  readonly 'protocol.md.prefix': string;
  /** The shunt to the Tika stage (src/config/keys/tika.ts). */
  readonly 'tika.enabled': boolean;
  readonly 'parser.mimetype.whitelist': readonly string[];
};

/** Validated, ready-to-use parse settings; built once at start-up by `parseSettings`. */
export interface ParseSettings {
  readonly protocolPrefix: string;
  readonly treatNonHtmlAsError: boolean;
  readonly ignoreMetaRedirections: boolean;
  readonly redirectionsAllowed: boolean;
  readonly emitOutlinks: boolean;
  /** -1 = no limit. */
  readonly maxOutlinksPerPage: number;
  readonly trackAnchors: boolean;
  /** -1 = the whole content. */
  readonly charsetSniffLength: number;
  readonly text: TextSettings;
  readonly robotsNoFollowStrict: boolean;
  readonly robotsMetaSkip: boolean;
  readonly robotsHeadersSkip: boolean;
  readonly sitemap: SitemapSettings;
  /** Where documents (PDF, Office...) go to the Tika stage; undefined with tika.enabled false. */
  readonly documents: DocumentShunt | undefined;
  readonly feed: FeedSettings;
}

export interface TextSettings {
  readonly include: readonly SimpleSelector[];
  /** Lowercased tag names. */
  readonly excludeTags: ReadonlySet<string>;
  readonly noText: boolean;
  /** -1 = no limit. */
  readonly maxLength: number;
  /** Also collect the main text (without nav, header, footer, aside): a parse filter needs it. */
  readonly mainText?: boolean;
  /**
   * The text of the whole body (textextractor.whole.page) instead of the main content; no Markdown.
   * Undefined = false.
   */
  readonly wholePage?: boolean;
  /**
   * A document's XHTML (Tika): all of its body is its content (a PDF has no menus), as text and
   * Markdown; the extractor chooses nothing.
   */
  readonly document?: boolean;
  /** The main content as Markdown too (textextractor.markdown). Undefined = true. */
  readonly markdown?: boolean;
}

export interface SitemapSettings {
  readonly filterHoursSinceModified: number;
  readonly scheduleDelayMinutes: number;
  readonly extensions: readonly SitemapExtension[];
  /** -1 = no limit. */
  readonly maxUrls: number;
  readonly sniffLength: number;
  /** Decompressed gzip sitemaps larger than this are broken (the sitemaps.org limit is 50 MB). */
  readonly maxDecompressedBytes: number;
}

export interface FeedSettings {
  readonly sniff: boolean;
  /** -1 = keep all. */
  readonly filterHoursSincePublished: number;
  /** Characters of feed.description; 0 = none. */
  readonly descriptionMaxLength: number;
}

/** feed.description is a keyword in the status index, whose terms may not pass 32766 bytes. */
export const MAX_FEED_DESCRIPTION = 8000;

/**
 * The number of include selectors the text collector can track: one bit each in its element flags,
 * after its own four.
 */
export const MAX_INCLUDE_SELECTORS = 27;

/** 50 MiB: the sitemaps.org limit on an uncompressed sitemap, plus a little slack. */
export const MAX_SITEMAP_BYTES = 50 * 1024 * 1024;

const DEFAULTS = Object.fromEntries(Object.entries(parseKeys).map(([k, d]) => [k, d.default])) as {
  [K in keyof typeof parseKeys]: ValueOf<(typeof parseKeys)[K]>;
};

/** The defaults of every parse key, with redirections allowed and the `protocol.` prefix. */
export function defaultParseConfig(overrides: Partial<ParseConfig> = {}): ParseConfig {
  return {
    ...DEFAULTS,
    'redirections.allowed': true,
    'protocol.md.prefix': 'protocol.',
    'tika.enabled': tikaKeys['tika.enabled'].default,
    'parser.mimetype.whitelist': tikaKeys['parser.mimetype.whitelist'].default,
    ...overrides,
  };
}

/**
 * Checks what the key declarations cannot: the text selectors and the sitemap extension names. All
 * problems are reported at once in one ConfigError.
 */
export function parseSettings(config: ParseConfig): ParseSettings {
  const problems: string[] = [];
  const include: SimpleSelector[] = [];
  for (const pattern of config['textextractor.include.pattern']) {
    try {
      include.push(compileSelector(pattern));
    } catch (e) {
      problems.push(`textextractor.include.pattern: ${(e as Error).message}`);
    }
  }
  if (include.length > MAX_INCLUDE_SELECTORS)
    problems.push(`textextractor.include.pattern: at most ${MAX_INCLUDE_SELECTORS} selectors`);
  const extensions: SitemapExtension[] = [];
  for (const name of config['sitemap.extensions']) {
    const ext = SITEMAP_EXTENSIONS.find((x) => x === name.trim().toUpperCase());
    if (ext) extensions.push(ext);
    else
      problems.push(
        `sitemap.extensions: unknown extension "${name}"; expected some of ${SITEMAP_EXTENSIONS.join(', ')}`,
      );
  }
  const whitelist = compileWhitelist(config['parser.mimetype.whitelist'], problems);
  if (config['feed.description.maxlength'] > MAX_FEED_DESCRIPTION)
    problems.push(
      `feed.description.maxlength: ${config['feed.description.maxlength']} is above ${MAX_FEED_DESCRIPTION} (a keyword of the status index holds at most 32766 bytes)`,
    );
  if (problems.length > 0) throw new ConfigError(problems);
  return {
    protocolPrefix: config['protocol.md.prefix'],
    treatNonHtmlAsError: config['jsoup.treat.non.html.as.error'],
    ignoreMetaRedirections: config['jsoup.ignore.meta.redirections'],
    redirectionsAllowed: config['redirections.allowed'],
    emitOutlinks: config['parser.emitOutlinks'],
    maxOutlinksPerPage: config['parser.emitOutlinks.max.per.page'],
    trackAnchors: config['track.anchors'],
    charsetSniffLength: config['detect.charset.maxlength'],
    text: {
      include,
      excludeTags: new Set(config['textextractor.exclude.tags'].map((t) => t.trim().toLowerCase())),
      noText: config['textextractor.no.text'],
      wholePage: config['textextractor.whole.page'],
      markdown: config['textextractor.markdown'] && !config['textextractor.whole.page'],
      maxLength: config['textextractor.skip.after'],
    },
    robotsNoFollowStrict: config['robots.noFollow.strict'],
    robotsMetaSkip: config['http.robots.meta.skip'],
    robotsHeadersSkip: config['http.robots.headers.skip'],
    sitemap: {
      filterHoursSinceModified: config['sitemap.filter.hours.since.modified'],
      scheduleDelayMinutes: config['sitemap.schedule.delay'],
      extensions,
      maxUrls: config['sitemap.max.urls'],
      sniffLength: config['sitemap.offset.guess'],
      maxDecompressedBytes: MAX_SITEMAP_BYTES,
    },
    documents: config['tika.enabled'] ? documentShunt(whitelist) : undefined,
    feed: {
      sniff: config['feed.sniffContent'],
      filterHoursSincePublished: config['feed.filter.hours.since.published'],
      descriptionMaxLength: config['feed.description.maxlength'],
    },
  };
}
