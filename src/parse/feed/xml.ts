import { streamXml, type XmlElement } from '../xml/stream.js';
import type { FeedEntry, FeedFormat } from './entry.js';
import { FeedFormatError } from './entry.js';

/** Namespaces that tell a dated element of RSS 1.0 and 2.0 apart from one of another vocabulary. */
const DC = 'http://purl.org/dc/elements/1.1/';
const CONTENT = 'http://purl.org/rss/1.0/modules/content/';
const ATOM = 'http://www.w3.org/2005/Atom';

/** The fields of one entry as read so far; text values are raw (not trimmed). */
interface Draft {
  link?: string;
  linkBase?: string;
  guid?: string;
  guidIsPermaLink: boolean;
  id?: string;
  title?: string;
  titleType?: string;
  published?: string;
  updated?: string;
  description?: string;
  descriptionType?: string;
  content?: string;
  contentType?: string;
}

const ROOTS: Record<string, FeedFormat> = { rss: 'rss', rdf: 'rdf', feed: 'atom' };

/**
 * Streams an RSS 0.9x/2.0, RSS 1.0 (rdf:RDF) or Atom 1.0 document (lenient: an RSS element in an
 * unexpected namespace, or none, is read all the same) and calls `onEntry` for each item or entry
 * as soon as it closes, in document order. Only the fields the crawler keeps are collected.
 *
 * Throws FeedFormatError when the root element is not rss, rdf:RDF or feed, or when the document
 * ends before its root element closes (a feed cut short) and `acceptTruncated` is false; an entry
 * cut by the end of the document is never reported.
 */
export function readXmlFeed(
  xml: string,
  onEntry: (entry: FeedEntry) => void,
  acceptTruncated = false,
): FeedFormat {
  let format: FeedFormat | undefined;
  let entryDepth = -1;
  let draft: Draft | undefined;

  const complete = streamXml(xml, {
    undeclared: (prefix) => (prefix === 'dc' ? DC : prefix === 'content' ? CONTENT : ''),
    root(el) {
      format = ROOTS[el.local];
      if (!format) throw new FeedFormatError(`not a feed: the root element is <${el.name}>`);
    },
    open(el, depth) {
      if (entryDepth < 0) {
        if (el.local === (format === 'atom' ? 'entry' : 'item')) {
          entryDepth = depth;
          draft = { guidIsPermaLink: true };
        }
        return;
      }
      // Text is kept for the entry's own fields and everything inside them (Atom XHTML content).
      if (depth === entryDepth + 1) {
        if (format === 'atom' && el.local === 'link' && el.ns !== '' && el.ns !== ATOM) return;
        if (format === 'atom' && el.local === 'link') {
          const rel = el.attribs.rel?.trim().toLowerCase();
          if (
            draft &&
            draft.link === undefined &&
            (rel === undefined || rel === 'alternate') &&
            el.attribs.href
          ) {
            draft.link = el.attribs.href;
            draft.linkBase = el.base;
          }
          return;
        }
        el.text = [];
      } else if (depth > entryDepth + 1) {
        el.text = el.parent?.text;
      }
    },
    close(el, depth, implied) {
      if (depth === entryDepth) {
        entryDepth = -1;
        // An entry closed only because the document ended is cut: its link may be too.
        if (draft && !implied) {
          const entry = finish(draft, format!);
          if (entry) onEntry(entry);
        }
        draft = undefined;
      } else if (depth === entryDepth + 1 && draft && el.text) {
        field(draft, el, format!, el.text.join(''));
      }
    },
  });
  if (!format) throw new FeedFormatError('not a feed: no XML root element');
  if (!complete && !acceptTruncated)
    throw new FeedFormatError(`truncated ${format} feed: the document ends before its root element closes`);
  return format;
}

/** Records one child element of an entry. */
function field(d: Draft, el: XmlElement, format: FeedFormat, text: string): void {
  const { local, ns } = el;
  const type = el.attribs.type?.trim().toLowerCase();
  if (format === 'atom') {
    if (ns !== '' && ns !== ATOM) return;
    if (local === 'id') d.id ??= text;
    else if (local === 'title') [d.title, d.titleType] = [d.title ?? text, d.titleType ?? type];
    else if (local === 'published') d.published ??= text;
    else if (local === 'updated') d.updated ??= text;
    else if (local === 'summary') [d.description, d.descriptionType] = [d.description ?? text, type];
    else if (local === 'content' && el.attribs.src === undefined)
      [d.content, d.contentType] = [d.content ?? text, type];
    return;
  }
  if (ns === DC) {
    if (local === 'date') d.published ??= text;
    else if (local === 'title') d.title ??= text;
    else if (local === 'description') d.description ??= text;
    return;
  }
  if (ns === CONTENT) {
    if (local === 'encoded') d.content ??= text;
    return;
  }
  // atom:link, media:title, itunes:summary and the like are not the item's own fields.
  if (ns !== '' && !RSS_NAMESPACES.has(ns)) return;
  if (local === 'link') d.link ??= text;
  else if (local === 'guid') {
    d.guid ??= text;
    d.guidIsPermaLink = el.attribs.ispermalink?.trim().toLowerCase() !== 'false';
  } else if (local === 'title') d.title ??= text;
  else if (local === 'pubdate') d.published ??= text;
  else if (local === 'description') d.description ??= text;
}

/** RSS 1.0, RSS 0.90 and UserLand's namespace for RSS 2.0, which a few generators still declare. */
const RSS_NAMESPACES = new Set([
  'http://purl.org/rss/1.0/',
  'http://my.netscape.com/rdf/simple/0.9/',
  'http://backend.userland.com/rss2',
]);

/** The entry as the feed stage uses it; undefined when it names no page. */
function finish(d: Draft, format: FeedFormat): FeedEntry | undefined {
  const trimmed = (s: string | undefined) => {
    const t = s?.trim();
    return t ? t : undefined;
  };
  // The link, else an identifier that is a URL (RSS: a permalink guid; Atom: an http(s) id).
  let link = trimmed(d.link);
  if (link === undefined && format === 'atom') link = httpUrl(trimmed(d.id));
  if (link === undefined && format !== 'atom' && d.guidIsPermaLink) link = httpUrl(trimmed(d.guid));
  if (link === undefined) return undefined;
  const summary = trimmed(d.description);
  const description = summary ?? trimmed(d.content);
  const descriptionType = summary !== undefined ? d.descriptionType : d.contentType;
  return {
    link,
    base: d.linkBase,
    title: trimmed(d.title),
    // Atom XHTML arrives as its text already (the markup was read as elements).
    titleIsMarkup: format === 'atom' && d.titleType === 'html',
    published: trimmed(d.published) ?? trimmed(d.updated),
    description,
    // RSS descriptions are HTML by definition; Atom says so with type="html".
    descriptionIsMarkup: format !== 'atom' || descriptionType === 'html',
  };
}

const HTTP = /^https?:\/\//i;
const httpUrl = (s: string | undefined) => (s !== undefined && HTTP.test(s) ? s : undefined);
