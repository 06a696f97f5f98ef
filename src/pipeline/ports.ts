import type { Metadata } from '../model/metadata.js';
import type { Status } from '../model/status.js';

/** A URL found on a page, already filtered and with its metadata from MetadataTransfer. */
export interface Outlink {
  readonly url: string;
  readonly metadata: Metadata;
}

/** What the parsers make of a fetched page. */
export type ParseOutcome =
  /** An HTML (or text) page to index; FETCHED follows once its content is written. */
  | {
      readonly kind: 'parsed';
      readonly url: string;
      readonly metadata: Metadata;
      readonly text: string;
      readonly outlinks: readonly Outlink[];
    }
  /** A page that ends here: a sitemap (FETCHED), a meta refresh (REDIRECTION), a parse error. */
  | {
      readonly kind: 'status';
      readonly url: string;
      readonly status: Status;
      readonly metadata: Metadata;
      readonly outlinks: readonly Outlink[];
    };

/**
 * The parse stage: on the event loop (synchronous) or on parser threads (a promise). A page it
 * cannot handle is a 'status' outcome (ERROR or FETCH_ERROR) with error.source and error.message,
 * never an exception; a rejected promise means the parser itself failed (a thread died).
 */
export interface PageParser {
  parse(page: {
    readonly url: string;
    readonly metadata: Metadata;
    readonly content: Buffer;
  }): ParseOutcome | Promise<ParseOutcome>;
}
