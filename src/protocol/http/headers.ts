import { MD } from '../../model/keys.js';
import { ConfigError } from '../../util/errors.js';
import type { MetadataView } from '../types.js';
import { ACCEPT_ENCODING } from './body.js';
import { cookieHeader } from './cookies.js';

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const FIELD_VALUE = /^[^\r\n\0]*$/;

/** Splits "Name=Value" at the first "="; undefined when the name is not an HTTP token. */
export function parseHeaderEntry(entry: string): [name: string, value: string] | undefined {
  const eq = entry.indexOf('=');
  if (eq <= 0) return undefined;
  const name = entry.slice(0, eq).trim();
  const value = entry.slice(eq + 1).trim();
  return TOKEN.test(name) && FIELD_VALUE.test(value) ? [name.toLowerCase(), value] : undefined;
}

/**
 * An HTTP date (IMF-fixdate) for If-Modified-Since, from an ISO-8601 instant (what StormCrawler
 * persists as `last-modified`) or from an HTTP date already. Undefined when unreadable.
 */
export function httpDate(value: string): string | undefined {
  const v = value.trim();
  // An ISO date-time without an offset would be read as local time; StormCrawler's are UTC.
  const iso = /^\d{4}-\d{2}-\d{2}T[\d:.]+$/.test(v) ? `${v}Z` : v;
  const t = Date.parse(iso);
  return Number.isNaN(t) ? undefined : new Date(t).toUTCString();
}

export interface HeaderSettings {
  readonly userAgent: string;
  readonly accept: string;
  readonly acceptLanguage: string;
  /** http.custom.headers entries, "Name=Value". */
  readonly custom: readonly string[];
  readonly useCookies: boolean;
  /** protocol.md.prefix */
  readonly prefix: string;
}

/**
 * Builds the request headers of one fetch: the fixed ones once, then what the URL's metadata asks
 * for (StormCrawler's per-URL keys). Names are lowercased so that a custom header replaces a default.
 */
export class RequestHeaders {
  private readonly fixed: Readonly<Record<string, string>>;

  constructor(private readonly s: HeaderSettings) {
    const fixed: Record<string, string> = {
      'user-agent': s.userAgent,
      accept: s.accept,
      'accept-language': s.acceptLanguage,
      'accept-encoding': ACCEPT_ENCODING,
    };
    const bad: string[] = [];
    for (const entry of s.custom) {
      const parsed = parseHeaderEntry(entry);
      if (parsed) fixed[parsed[0]] = parsed[1];
      else bad.push(JSON.stringify(entry));
    }
    if (bad.length > 0) {
      throw new ConfigError([`key "http.custom.headers" has ${bad.join(', ')}: expected "Name=Value"`]);
    }
    for (const [k, v] of Object.entries(fixed)) if (v === '') delete fixed[k];
    this.fixed = fixed;
  }

  build(url: URL, md: MetadataView, now: number): Record<string, string> {
    const h: Record<string, string> = { ...this.fixed };
    const accept = md.getFirstValue(MD.httpAccept);
    if (accept) h.accept = accept;
    const language = md.getFirstValue(MD.httpAcceptLanguage);
    if (language) h['accept-language'] = language;
    // Metadata comes from seeds and other tools: a malformed entry is skipped, not sent.
    for (const entry of md.getValues(`${this.s.prefix}set-header`) ?? []) {
      const parsed = parseHeaderEntry(entry);
      if (parsed) h[parsed[0]] = parsed[1];
    }
    const etag = md.getFirstValue(this.s.prefix + MD.etagHeader);
    if (etag && FIELD_VALUE.test(etag)) h['if-none-match'] = etag;
    // The server's own Last-Modified first: AdaptiveScheduler's last-modified is the crawler's
    // fetch time, which only approximates it (and suffers clock skew).
    const server = md.getFirstValue(this.s.prefix + MD.lastModifiedHeader);
    const own = md.getFirstValue(MD.lastModified);
    const since = (server && httpDate(server)) || (own && httpDate(own)) || undefined;
    if (since) h['if-modified-since'] = since;
    if (this.s.useCookies) {
      const cookies = md.getValues(`${this.s.prefix}set-cookie`);
      const cookie = cookies ? cookieHeader(cookies, url, now, linkingHost(md) ?? url.hostname) : undefined;
      if (cookie && FIELD_VALUE.test(cookie)) h.cookie = cookie;
    }
    return h;
  }
}

/** The host of the page that linked to a URL (the last of its `url.path`), when known. */
function linkingHost(md: MetadataView): string | undefined {
  const path = md.getValues(MD.urlPath);
  const last = path?.[path.length - 1];
  if (!last) return undefined;
  try {
    return new URL(last).hostname;
  } catch {
    return undefined;
  }
}

/** Response headers by lowercased name, from undici's raw [name, value, name, value...] list. */
export function headersByName(raw: readonly string[]): Record<string, string[]> {
  // No prototype: a header called "__proto__" must stay a header.
  const out = Object.create(null) as Record<string, string[]>;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    const values = out[name];
    if (values) values.push(raw[i + 1]!);
    else out[name] = [raw[i + 1]!];
  }
  return out;
}

/** The status line and header block as received (names keep their case), for `_response.headers_`. */
export function headerBlock(statusCode: number, statusText: string, raw: readonly string[]): string {
  let block = `HTTP/1.1 ${statusCode}${statusText ? ` ${statusText}` : ''}\r\n`;
  for (let i = 0; i + 1 < raw.length; i += 2) block += `${raw[i]}: ${raw[i + 1]}\r\n`;
  return block;
}
