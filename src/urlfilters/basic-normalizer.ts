import { formDecode, normalizeEscapes, PATH_CHARS, QUERY_CHARS, USERINFO_CHARS } from './percent.js';
import type { MetadataView, URLFilter } from './types.js';
import { isFetchableHost, parseWebUrl, rememberParsed } from './url.js';

export interface BasicURLNormalizerOptions {
  /** Drop the fragment (`#...`). @default true */
  readonly removeAnchorPart?: boolean;
  /** Turn `http://a.com/p&x=1` into `http://a.com/p?x=1`. @default true */
  readonly unmangleQueryString?: boolean;
  /** Query (and last-segment `;`) parameters to remove, by decoded name. @default [] */
  readonly queryElementsToRemove?: readonly string[];
  /** Remove parameters whose value is 32 hex digits (session ids). @default false */
  readonly removeHashes?: boolean;
  /**
   * Accepted for StormCrawler compatibility. Hosts always come out in ASCII (punycode): the WHATWG
   * parser converts them and the fetcher needs them so. A host that cannot be converted is rejected.
   */
  readonly hostIDNtoASCII?: boolean;
  /**
   * Accepted for StormCrawler compatibility. Dot segments are always resolved and invalid characters
   * always escaped, so the output is always a valid URI.
   */
  readonly checkValidURI?: boolean;
}

const HASH32 = /^[0-9a-fA-F]{32}$/;
const DOT_SEGMENT = /\/\.\.?(?:\/|$)/;

/**
 * StormCrawler's BasicURLNormalizer on top of the WHATWG URL parser. The output is canonical: it
 * reparses to itself (`new URL(out).href === out`) and normalising it again changes nothing.
 *
 * Steps: trim; drop the fragment; unmangle a query that starts with "&"; parse (which lowercases the
 * scheme and host, converts IDN hosts to punycode, drops a default port, resolves dot segments and
 * adds "/" to an empty path); normalise the escapes of path and query (see `percent.ts`); then, if
 * `queryElementsToRemove` or `removeHashes` is set, remove the listed and session-id parameters from
 * the query and from the last path segment's `;` parameters, and sort the query by name.
 *
 * DIFFERS FROM STORMCRAWLER, so that the result is canonical and idempotent:
 * - an empty path becomes "/" (`http://a.com?x=1` gives `http://a.com/?x=1`), a default port is
 *   dropped, backslashes in the path are slashes, and the host is always ASCII (as browsers do);
 * - the fragment starts at the first "#", not the last;
 * - `;` parameters of the last path segment stay in the path (minus the removed ones) instead of
 *   moving to the query;
 * - the query is split on "&" only (not ";"), and each kept parameter keeps its own spelling rather
 *   than being re-encoded as a form (`!` stays `!`, `%20` stays `%20`);
 * - characters StormCrawler's checkValidURI would reject (`^`, `{`, a stray `%`...) are escaped;
 *   rejected are URLs the WHATWG parser refuses, other schemes than http(s), and hosts that are not
 *   host names or IP addresses (`http://a{b/`).
 */
export class BasicURLNormalizer implements URLFilter {
  private readonly removeAnchorPart: boolean;
  private readonly unmangleQueryString: boolean;
  private readonly removeNames: ReadonlySet<string>;
  private readonly removeHashes: boolean;
  private readonly processParams: boolean;

  constructor(
    options: BasicURLNormalizerOptions = {},
    readonly name = 'BasicURLNormalizer',
  ) {
    this.removeAnchorPart = options.removeAnchorPart ?? true;
    this.unmangleQueryString = options.unmangleQueryString ?? true;
    this.removeNames = new Set(options.queryElementsToRemove ?? []);
    this.removeHashes = options.removeHashes ?? false;
    this.processParams = this.removeNames.size > 0 || this.removeHashes;
  }

  filter(_sourceUrl: URL | null, _md: MetadataView | null, url: string): string | null {
    return this.normalize(url);
  }

  private normalize(url: string): string | null {
    let s = trimControls(url);
    if (this.removeAnchorPart) {
      const hash = s.indexOf('#');
      if (hash !== -1) s = s.slice(0, hash);
    }
    if (this.unmangleQueryString) s = unmangle(s);

    // A hit when the filter before parsed the same string.
    const parsed = parseWebUrl(s);
    if (parsed === null || !isFetchableHost(parsed.hostname)) return null;

    const href = parsed.href;
    let hash = parsed.hash;
    if (hash === '' && href.endsWith('#')) hash = '#';
    const search = parsed.search;
    let query: string | null =
      search !== ''
        ? normalizeEscapes(search.slice(1), QUERY_CHARS)
        : href[href.length - hash.length - 1] === '?'
          ? ''
          : null;
    let path = normalizeEscapes(parsed.pathname, PATH_CHARS);

    if (this.processParams) {
      path = this.removePathParams(path);
      if (query !== null) query = this.processQuery(query);
    }
    // A decoded "%u002E" can form a new "." or ".." segment; the parser resolves those.
    if (DOT_SEGMENT.test(path)) path = new URL(`http://h${path}`).pathname;

    const user = normalizeEscapes(parsed.username, USERINFO_CHARS);
    const password = normalizeEscapes(parsed.password, USERINFO_CHARS);
    const auth = user !== '' || password !== '' ? `${user}${password !== '' ? `:${password}` : ''}@` : '';
    const out = `${parsed.protocol}//${auth}${parsed.host}${path}${query === null ? '' : `?${query}`}${hash}`;
    // Dropping an emptied query can expose a path that unmangling would change (`/a=b&c?sid=<hash>`
    // gives `/a=b&c`): go again until stable. Each round turns one "&" into "?", so it ends.
    if (query === null && this.unmangleQueryString && unmangle(out) !== out) return this.normalize(out);
    if (out === href) {
      // Spares the next filters a parse when nothing but the parser's own canonicalisation applied,
      // and hands on a flat string (the input itself when it was already canonical) rather than the
      // concatenation: every Map the URL meets later hashes it at once instead of flattening it.
      rememberParsed(href, parsed);
      return s === href ? s : href;
    }
    return out;
  }

  private isRemoved(rawName: string, rawValue: string | null): boolean {
    const name = formDecode(rawName);
    if (name === '' || this.removeNames.has(name)) return true;
    // Escapes and "+" only make a value longer than what it decodes to.
    if (!this.removeHashes || rawValue === null || rawValue.length < 32) return false;
    return HASH32.test(formDecode(rawValue));
  }

  /**
   * Removes listed and session-id parameters from the query and sorts the rest by decoded name
   * (stably, by UTF-16 units as Java's compareTo). Returns the query untouched when nothing changes,
   * and `null` when no parameter is left.
   */
  private processQuery(query: string): string | null {
    const names: string[] = [];
    const raws: string[] = [];
    let changed = false;
    let sorted = true;
    for (let start = 0; start <= query.length; ) {
      let end = query.indexOf('&', start);
      if (end === -1) end = query.length;
      const eq = query.indexOf('=', start);
      const nameEnd = eq === -1 || eq > end ? end : eq;
      const rawName = query.slice(start, nameEnd);
      if (this.isRemoved(rawName, nameEnd === end ? null : query.slice(nameEnd + 1, end))) {
        changed = true;
      } else {
        const name = formDecode(rawName);
        if (names.length > 0 && name < names[names.length - 1]!) sorted = false;
        names.push(name);
        raws.push(query.slice(start, end));
      }
      start = end + 1;
    }
    if (raws.length === 0) return null;
    if (sorted) return changed ? raws.join('&') : query;
    // Insertion sort: stable, and cheaper than Array.prototype.sort on a handful of parameters.
    for (let i = 1; i < names.length; i++) {
      const name = names[i]!;
      const raw = raws[i]!;
      let j = i;
      for (; j > 0 && names[j - 1]! > name; j--) {
        names[j] = names[j - 1]!;
        raws[j] = raws[j - 1]!;
      }
      names[j] = name;
      raws[j] = raw;
    }
    return raws.join('&');
  }

  /** `/login;jsessionid=<32 hex>` loses the session id; other `;` parameters stay. */
  private removePathParams(path: string): string {
    const slash = path.lastIndexOf('/');
    const semi = path.indexOf(';', slash + 1);
    if (semi === -1) return path;
    const kept = path
      .slice(semi + 1)
      .split(';')
      .filter((p) => {
        const eq = p.indexOf('=');
        return !this.isRemoved(eq === -1 ? p : p.slice(0, eq), eq === -1 ? null : p.slice(eq + 1));
      });
    return path.slice(0, semi) + (kept.length > 0 ? `;${kept.join(';')}` : '');
  }
}

/** Java's `trim()`: strips characters up to U+0020 at both ends. */
function trimControls(s: string): string {
  const n = s.length;
  if (n > 0 && s.charCodeAt(0) > 32 && s.charCodeAt(n - 1) > 32) return s;
  let a = 0;
  let b = n;
  while (a < b && s.charCodeAt(a) <= 32) a++;
  while (b > a && s.charCodeAt(b - 1) <= 32) b--;
  return s.slice(a, b);
}

/**
 * A common authoring error is a query that starts with "&": if the URL has no "?" and its last
 * segment has an "&" and an "=" after its first character, the first "&" becomes "?"
 * (`http://google.com&d=4` gives `http://google.com?d=4`).
 */
export function unmangle(url: string): string {
  const hash = url.indexOf('#');
  const head = hash === -1 ? url : url.slice(0, hash);
  if (head.includes('?')) return url;
  const slash = head.lastIndexOf('/');
  const amp = head.indexOf('&', slash + 1);
  if (amp === -1 || head.indexOf('=', slash + 1) <= slash + 1) return url;
  return `${url.slice(0, amp)}?${url.slice(amp + 1)}`;
}
