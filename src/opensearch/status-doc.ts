import { hash } from 'node:crypto';
import { getDomain } from 'tldts';
import { MD } from '../model/keys.js';
import { Metadata } from '../model/metadata.js';
import { isStatus, type Status } from '../model/status.js';
import { isoDate, parseInstant } from '../model/values.js';

/** How URLs are grouped into the status document's `key` and routing (partition.url.mode). */
export type PartitionMode = 'byHost' | 'byDomain' | 'byIP';

/** StormCrawler's document id: lowercase hex SHA-256 of the URL's UTF-8 bytes. */
export function documentId(url: string): string {
  // One-shot: no Hash object per URL (strings are hashed as UTF-8).
  return hash('sha256', url, 'hex');
}

/**
 * The partition key of a URL, StormCrawler's URLPartitioner: the host, the registrable domain, or
 * the `ip` metadata in byIP mode (no DNS here: the status writer must not block on lookups; without
 * an `ip` value the host is used). "_DEFAULT_" for a URL without a host.
 */
export function partitionKey(url: string, mode: PartitionMode, metadata?: Metadata): string {
  let host = canonicalHost(url);
  if (host === undefined) {
    try {
      host = new URL(url).hostname.toLowerCase();
    } catch {
      return '_DEFAULT_';
    }
  }
  if (host === '') return '_DEFAULT_';
  if (mode === 'byDomain') return getDomain(host) ?? host;
  if (mode === 'byIP') return metadata?.getFirstValue(MD.ip) ?? host;
  return host;
}

const CANONICAL_AUTHORITY = /^https?:\/\/([a-z0-9.-]+)(?::\d+)?(?=[/?#]|$)/;
const DOTTED_QUAD = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

/**
 * The host of a URL already in the WHATWG parser's canonical form (what the URL filters output),
 * read from the string: the status writer needs it for every document, and a parse costs a
 * microsecond. Undefined when the string is not plainly canonical (upper case, user info, IPv6, a
 * number the parser would rewrite): the caller parses it then.
 */
export function canonicalHost(url: string): string | undefined {
  const host = CANONICAL_AUTHORITY.exec(url)?.[1];
  if (host === undefined || host === '') return undefined;
  const last = host.slice(host.lastIndexOf('.') + 1);
  // A host ending in a number is an IPv4 address to the parser: only the dotted quad is canonical.
  if (last !== '' && last.charCodeAt(0) >= 48 && last.charCodeAt(0) <= 57 && !DOTTED_QUAD.test(host))
    return undefined;
  return host;
}

/**
 * The `_source` of a status document, StormCrawler's shape, plus `crawl`: the crawl's name (its
 * status index), the same value as the metrics points' `crawl`, so that one Dashboards control
 * chooses a crawl on every panel (status, transitions, content and metrics documents alike).
 */
export interface StatusSource {
  url: string;
  status: Status;
  metadata: Record<string, string[]>;
  key: string;
  crawl?: string;
  nextFetchDate?: string;
}

/** Metadata keys are stored with "." written as "%2E" (dots would make OpenSearch nest objects). */
export function encodeMetadataKey(key: string): string {
  return key.replaceAll('.', '%2E');
}

/** The field of a metadata key in a status document, for queries and aggregations. */
export function metadataField(key: string): string {
  return `metadata.${encodeMetadataKey(key)}`;
}

export function decodeMetadataKey(key: string): string {
  return key.replaceAll('%2E', '.');
}

/** The status document of `update`, routed by its partition `key`. */
export function toStatusSource(
  update: {
    readonly url: string;
    readonly status: Status;
    readonly metadata: Metadata;
    readonly nextFetchDate: number | null;
  },
  key: string,
  crawl?: string,
): StatusSource {
  const { url, status, metadata, nextFetchDate } = update;
  const md: Record<string, string[]> = {};
  for (const [k, values] of metadata.entries()) md[encodeMetadataKey(k)] = [...values];
  const source: StatusSource = { url, status, metadata: md, key };
  if (crawl !== undefined) source.crawl = crawl;
  // "Never" is the absence of the field: the spout's range query then never selects the document.
  if (nextFetchDate !== null) source.nextFetchDate = isoDate(nextFetchDate);
  return source;
}

export interface StoredStatus {
  readonly url: string;
  readonly status: Status | undefined;
  readonly metadata: Metadata;
  readonly key: string | undefined;
  readonly nextFetchDate: number | null;
}

/** Reads a status document, also one written by StormCrawler (string values, unknown fields). */
export function fromStatusSource(source: unknown): StoredStatus | undefined {
  if (!source || typeof source !== 'object') return undefined;
  const s = source as Record<string, unknown>;
  if (typeof s.url !== 'string') return undefined;
  const raw = s.metadata && typeof s.metadata === 'object' ? (s.metadata as Record<string, unknown>) : {};
  const decoded: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(raw)) decoded[decodeMetadataKey(k)] = v;
  return {
    url: s.url,
    status: isStatus(s.status) ? s.status : undefined,
    metadata: Metadata.fromJSON(decoded),
    key: typeof s.key === 'string' ? s.key : undefined,
    nextFetchDate: typeof s.nextFetchDate === 'string' ? (parseInstant(s.nextFetchDate) ?? null) : null,
  };
}
