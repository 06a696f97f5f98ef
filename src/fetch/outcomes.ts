import { MD } from '../model/keys.js';
import { Metadata } from '../model/metadata.js';
import { type Status, statusFromHttpCode } from '../model/status.js';
import type { Deferral } from '../model/status-updater.js';
import { stampSetCookies } from '../protocol/http/cookies.js';

/** What the fetcher reads of a protocol response. */
export interface ResponseView {
  readonly statusCode: number;
  /** Lowercased header names. */
  readonly headers: Readonly<Record<string, readonly string[]>>;
  readonly byteLength: number;
  readonly loadingTimeMs: number;
  /** Why the body was cut, when it was (`http.trimmed`). */
  readonly trimmed?: string;
  /** Keys the protocol sets in the URL's metadata, unprefixed (a render's `render.*`). */
  readonly metadata?: Readonly<Record<string, string>>;
}

/** A status event for the status updater. Outlinks (a redirect target) travel with it. */
export interface StatusOutcome {
  readonly kind: 'status';
  readonly url: string;
  readonly status: Status;
  readonly metadata: Metadata;
  /** The URL was put back unfetched (see `deferral`). */
  readonly deferral?: Deferral;
  /** The outcome of a soft-404 probe (FetchItem.probe). */
  readonly probe?: true;
}

/** A page answered 200, on its way to the parsers. */
export interface FetchedOutcome {
  readonly kind: 'fetched';
  readonly url: string;
  readonly metadata: Metadata;
  /** The answer to a soft-404 probe (FetchItem.probe). */
  readonly probe?: true;
}

export interface ResponseContext {
  readonly url: string;
  /** The URL's metadata as the spout gave it (not changed here). */
  readonly metadata: Metadata;
  readonly response: ResponseView;
  readonly timeInQueuesMs: number;
  /** protocol.md.prefix */
  readonly prefix: string;
}

/**
 * The metadata after a fetch: the URL's own, the response headers under the protocol prefix and the
 * fetch figures. A previous `fetch.exception` and `http.trimmed` are dropped, since this fetch got an
 * answer of its own, and so are the validators of the previous page on a 200.
 */
export function mergedMetadata(c: ResponseContext): Metadata {
  const md = c.metadata.copy();
  md.remove(MD.fetchException);
  // A failure of an earlier fetch does not explain this one (the status updater derives a new cause).
  forgetFailure(md);
  // What the previous response said about its body no longer holds for this one.
  md.remove(MD.trimmed);
  md.remove(MD.trimmedReason);
  if (c.response.statusCode === 200) {
    // A new representation: validators it did not send must not be sent back for it (a 304 may
    // leave them out and keeps the stored ones).
    md.remove(c.prefix + MD.etagHeader);
    md.remove(c.prefix + MD.lastModifiedHeader);
  }
  for (const [name, values] of Object.entries(c.response.headers)) {
    // Cookies travel on to other pages in metadata: each carries the host that set it (RFC 6265).
    md.setValues(c.prefix + name, name === 'set-cookie' ? stampSetCookies(values, c.url) : values);
  }
  md.setValue(MD.fetchStatusCode, String(c.response.statusCode));
  md.setValue(MD.fetchByteLength, String(c.response.byteLength));
  md.setValue(MD.fetchLoadingTime, String(Math.round(c.response.loadingTimeMs)));
  md.setValue(MD.fetchTimeInQueues, String(Math.round(c.timeInQueuesMs)));
  if (c.response.trimmed) {
    md.setValue(MD.trimmed, 'true');
    md.setValue(MD.trimmedReason, c.response.trimmed);
  }
  if (c.response.metadata) for (const [k, v] of Object.entries(c.response.metadata)) md.setValue(k, v);
  return md;
}

/** The Location of a redirect made absolute against the URL, or undefined when missing or unusable. */
export function redirectTarget(url: string, headers: ResponseView['headers']): string | undefined {
  const location = headers.location?.[0]?.trim();
  if (!location) return undefined;
  try {
    return new URL(location, url).toString();
  } catch {
    return undefined;
  }
}

export type ResponseOutcome =
  | FetchedOutcome
  | (StatusOutcome & {
      /** For REDIRECTION: the absolute target, to be emitted as DISCOVERED when allowed. */
      readonly redirectTo?: string;
    });

/**
 * StormCrawler's mapping of an answer: 200 goes on to parsing, 304 is FETCHED without parsing, other
 * 3xx are REDIRECTION with `_redirTo`, and every other code is a FETCH_ERROR (404 included; the rules
 * turn it into ERROR after max.fetch.errors).
 */
export function outcomeOfResponse(c: ResponseContext): ResponseOutcome {
  const md = mergedMetadata(c);
  const code = c.response.statusCode;
  if (code === 200) return { kind: 'fetched', url: c.url, metadata: md };
  const status = statusFromHttpCode(code);
  if (status !== 'REDIRECTION') return { kind: 'status', url: c.url, status, metadata: md };
  const target = redirectTarget(c.url, c.response.headers);
  // DIFFERS FROM STORMCRAWLER: _redirTo holds the absolute target, not the raw Location header.
  if (target) md.setValue(MD.redirTo, target);
  return { kind: 'status', url: c.url, status, metadata: md, redirectTo: target };
}

/** A fetch that got no answer: FETCH_ERROR with the documented `fetch.exception` keyword. */
export function outcomeOfException(url: string, metadata: Metadata, fetchException: string): StatusOutcome {
  const md = metadata.copy();
  // No answer: the status code an earlier fetch kept is not this fetch's.
  md.remove(MD.fetchStatusCode);
  forgetFailure(md);
  md.setValue(MD.fetchException, fetchException);
  return { kind: 'status', url, status: 'FETCH_ERROR', metadata: md };
}

/** A URL we will not fetch: ERROR with an `error.cause` keyword (and a message for the operator). */
export function refusal(
  url: string,
  metadata: Metadata | undefined,
  cause: string,
  message?: string,
): StatusOutcome {
  const md = metadata?.copy() ?? new Metadata();
  // Nothing was fetched: no status code, and no earlier failure, explains this refusal.
  md.remove(MD.fetchStatusCode);
  forgetFailure(md);
  md.setValue(MD.errorCause, cause);
  if (message) md.setValue(MD.errorMessage, message);
  return { kind: 'status', url, status: 'ERROR', metadata: md };
}

/** Removes what an earlier failure of the URL left (its status document keeps error.* until it is fetched). */
function forgetFailure(md: Metadata): void {
  md.remove(MD.errorCause);
  md.remove(MD.errorMessage);
  md.remove(MD.errorSource);
}

/**
 * A deferred URL's status event: its status unchanged (DISCOVERED when unknown), with the typed
 * `deferral`: the status updater stores it as is with `until` as nextFetchDate, so that no rule
 * applies and no fetch error is counted, and writes `defer.*` saying why.
 */
export function deferral(
  url: string,
  metadata: Metadata,
  status: Status | undefined,
  d: Deferral,
): StatusOutcome {
  return { kind: 'status', url, status: status ?? 'DISCOVERED', metadata: metadata.copy(), deferral: d };
}

/** The `fetch.exception` of an error that escaped the protocol's own classification. */
export function fetchExceptionOf(e: unknown): string {
  const keyword = (e as { fetchException?: unknown })?.fetchException;
  if (typeof keyword === 'string') return keyword;
  const code = (e as { code?: unknown })?.code;
  return `Unexpected error${typeof code === 'string' ? ` ${code}` : ''}`;
}
