import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { filterKeys } from '../config/keys/filters.js';
import { nearest } from '../config/nearest.js';
import { ConfigError, errorMessage } from '../util/errors.js';
import { shown } from '../util/shown.js';
import { BasicURLFilter } from './basic-filter.js';
import { BasicURLNormalizer } from './basic-normalizer.js';
import { URLFilterChain } from './chain.js';
import { FastURLFilter } from './fast-filter.js';
import { HostURLFilter } from './host.js';
import { type FilterConfig, type FilterFactory, FilterParams, type LoadedFile } from './params.js';
import { RegexURLFilter } from './regex-filter.js';
import { RegexURLNormalizer } from './regex-normalizer.js';
import { MaxDepthFilter, MetadataFilter, SelfURLFilter, SitemapFilter } from './source.js';
import type { URLFilter, WarnLogger } from './types.js';

/** The package's conf/ directory (two levels above this file, in src/ and in dist/ alike). */
export const PACKAGE_CONF_DIR = fileURLToPath(new URL('../../conf/', import.meta.url));

/** The built-in filters by short class name; StormCrawler's class names map to these. */
export const BUILTIN_FILTERS: Readonly<Record<string, FilterFactory>> = {
  BasicURLFilter: ({ name, params: p }) =>
    new BasicURLFilter(
      { maxLength: p.int('maxLength', -1), maxPathRepetition: p.int('maxPathRepetition', 3) },
      name,
    ),
  BasicURLNormalizer: ({ name, params: p }) =>
    new BasicURLNormalizer(
      {
        removeAnchorPart: p.bool('removeAnchorPart', true),
        unmangleQueryString: p.bool('unmangleQueryString', true),
        queryElementsToRemove: p.stringList('queryElementsToRemove', []),
        removeHashes: p.bool('removeHashes', false),
        hostIDNtoASCII: p.bool('hostIDNtoASCII', false),
        checkValidURI: p.bool('checkValidURI', true),
      },
      name,
    ),
  MaxDepthFilter: ({ name, params: p }) => new MaxDepthFilter(p.int('maxDepth', -1), name),
  HostURLFilter: ({ name, params: p }) =>
    new HostURLFilter(
      {
        ignoreOutsideHost: p.bool('ignoreOutsideHost', false),
        ignoreOutsideDomain: p.bool('ignoreOutsideDomain', false),
      },
      name,
    ),
  RegexURLFilter: (ctx) => RegexURLFilter.fromContext(ctx),
  RegexURLNormalizer: (ctx) => RegexURLNormalizer.fromContext(ctx),
  FastURLFilter: (ctx) => FastURLFilter.fromContext(ctx),
  MetadataFilter: ({ name, params }) => new MetadataFilter(Object.fromEntries(params.entries()), name),
  SelfURLFilter: ({ name }) => new SelfURLFilter(name),
  SitemapFilter: ({ name, config }) => new SitemapFilter(config['sitemap.discovery'], name),
};

const JAVA_PACKAGES = ['org.apache.stormcrawler.', 'com.digitalpebble.stormcrawler.'];
const CHAIN_KEYS = [
  'org.apache.stormcrawler.filtering.URLFilters',
  'com.digitalpebble.stormcrawler.filtering.URLFilters',
  'URLFilters',
];
const ENTRY_KEYS = new Set(['class', 'name', 'params']);

export interface LoadURLFiltersOptions {
  /** Where a relative `urlfilters.config.file` is looked up first. @default process.cwd() */
  readonly baseDir?: string;
  /** Receives warnings (unknown params) now and filter failures later. */
  readonly logger?: WarnLogger;
  /** Custom filters by class name; they take precedence over the built-ins. */
  readonly classes?: Readonly<Record<string, FilterFactory>>;
  /** Sees every URL a filter drops, with the filter's name (debug logging). */
  readonly onDrop?: (filter: string, url: string) => void;
}

function findFile(name: string, dirs: readonly string[]): { path?: string; tried: string[] } {
  const tried = isAbsolute(name) ? [name] : dirs.map((d) => resolve(d, name));
  const path = tried.find((p) => existsSync(p) && statSync(p).isFile());
  return { path, tried: [...new Set(tried)] };
}

/**
 * Builds the URL filter chain named by `urlfilters.config.file`.
 *
 * - A relative path is looked up in `baseDir`, then in the package's conf/; with the default
 *   (`urlfilters.json`) that is the shipped chain unless the current directory has its own.
 *   DIFFERS FROM STORMCRAWLER: it has no default and runs no filters when the key is unset.
 * - `""` gives an empty chain: no normalisation, but only http(s) URLs that parse still pass.
 * - Files named in params (rule files) are looked up next to the urlfilters file, then in conf/.
 * - Every problem (unreadable file, invalid JSON, unknown class, bad param, invalid regex) is
 *   collected and thrown as one `ConfigError` naming the file, the entry (`filters[i] "name"`) and
 *   the param; params nobody reads are only warned about, as probable typos.
 */
export function loadURLFilters(
  config: Partial<FilterConfig> = {},
  options: LoadURLFiltersOptions = {},
): URLFilterChain {
  const file = config['urlfilters.config.file'] ?? filterKeys['urlfilters.config.file'].default;
  if (file.trim() === '')
    return new URLFilterChain([], { logger: options.logger, source: null, onDrop: options.onDrop });
  const found = findFile(file, [options.baseDir ?? process.cwd(), PACKAGE_CONF_DIR]);
  if (!found.path) {
    throw new ConfigError([
      `urlfilters.config.file: cannot find ${JSON.stringify(file)} (looked at ${found.tried.join(', ')})`,
    ]);
  }
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(found.path, 'utf8'));
  } catch (e) {
    throw new ConfigError([`${found.path}: cannot read the URL filters: ${errorMessage(e)}`]);
  }
  const filters = buildFilters(json, found.path, config, options);
  return new URLFilterChain(filters, { logger: options.logger, source: found.path, onDrop: options.onDrop });
}

/** A logger that may say which filter dropped which URL at debug level; pino's logger fits. */
export interface DropLogger extends WarnLogger {
  isLevelEnabled(level: 'debug'): boolean;
  debug(obj: object, msg: string): void;
}

/** The crawl's own chain: at debug level, every drop logged (the counts are in the crawl summary). */
export function loadCrawlFilters(config: Partial<FilterConfig>, log: DropLogger): URLFilterChain {
  const onDrop = log.isLevelEnabled('debug')
    ? (name: string, url: string) => log.debug({ filter: name, url: shown(url) }, `URL dropped by ${name}`)
    : undefined;
  return loadURLFilters(config, { logger: log, ...(onDrop ? { onDrop } : {}) });
}

/**
 * Builds the filters of a parsed urlfilters JSON document; `path` names it in messages and
 * anchors relative rule files. Throws one `ConfigError` listing every problem.
 */
export function buildFilters(
  json: unknown,
  path: string,
  config: Partial<FilterConfig> = {},
  options: Omit<LoadURLFiltersOptions, 'baseDir'> = {},
): URLFilter[] {
  const full: FilterConfig = {
    'urlfilters.config.file':
      config['urlfilters.config.file'] ?? filterKeys['urlfilters.config.file'].default,
    'fast.urlfilter.file': config['fast.urlfilter.file'] ?? filterKeys['fast.urlfilter.file'].default,
    'sitemap.discovery': config['sitemap.discovery'] ?? filterKeys['sitemap.discovery'].default,
  };
  const key = CHAIN_KEYS.find((k) => json && typeof json === 'object' && Object.hasOwn(json, k));
  const list: unknown = key ? (json as Record<string, unknown>)[key] : undefined;
  if (!Array.isArray(list)) {
    throw new ConfigError([
      `${path}: expected {"${CHAIN_KEYS[0]}": [{"class": ..., "name": ..., "params": {...}}, ...]}`,
    ]);
  }
  const env: EntryEnv = {
    path,
    dirs: [dirname(path), PACKAGE_CONF_DIR],
    classes: { ...BUILTIN_FILTERS, ...options.classes },
    config: full,
    logger: options.logger,
    problems: [],
  };
  const filters: URLFilter[] = [];
  list.forEach((entry: unknown, i) => {
    const filter = buildEntry(entry, i, env);
    if (filter) filters.push(filter);
  });
  const problems = env.problems;
  if (problems.length > 0) throw new ConfigError(problems);
  return filters;
}

interface EntryEnv {
  readonly path: string;
  readonly dirs: readonly string[];
  readonly classes: Readonly<Record<string, FilterFactory>>;
  readonly config: FilterConfig;
  readonly logger: WarnLogger | undefined;
  readonly problems: string[];
}

/** One `{"class", "name", "params"}` entry; its problems go to `env.problems`. */
function buildEntry(entry: unknown, i: number, env: EntryEnv): URLFilter | undefined {
  const e = (entry && typeof entry === 'object' && !Array.isArray(entry) ? entry : {}) as Record<
    string,
    unknown
  >;
  const cls = typeof e.class === 'string' ? e.class : '';
  const short = cls.slice(cls.lastIndexOf('.') + 1);
  const name = typeof e.name === 'string' && e.name !== '' ? e.name : short;
  const where = `${env.path}: filters[${i}]${name ? ` "${name}"` : ''}`;
  const problem = (m: string) => {
    env.problems.push(`${where}: ${m}`);
  };
  const factory =
    env.classes[cls] ?? (JAVA_PACKAGES.some((p) => cls.startsWith(p)) ? BUILTIN_FILTERS[short] : undefined);
  if (!factory) {
    const known = Object.keys(env.classes);
    const hint = nearest(short, known);
    problem(
      cls === ''
        ? 'missing "class"'
        : `unknown class ${JSON.stringify(cls)}${hint ? ` (did you mean "${hint}"?)` : ''}; known: ${known.join(', ')}`,
    );
    return undefined;
  }
  const rawParams = e.params ?? {};
  if (typeof rawParams !== 'object' || rawParams === null || Array.isArray(rawParams)) {
    problem('"params" must be an object');
    return undefined;
  }
  const params = new FilterParams(rawParams as Record<string, unknown>, problem);
  const readFile = (param: string, file: string): LoadedFile | undefined => {
    const f = findFile(file, env.dirs);
    try {
      if (f.path) return { path: f.path, text: readFileSync(f.path, 'utf8') };
      problem(`${param}: cannot find ${JSON.stringify(file)} (looked at ${f.tried.join(', ')})`);
    } catch (err) {
      problem(`${param}: cannot read ${f.path}: ${errorMessage(err)}`);
    }
    return undefined;
  };
  let filter: URLFilter | undefined;
  try {
    filter = factory({ name, params, config: env.config, logger: env.logger, readFile, problem });
  } catch (err) {
    problem(errorMessage(err));
  }
  const unknown = [
    ...Object.keys(e).filter((k) => !ENTRY_KEYS.has(k)),
    ...params.unused().map((k) => `params.${k}`),
  ];
  for (const k of unknown) {
    env.logger?.warn({ file: env.path, filter: name, key: k }, `${where}: unknown key "${k}"; it is ignored`);
  }
  return filter;
}
