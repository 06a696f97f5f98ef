import { getDomain } from 'tldts';
import type { MetadataView } from './types.js';

/**
 * Shared helpers of the filters. Parsing a URL costs about a microsecond and the chain may need the
 * parsed form of the same string several times in a row (the chain's own check, a host filter, the
 * final check), so the last parse is memoised.
 */

let lastInput: string | undefined;
let lastParsed: URL | null = null;

/**
 * The URL parsed with the WHATWG parser if it is a valid http or https URL, else `null`. The result
 * may be shared with other callers: never mutate it.
 */
export function parseWebUrl(url: string): Readonly<URL> | null {
  if (url === lastInput) return lastParsed;
  let parsed: URL | null = null;
  try {
    const u = new URL(url);
    if (u.protocol === 'http:' || u.protocol === 'https:') parsed = u;
  } catch {
    parsed = null;
  }
  lastInput = url;
  lastParsed = parsed;
  return parsed;
}

const HOST_NAME = /^[a-z0-9_.-]+$/;
const IPV6 = /^\[[0-9a-f:.]+\]$/;

/**
 * Whether a parsed host can be resolved: letters, digits, "-", "_" and "." (the parser has already
 * lowercased it, converted IDN to punycode and normalised IPv4 numbers), or an IPv6 literal. The
 * WHATWG parser also accepts hosts such as `a{b` or `x.com&d=4`, which no DNS lookup will find.
 */
export function isFetchableHost(hostname: string): boolean {
  return HOST_NAME.test(hostname) || IPV6.test(hostname);
}

/**
 * Seeds the memo with a URL parsed elsewhere, when `url` is exactly its `href`, so that the next
 * filter (or the chain's final check) does not parse it again.
 */
export function rememberParsed(url: string, parsed: Readonly<URL>): void {
  if (parsed.href !== url) return;
  lastInput = url;
  lastParsed = parsed as URL;
}

const DOMAIN_CACHE_MAX = 4096;
const domainCache = new Map<string, string>();

/**
 * The registrable domain of a host (public-suffix aware, ICANN section only, as the fetch queues'
 * byDomain key), or the host itself when it has none (IP addresses, `localhost`, single labels), so
 * that two URLs on the same IP or intranet host count as the same domain.
 */
export function registrableDomain(hostname: string): string {
  const cached = domainCache.get(hostname);
  if (cached !== undefined) return cached;
  const domain = getDomain(hostname, { allowPrivateDomains: false, extractHostname: false }) ?? hostname;
  // Outlinks cluster on few hosts; a full reset keeps the bound without LRU bookkeeping.
  if (domainCache.size >= DOMAIN_CACHE_MAX) domainCache.clear();
  domainCache.set(hostname, domain);
  return domain;
}

/** Java's `Boolean.parseBoolean`: true only for "true", in any case. */
export function isTrue(value: string | null | undefined): boolean {
  return value != null && value.length === 4 && value.toLowerCase() === 'true';
}

/** The first value of a metadata key, `undefined` when the metadata or the key is missing. */
export function firstValue(md: MetadataView | null, key: string): string | undefined {
  return md?.getFirstValue(key) ?? undefined;
}

/** Equality ignoring case, without allocating when the lengths already differ. */
export function equalsIgnoreCase(a: string, b: string): boolean {
  return a.length === b.length && (a === b || a.toLowerCase() === b.toLowerCase());
}
