import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError } from '../../util/errors.js';
import { commaSeparatedToMultivalued, domainParseFilter, mimeTypeNormalization } from './basic.js';
import { ParseFilters } from './chain.js';
import { collectionTagger } from './collection-tagger.js';
import { languageIdFilter } from './language.js';
import { cssSelectorFilter, linkParseFilter } from './selector.js';
import { signatureParseFilter } from './signature.js';
import { simhashParseFilter } from './simhash.js';
import type { ParseFilter, ParseFilterFactory } from './types.js';

/** Built-in filters by short class name; StormCrawler's fully qualified names resolve to these. */
export const BUILT_IN_FILTERS: Readonly<Record<string, ParseFilterFactory>> = {
  DomainParseFilter: domainParseFilter,
  MimeTypeNormalization: mimeTypeNormalization,
  CommaSeparatedToMultivaluedMetadata: commaSeparatedToMultivalued,
  MD5SignatureParseFilter: signatureParseFilter,
  SignatureParseFilter: signatureParseFilter,
  CollectionTagger: collectionTagger,
  CSSSelectorFilter: cssSelectorFilter,
  SelectorFilter: cssSelectorFilter,
  LinkParseFilter: linkParseFilter,
  LanguageID: languageIdFilter,
  SimhashParseFilter: simhashParseFilter,
};

const NOT_PORTED: Record<string, string> = {
  XPathFilter: 'XPath is not supported: use CSSSelectorFilter with CSS selectors (selector@attribute)',
  LDJsonParseFilter: 'not available yet',
};

/** The top-level key of StormCrawler's parsefilters.json; the short form is accepted too. */
const TOP_KEYS = [
  'org.apache.stormcrawler.parse.ParseFilters',
  'com.digitalpebble.stormcrawler.parse.ParseFilters',
  'ParseFilters',
];

export interface LoadOptions {
  /** Filters of your own, by class name; they take precedence over built-ins of the same name. */
  readonly custom?: Readonly<Record<string, ParseFilterFactory>>;
  /** Directory for relative resource files (CollectionTagger); defaults to the file's directory. */
  readonly baseDir?: string;
}

/**
 * Builds the filters of a parsefilters.json document:
 * `{"org.apache.stormcrawler.parse.ParseFilters": [{"class": "...", "name": "...", "params": {}}]}`.
 * Classes are matched by their last dotted segment, so StormCrawler's fully qualified names work.
 * Every problem (unknown class, bad params) is a ConfigError naming the entry.
 */
export function buildParseFilters(json: unknown, source: string, options: LoadOptions = {}): ParseFilters {
  const fail = (msg: string): never => {
    throw new ConfigError([`${source}: ${msg}`]);
  };
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return fail('expected a JSON object');
  const doc = json as Record<string, unknown>;
  const top = TOP_KEYS.find((k) => k in doc);
  if (top === undefined) return fail(`expected the key "${TOP_KEYS[0]}" with a list of filters`);
  const entries = doc[top];
  if (!Array.isArray(entries)) return fail(`"${top}" must be a list`);
  const registry = { ...BUILT_IN_FILTERS, ...options.custom };
  const filters: ParseFilter[] = [];
  for (const [i, entry] of entries.entries()) {
    if (entry === null || typeof entry !== 'object') fail(`entry ${i} must be an object`);
    const { class: cls, name, params } = entry as Record<string, unknown>;
    if (typeof cls !== 'string' || cls.trim() === '') fail(`entry ${i} has no "class"`);
    const short = (cls as string).slice((cls as string).lastIndexOf('.') + 1);
    const label = typeof name === 'string' && name !== '' ? name : short;
    const factory = registry[cls as string] ?? registry[short];
    if (!factory) {
      fail(
        `entry ${i} (${label}): ${NOT_PORTED[short] ?? `unknown class ${cls}; known: ${Object.keys(registry).join(', ')}`}`,
      );
    }
    if (params !== undefined && (params === null || typeof params !== 'object' || Array.isArray(params)))
      fail(`entry ${i} (${label}): "params" must be an object`);
    const baseDir = options.baseDir ?? process.cwd();
    filters.push(factory!((params ?? {}) as Record<string, unknown>, { name: label, baseDir }));
  }
  return new ParseFilters(filters, source);
}

/** The folder of the crawler's own files (where `conf/` ships), found from this module's location. */
function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    if (existsSync(resolve(dir, 'package.json')) && existsSync(resolve(dir, 'conf'))) return dir;
    dir = dirname(dir);
  }
  return process.cwd();
}

/**
 * Where `parsefilters.config.file` points: an absolute path as is; a relative one in the working
 * directory if it exists there, else in the crawler's own `conf/` folder (where the default
 * parsefilters.json ships). Undefined when the key is empty (no parse filters).
 */
export function resolveFiltersFile(configured: string, cwd = process.cwd()): string | undefined {
  const path = configured.trim();
  if (path === '') return undefined;
  if (isAbsolute(path)) return path;
  const local = resolve(cwd, path);
  if (existsSync(local)) return local;
  const shipped = resolve(packageRoot(), 'conf', path);
  return existsSync(shipped) ? shipped : local;
}

/** Loads `parsefilters.config.file`; an empty setting means no parse filters. */
export function loadParseFilters(configured: string, options: LoadOptions = {}): ParseFilters {
  const path = resolveFiltersFile(configured);
  if (path === undefined) return ParseFilters.none;
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new ConfigError([`parsefilters.config.file ${path}: ${(e as Error).message}`]);
  }
  return buildParseFilters(json, path, { baseDir: dirname(path), ...options });
}
