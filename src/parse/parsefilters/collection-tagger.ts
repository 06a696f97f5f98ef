import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { MD } from '../../model/keys.js';
import { Params } from './params.js';
import type { ParseFilterFactory } from './types.js';

interface Collection {
  readonly name: string;
  readonly include: readonly RegExp[];
  readonly exclude: readonly RegExp[];
}

/**
 * CollectionTagger: tags pages with the names of the collections whose patterns match the URL, in
 * metadata `key` (default "collections"). A collection matches when one of its `includePatterns`
 * matches the whole URL and none of its `excludePatterns` does (Java `matches()`: anchored at both
 * ends). Collections come from `params.collections` (a list of `{name, includePatterns,
 * excludePatterns}`) or from the JSON file `params.file` (`{"collections": [...]}`, relative to
 * the parse filters file), as StormCrawler's.
 * DIFFERS FROM STORMCRAWLER: JavaScript regular expressions; tags in configuration order instead
 * of HashSet order; a collection without include patterns matches nothing.
 */
export const collectionTagger: ParseFilterFactory = (raw, ctx) => {
  const p = new Params(ctx.name, raw);
  const key = p.string('key', MD.collections);
  let list: unknown = raw['collections'];
  const file = p.string('file', '');
  if (list === undefined && file !== '') {
    const path = isAbsolute(file) ? file : resolve(ctx.baseDir, file);
    try {
      list = (JSON.parse(readFileSync(path, 'utf8')) as { collections?: unknown }).collections;
    } catch (e) {
      throw p.error(`cannot read collections from ${path}: ${(e as Error).message}`);
    }
  }
  if (!Array.isArray(list)) throw p.error('needs "collections" (a list) or "file"');
  const collections: Collection[] = list.map((c: unknown, i: number) => {
    const entry = new Params(`${ctx.name} collection ${i}`, (c ?? {}) as Record<string, unknown>);
    const name = entry.string('name', '');
    if (name === '') throw entry.error('has no "name"');
    const compile = (param: string) => entry.strings(param).map((src) => entry.regex(param, `^(?:${src})$`));
    return { name, include: compile('includePatterns'), exclude: compile('excludePatterns') };
  });
  return {
    name: ctx.name,
    filter(url, _doc, parse) {
      const tags = collections
        .filter((c) => c.include.some((r) => r.test(url)) && !c.exclude.some((r) => r.test(url)))
        .map((c) => c.name);
      if (tags.length > 0) parse.metadata.setValues(key, [...new Set(tags)]);
    },
  };
};
