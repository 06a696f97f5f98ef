import type { FeedEntry } from './entry.js';
import { FeedFormatError } from './entry.js';

const VERSION = /^https?:\/\/jsonfeed\.org\/version\//i;

const str = (v: unknown): string | undefined => {
  if (typeof v !== 'string') return undefined;
  const t = v.trim();
  return t === '' ? undefined : t;
};

/**
 * Reads a JSON Feed (https://jsonfeed.org, versions 1 and 1.1) and calls `onEntry` for each item
 * with a URL: `url`, else an `id` that is an http(s) URL (the spec lets `url` be left out when `id`
 * is the permalink). Throws FeedFormatError when the text is not JSON (with the parser's reason),
 * when `version` is not a JSON Feed version, or when `items` is not an array.
 */
export function readJsonFeed(text: string, onEntry: (entry: FeedEntry) => void): void {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new FeedFormatError(`not a JSON feed: ${(e as Error).message}`);
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc))
    throw new FeedFormatError('not a JSON feed: the document is not a JSON object');
  const feed = doc as Record<string, unknown>;
  const version = str(feed.version);
  if (version === undefined || !VERSION.test(version))
    throw new FeedFormatError(
      `not a JSON feed: "version" is ${JSON.stringify(feed.version ?? null)}, not https://jsonfeed.org/version/...`,
    );
  if (!Array.isArray(feed.items)) throw new FeedFormatError('not a JSON feed: "items" is not an array');
  for (const raw of feed.items) {
    if (typeof raw !== 'object' || raw === null) continue;
    const item = raw as Record<string, unknown>;
    const id = str(item.id);
    const link = str(item.url) ?? (id && /^https?:\/\//i.test(id) ? id : undefined);
    if (link === undefined) continue;
    const summary = str(item.summary);
    const plain = summary ?? str(item.content_text);
    const html = plain === undefined ? str(item.content_html) : undefined;
    onEntry({
      link,
      base: undefined,
      title: str(item.title),
      titleIsMarkup: false,
      published: str(item.date_published) ?? str(item.date_modified),
      description: plain ?? html,
      descriptionIsMarkup: html !== undefined,
    });
  }
}
