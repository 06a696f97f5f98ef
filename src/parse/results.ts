import { ERROR_SOURCE, MD } from '../model/keys.js';
import type { Metadata } from '../model/metadata.js';
import { errorMessage } from '../util/errors.js';
import type { ParseFilters } from './parsefilters/chain.js';
import type { ParseContext } from './parsefilters/types.js';
import { detachMetadata } from './strings.js';
import type { Outlink, ParseStatus } from './types.js';

/** A page that ends with a status of its own and the given error source and message. */
export function failed(
  url: string,
  md: Metadata,
  status: 'ERROR' | 'FETCH_ERROR',
  error: { readonly source: string; readonly message: string },
): ParseStatus {
  md.setValue(MD.errorSource, error.source);
  md.setValue(MD.errorMessage, error.message);
  detachMetadata(md);
  return { kind: 'status', url, status, metadata: md, outlinks: [] };
}

/** StormCrawler's message for an exception while parsing. */
export function parsingFailed(url: string, md: Metadata, e: unknown): ParseStatus {
  return failed(url, md, 'ERROR', {
    source: ERROR_SOURCE.parsing,
    message: `Exception while parsing ${url}: ${describe(e)}`,
  });
}

const describe = (e: unknown) => (e instanceof Error ? `${e.name}: ${e.message}` : errorMessage(e));

/**
 * Runs the parse filters; a failure ends the page as ERROR ("content filtering"), as StormCrawler.
 * Returns the failure result, or undefined when all filters ran.
 */
export function runFilters(
  filters: ParseFilters | undefined,
  url: string,
  doc: Parameters<ParseFilters['run']>[1],
  context: ParseContext,
): ParseStatus | undefined {
  if (!filters || filters.filters.length === 0) return undefined;
  const failure = filters.run(url, doc, context);
  if (!failure) return undefined;
  return failed(url, context.metadata, 'ERROR', {
    source: ERROR_SOURCE.filtering,
    message: `Exception while running parse filter ${failure.filter} on ${url}: ${failure.message}`,
  });
}

/** A plain mutable context for filters over a page without links to add. */
export function simpleContext(metadata: Metadata, content: Buffer, text: string, outlinks: () => Outlink[]) {
  const context: ParseContext = {
    metadata,
    text,
    content,
    get outlinks() {
      return outlinks();
    },
    addOutlink: () => undefined,
  };
  return context;
}
