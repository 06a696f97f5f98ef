interface Cookie {
  readonly name: string;
  readonly value: string;
  readonly domain?: string;
  readonly path: string;
  readonly secure: boolean;
  readonly expires?: number;
}

function parseSetCookie(header: string): Cookie | undefined {
  const [pair = '', ...attributes] = header.split(';');
  const eq = pair.indexOf('=');
  if (eq <= 0) return undefined;
  const cookie: { -readonly [K in keyof Cookie]: Cookie[K] } = {
    name: pair.slice(0, eq).trim(),
    value: pair.slice(eq + 1).trim(),
    path: '/',
    secure: false,
  };
  for (const attribute of attributes) {
    const at = attribute.indexOf('=');
    const key = (at < 0 ? attribute : attribute.slice(0, at)).trim().toLowerCase();
    const value = at < 0 ? '' : attribute.slice(at + 1).trim();
    if (key === 'domain' && value !== '') cookie.domain = value.replace(/^\./, '').toLowerCase();
    else if (key === 'path' && value.startsWith('/')) cookie.path = value;
    else if (key === 'secure') cookie.secure = true;
    else if (key === 'max-age' && /^-?\d+$/.test(value) && Number(value) <= 0) cookie.expires = 0;
    else if (key === 'expires' && cookie.expires === undefined) {
      const t = Date.parse(value);
      if (!Number.isNaN(t)) cookie.expires = t;
    }
  }
  return cookie;
}

function pathMatches(cookiePath: string, path: string): boolean {
  if (path === cookiePath) return true;
  if (!path.startsWith(cookiePath)) return false;
  return cookiePath.endsWith('/') || path[cookiePath.length] === '/';
}

/**
 * The Cookie header for `url` from the Set-Cookie values the linking page received (metadata
 * `protocol.set-cookie`), as StormCrawler's CookieConverter does: only cookies whose Domain and Path
 * cover the URL, Secure ones only over https, expired ones dropped. Undefined when none applies.
 * Max-Age > 0 cannot be checked (the time of receipt is unknown), so such cookies are kept.
 */
export function cookieHeader(setCookies: readonly string[], url: URL, now: number): string | undefined {
  const host = url.hostname.toLowerCase();
  const pairs: string[] = [];
  for (const header of setCookies) {
    const c = parseSetCookie(header);
    if (!c) continue;
    if (c.domain && host !== c.domain && !host.endsWith(`.${c.domain}`)) continue;
    if (!pathMatches(c.path, url.pathname)) continue;
    if (c.secure && url.protocol !== 'https:') continue;
    if (c.expires !== undefined && c.expires <= now) continue;
    pairs.push(`${c.name}=${c.value}`);
  }
  return pairs.length > 0 ? pairs.join('; ') : undefined;
}
