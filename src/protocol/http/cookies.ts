import { getPublicSuffix } from 'tldts';

/**
 * The attribute a crawler adds to each Set-Cookie value it keeps in metadata: the host that sent it.
 * Cookies travel from page to page in metadata (`metadata.transfer`), so the setting host must travel
 * with them; RFC 6265 clients ignore attributes they do not know, so the value stays a Set-Cookie.
 */
const SET_BY = 'set-by';

interface Cookie {
  readonly name: string;
  readonly value: string;
  /** The Domain attribute, lowercased, without its leading dot; undefined = none (host-only). */
  readonly domain?: string;
  readonly path?: string;
  readonly secure: boolean;
  readonly expires?: number;
  readonly setBy?: string;
}

function parseSetCookie(header: string): Cookie | undefined {
  const [pair = '', ...attributes] = header.split(';');
  const eq = pair.indexOf('=');
  if (eq <= 0) return undefined;
  const cookie: { -readonly [K in keyof Cookie]: Cookie[K] } = {
    name: pair.slice(0, eq).trim(),
    value: pair.slice(eq + 1).trim(),
    secure: false,
  };
  // RFC 6265 5.3: the last Domain and Path win; an empty Domain is no Domain.
  for (const attribute of attributes) {
    const at = attribute.indexOf('=');
    const key = (at < 0 ? attribute : attribute.slice(0, at)).trim().toLowerCase();
    const value = at < 0 ? '' : attribute.slice(at + 1).trim();
    if (key === 'domain') cookie.domain = value === '' ? undefined : value.replace(/^\./, '').toLowerCase();
    else if (key === 'path') cookie.path = value.startsWith('/') ? value : undefined;
    else if (key === 'secure') cookie.secure = true;
    else if (key === SET_BY) cookie.setBy = value.toLowerCase();
    else if (key === 'max-age' && /^-?\d+$/.test(value) && Number(value) <= 0) cookie.expires = 0;
    else if (key === 'expires' && cookie.expires === undefined) {
      const t = Date.parse(value);
      if (!Number.isNaN(t)) cookie.expires = t;
    }
  }
  return cookie;
}

/** RFC 6265 5.1.3: `host` is `domain` or a name under it (never for an IP address). */
function domainMatches(host: string, domain: string): boolean {
  if (host === domain) return true;
  return host.endsWith(`.${domain}`) && !/^[\d.]+$|:/.test(host);
}

/** RFC 6265 5.1.4: the directory of the setting page's path, the default of a cookie's Path. */
function defaultPath(pathname: string): string {
  const path = pathname.split(';')[0] ?? '';
  const slash = path.lastIndexOf('/');
  return slash <= 0 ? '/' : path.slice(0, slash);
}

function pathMatches(cookiePath: string, path: string): boolean {
  if (path === cookiePath) return true;
  if (!path.startsWith(cookiePath)) return false;
  return cookiePath.endsWith('/') || path[cookiePath.length] === '/';
}

/**
 * The Set-Cookie values of a response from `pageUrl` as kept in metadata: each as received, plus
 * the host that set it (`Set-By`) and, when it has no Path, its default path (RFC 6265 5.1.4). A
 * `Set-By` the server sent is overridden, since the last attribute wins.
 */
export function stampSetCookies(values: readonly string[], pageUrl: string): string[] {
  let url: URL;
  try {
    url = new URL(pageUrl);
  } catch {
    return [...values];
  }
  return values.map((v) => {
    const path = parseSetCookie(v)?.path === undefined ? `; Path=${defaultPath(url.pathname)}` : '';
    return `${v}${path}; Set-By=${url.hostname.toLowerCase()}`;
  });
}

/**
 * The scope of a cookie set by `setter` (RFC 6265 5.3 steps 5-6): the domain it may be sent to and
 * whether only to that exact host; undefined when refused. A Domain that does not cover the setting
 * host, or that is a public suffix (tldts, private suffixes included) other than the host itself,
 * is refused.
 */
function scope(c: Cookie, setter: string): { domain: string; hostOnly: boolean } | undefined {
  if (c.domain === undefined) return { domain: setter, hostOnly: true };
  if (getPublicSuffix(c.domain, { allowPrivateDomains: true }) === c.domain) {
    return c.domain === setter ? { domain: setter, hostOnly: true } : undefined;
  }
  return domainMatches(setter, c.domain) ? { domain: c.domain, hostOnly: false } : undefined;
}

/**
 * The Cookie header for `url` from the Set-Cookie values in its metadata (`protocol.set-cookie`,
 * handed on by the linking page through metadata.transfer), by RFC 6265: a cookie goes only where
 * the host that set it may send it (a cookie without Domain to that host alone; with a Domain, to
 * the hosts under it, when the Domain covers the setting host and is not a public suffix), under its
 * Path, Secure ones only over https, expired ones dropped. The setting host is the value's
 * `Set-By` (see stampSetCookies), else `setter` (the linking page's host for cookies that came in
 * metadata from elsewhere: seeds, older status documents). Undefined when no cookie applies.
 * Max-Age > 0 cannot be checked (the time of receipt is unknown), so such cookies are kept.
 */
export function cookieHeader(
  setCookies: readonly string[],
  url: URL,
  now: number,
  setter: string = url.hostname,
): string | undefined {
  const host = url.hostname.toLowerCase();
  const pairs: string[] = [];
  for (const header of setCookies) {
    const c = parseSetCookie(header);
    if (!c) continue;
    const s = scope(c, c.setBy ?? setter.toLowerCase());
    if (!s || (s.hostOnly ? host !== s.domain : !domainMatches(host, s.domain))) continue;
    if (!pathMatches(c.path ?? '/', url.pathname)) continue;
    if (c.secure && url.protocol !== 'https:') continue;
    if (c.expires !== undefined && c.expires <= now) continue;
    pairs.push(`${c.name}=${c.value}`);
  }
  return pairs.length > 0 ? pairs.join('; ') : undefined;
}
