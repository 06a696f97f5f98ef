/** The formats the feed stage reads. */
export type FeedFormat = 'rss' | 'rdf' | 'atom' | 'json';

import { CrawlerError } from '../../util/errors.js';

/** One item of a feed as its reader found it: values trimmed, not yet resolved nor cut. */
export interface FeedEntry {
  /** The item's link, else an identifier that is an http(s) URL (RSS permalink guid, Atom id). */
  readonly link: string;
  /** The xml:base in scope of an Atom link, which resolves before the feed's own URL does. */
  readonly base: string | undefined;
  readonly title: string | undefined;
  /** The title is HTML to be read as text (Atom type="html"). */
  readonly titleIsMarkup: boolean;
  /** As written: RFC 822 (RSS pubDate), W3C/RFC 3339 (dc:date, Atom, JSON Feed). */
  readonly published: string | undefined;
  /** The summary, else the content. */
  readonly description: string | undefined;
  /** The description is HTML to be read as text. */
  readonly descriptionIsMarkup: boolean;
}

/** The document is not a feed, or not a whole one; the message says which and why. */
export class FeedFormatError extends CrawlerError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('FEED_FORMAT', message, options);
  }
}
