import { w3cDate } from './dates.js';

/**
 * Sitemap extensions (crawler-commons' `Extension`): their namespaces, the element that holds one
 * set of attributes, and the attribute names that become metadata keys `<EXT>.<name>` on the URL
 * (e.g. `IMAGE.loc`, `NEWS.title`, `LINKS.params.hreflang`), as StormCrawler writes them.
 *
 * Attributes are the text of the elements inside the container (their local names), with the
 * renames and conversions of crawler-commons: NEWS `keywords`, `genres` and `stock_tickers` are
 * split on commas; VIDEO `tag` is `tags`, `live` is `is_live`, `restriction` / `platform` become
 * `allowed_countries` / `restricted_countries` / `allowed_platforms` / `restricted_platforms` by
 * their `relationship` (split on spaces), `uploader@info` is `uploader_info`, `gallery_loc@title` is
 * `gallery_title`, `price` is `prices`; dates are ISO-8601 (DIFFERS: crawler-commons' Java
 * `toString`); yes/no values are true/false. LINKS (`<xhtml:link>`) has `href` and `params.<attr>`.
 * MOBILE carries no attribute, so it adds no key (as in StormCrawler). PAGEMAPS is not supported.
 */
export const SITEMAP_EXTENSIONS = ['IMAGE', 'LINKS', 'MOBILE', 'NEWS', 'VIDEO'] as const;
export type SitemapExtension = (typeof SITEMAP_EXTENSIONS)[number];

const variants = (...uris: string[]) => uris.flatMap((u) => [u, u.replace('http://', 'https://')]);

export const EXTENSION_NAMESPACES: Readonly<Record<SitemapExtension, readonly string[]>> = {
  IMAGE: variants('http://www.google.com/schemas/sitemap-image/1.1'),
  VIDEO: variants('http://www.google.com/schemas/sitemap-video/1.1'),
  NEWS: variants(
    'http://www.google.com/schemas/sitemap-news/0.9',
    'http://www.google.com/schemas/sitemap-news/0.84',
  ),
  MOBILE: variants('http://www.google.com/schemas/sitemap-mobile/1.0'),
  LINKS: variants('http://www.w3.org/1999/xhtml', 'http://www.w3.org/1999/xhtml/'),
};

/** The element that holds one set of attributes, by extension. */
export const CONTAINER: Readonly<Record<SitemapExtension, string>> = {
  IMAGE: 'image',
  VIDEO: 'video',
  NEWS: 'news',
  MOBILE: 'mobile',
  LINKS: 'link',
};

/** The extension of a namespace URI among the enabled ones. */
export function extensionOf(
  namespace: string | undefined,
  enabled: readonly SitemapExtension[],
): SitemapExtension | undefined {
  if (namespace === undefined) return undefined;
  return enabled.find((e) => EXTENSION_NAMESPACES[e].includes(namespace));
}

const COMMA = /\s*,\s*/;
const SPACE = /\s+/;
const DATES = new Set(['publication_date', 'expiration_date']);
const YES_NO = new Set(['requires_subscription', 'live']);

/**
 * The metadata entries for one element inside a container: its local name, its attributes and its
 * whitespace-collapsed text. Returns [key, values] pairs without the extension prefix.
 */
export function attributeValues(
  ext: SitemapExtension,
  local: string,
  attribs: Readonly<Record<string, string>>,
  text: string,
): [string, string[]][] {
  if (ext === 'MOBILE' || ext === 'LINKS') return [];
  const out: [string, string[]][] = [];
  if (ext === 'VIDEO') {
    if (local === 'uploader' && attribs.info) out.push(['uploader_info', [attribs.info]]);
    if (local === 'gallery_loc' && attribs.title) out.push(['gallery_title', [attribs.title]]);
  }
  if (text === '') return out;
  if (ext === 'NEWS' && (local === 'keywords' || local === 'genres' || local === 'stock_tickers')) {
    out.push([local, text.split(COMMA).filter((v) => v !== '')]);
  } else if (ext === 'VIDEO' && (local === 'restriction' || local === 'platform')) {
    const rel = attribs.relationship?.trim().toLowerCase();
    const kind = local === 'restriction' ? 'countries' : 'platforms';
    if (rel === 'allow') out.push([`allowed_${kind}`, text.split(SPACE)]);
    else if (rel === 'deny') out.push([`restricted_${kind}`, text.split(SPACE)]);
  } else if (DATES.has(local)) {
    const ms = w3cDate(text);
    if (ms !== undefined) out.push([local, [new Date(ms).toISOString()]]);
  } else if (ext === 'VIDEO' && YES_NO.has(local)) {
    const v = text.toLowerCase();
    if (v === 'yes' || v === 'no') out.push([local === 'live' ? 'is_live' : local, [String(v === 'yes')]]);
  } else if (ext === 'VIDEO' && local === 'family_friendly') {
    out.push([local, [String(text.toLowerCase() !== 'no')]]);
  } else if (ext === 'VIDEO' && local === 'tag') {
    out.push(['tags', [text]]);
  } else if (ext === 'VIDEO' && local === 'price') {
    out.push(['prices', [attribs.currency ? `${text} ${attribs.currency}` : text]]);
  } else if (ext !== 'NEWS' || (local !== 'publication' && local !== 'news')) {
    out.push([local, [text]]);
  }
  return out;
}

/** The attributes of an `<xhtml:link>`: `href` and `params.<name>` for the others. */
export function linkAttributes(attribs: Readonly<Record<string, string>>): [string, string[]][] {
  const out: [string, string[]][] = [];
  for (const [name, value] of Object.entries(attribs)) {
    if (name.startsWith('xmlns')) continue;
    out.push([name === 'href' ? 'href' : `params.${name}`, [value]]);
  }
  return out;
}
