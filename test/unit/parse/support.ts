import { readFileSync } from 'node:fs';
import { Metadata } from '../../../src/model/metadata.js';
import { MetadataTransfer } from '../../../src/model/metadata-transfer.js';
import { parsePage } from '../../../src/parse/dispatch.js';
import type { ParseFilters } from '../../../src/parse/parsefilters/chain.js';
import { defaultParseConfig, type ParseConfig, parseSettings } from '../../../src/parse/settings.js';
import type { SitemapDeps } from '../../../src/parse/sitemap/page.js';
import type { ParseResult } from '../../../src/parse/types.js';
import { ManualClock } from '../../../src/util/clock.js';

export const fixture = (name: string): Buffer =>
  readFileSync(new URL(`../../fixtures/parse/${name}`, import.meta.url));

/** A URL filter as a function, wrapped into the parser's OutlinkFilter by `deps`. */
export type OutlinkFilter = (source: URL, sourceMetadata: Metadata, target: string) => string | null;

/** Keeps every URL as it is. */
export const keepAll: OutlinkFilter = (_s, _m, target) => target;

/** A small normaliser: drops the fragment, as the BasicURLNormalizer does. */
export const dropFragment: OutlinkFilter = (_s, _m, target) => target.replace(/#.*$/, '');

export const transfer = new MetadataTransfer({
  transfer: [],
  persist: [],
  trackPath: true,
  trackDepth: true,
});

export interface DepsOptions {
  readonly config?: Partial<ParseConfig>;
  readonly urlFilter?: OutlinkFilter;
  readonly filters?: ParseFilters;
  readonly clock?: ManualClock;
}

export function deps(o: DepsOptions = {}): SitemapDeps {
  return {
    settings: parseSettings(defaultParseConfig(o.config)),
    transfer,
    urlFilter: { filter: o.urlFilter ?? keepAll },
    filters: o.filters,
    clock: o.clock ?? new ManualClock(Date.UTC(2025, 0, 2)),
  };
}

/** Metadata of a 200 answer with these response headers (names lowercased under `protocol.`). */
export function responseMetadata(
  headers: Record<string, string> = {},
  extra: Record<string, string> = {},
): Metadata {
  const md = Metadata.of(extra);
  for (const [k, v] of Object.entries(headers)) md.setValue(`protocol.${k.toLowerCase()}`, v);
  return md;
}

export function parse(
  url: string,
  content: Buffer | string,
  headers: Record<string, string> = { 'content-type': 'text/html; charset=utf-8' },
  o: DepsOptions & { metadata?: Record<string, string> } = {},
): ParseResult {
  return parsePage(
    {
      url,
      metadata: responseMetadata(headers, o.metadata),
      content: typeof content === 'string' ? Buffer.from(content, 'utf8') : content,
    },
    deps(o),
  );
}

export function expectParsed(r: ParseResult) {
  if (r.kind !== 'parsed') {
    throw new Error(
      `expected a parsed page, got ${r.kind === 'status' ? r.status : `a ${r.mediaType} for Tika`}: ${r.metadata.getFirstValue('error.message') ?? ''}`,
    );
  }
  return r;
}

export function expectStatus(r: ParseResult) {
  if (r.kind !== 'status')
    throw new Error(
      `expected a status result, got ${r.kind === 'parsed' ? 'a parsed page' : 'a document for Tika'}`,
    );
  return r;
}

export const urls = (r: ParseResult) => r.outlinks.map((o) => o.url);
