import { detach } from './strings.js';

const ABSOLUTE = /^https?:\/\/[^\s\\]*$/i;

/**
 * Resolutions that do not depend on the page's path, by origin ("" for absolute hrefs) then href;
 * per thread, bounded, cleared when full. Shared by the outlinks and the Markdown's links and
 * images, so a link the page names in both is parsed once (a URL parse costs ~2 µs, a hit ~0.2 µs).
 */
const RESOLVED = new Map<string, Map<string, string | null>>();
const RESOLVED_MAX = 20_000;
let resolvedCount = 0;
let lastBase: URL | undefined;
let lastOrigin = '';

/** `href` resolved against `base` (any scheme); undefined when it is not a URL. */
export function resolveHref(href: string, base: URL): string | undefined {
  try {
    return new URL(href, base).href;
  } catch {
    return undefined;
  }
}

/**
 * `resolveHref` with a cache for the links whose result does not depend on the page's path:
 * absolute http(s) ones (the key is the href) and root-relative ones (the key is origin + href).
 * Navigation and footer links repeat on every page of a site.
 */
export function resolveCached(href: string, base: URL): string | undefined {
  const c0 = href.charCodeAt(0);
  let scope: string | undefined;
  if (c0 === 47 /* / */) {
    if (href.charCodeAt(1) !== 47) {
      if (base !== lastBase) [lastBase, lastOrigin] = [base, base.origin];
      // An opaque origin ("null": file:, data:) does not tell two bases apart.
      if (lastOrigin !== 'null') scope = lastOrigin;
    }
  } else if ((c0 === 104 || c0 === 72) /* h */ && ABSOLUTE.test(href)) scope = '';
  if (scope === undefined) return resolveHref(href, base);
  // Two levels, so that the lookup hashes the href as it is instead of building origin + href.
  let byHref = RESOLVED.get(scope);
  const hit = byHref?.get(href);
  if (hit !== undefined) return hit ?? undefined;
  const resolved = resolveHref(href, base);
  if (++resolvedCount > RESOLVED_MAX) {
    RESOLVED.clear();
    resolvedCount = 1;
    byHref = undefined;
  }
  if (!byHref) {
    byHref = new Map();
    RESOLVED.set(scope, byHref);
  }
  // The href is a piece of the page: copied, or the cache would keep the page alive.
  byHref.set(detach(href), resolved ?? null);
  return resolved;
}
