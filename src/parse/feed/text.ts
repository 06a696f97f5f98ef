import { Parser } from 'htmlparser2';
import { collapseSpace, detach } from '../strings.js';

/** Elements whose content is never text. */
const SKIP = new Set(['script', 'style', 'template', 'noscript']);
/** Elements inside a line of text; every other element separates words ("<p>One</p><p>Two</p>"). */
const INLINE = new Set([
  'a',
  'abbr',
  'b',
  'bdi',
  'bdo',
  'cite',
  'code',
  'data',
  'dfn',
  'em',
  'font',
  'i',
  'kbd',
  'mark',
  'q',
  's',
  'samp',
  'small',
  'span',
  'strong',
  'sub',
  'sup',
  'time',
  'u',
  'var',
  'wbr',
]);

/**
 * The text of an HTML fragment (an RSS description, an Atom summary of type "html"): tags dropped,
 * entities decoded, whitespace collapsed. Never throws (htmlparser2 reads any input).
 */
export function htmlToText(html: string): string {
  if (!html.includes('<') && !html.includes('&')) return collapseSpace(html);
  const parts: string[] = [];
  let skipping = 0;
  const parser = new Parser(
    {
      onopentag(name) {
        if (SKIP.has(name)) skipping++;
        else if (!INLINE.has(name)) parts.push(' ');
      },
      onclosetag(name) {
        if (SKIP.has(name)) skipping = Math.max(0, skipping - 1);
        else if (!INLINE.has(name)) parts.push(' ');
      },
      ontext(data) {
        if (skipping === 0) parts.push(data);
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.end(html);
  return collapseSpace(parts.join(''));
}

/**
 * At most `max` characters of `s` (-1 = all), never splitting a surrogate pair, as a fresh string
 * that does not keep the feed alive.
 */
export function cutText(s: string, max: number): string {
  if (max < 0 || s.length <= max) return detach(s);
  let end = max;
  const last = s.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return detach(s.slice(0, end).trimEnd());
}
