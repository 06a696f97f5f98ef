/**
 * What the protocol layer reads of a URL's metadata. `Metadata` from src/model satisfies it; so does
 * any object with these two methods, which keeps this layer independent of the model.
 */
export interface MetadataView {
  /** The first value of the key, or null/undefined when it has none. */
  getFirstValue(key: string): string | null | undefined;
  /** Every value of the key, or null/undefined when it has none. */
  getValues(key: string): readonly string[] | null | undefined;
}

/**
 * Why a body was cut: `length` = http.content.limit, `decoded-size` = http.decoded.limit,
 * `inflation-ratio` = cut at http.content.limit after inflating past http.decoded.max.ratio.
 */
export type TrimReason = 'length' | 'decoded-size' | 'inflation-ratio';

/** An HTTP answer, whatever its status code. A failure to get one is a thrown FetchException. */
export interface ProtocolResponse {
  readonly statusCode: number;
  /**
   * The protocol metadata, to be stored under `protocol.md.prefix`: every response header by its
   * lowercased name, values in the order received; with http.store.headers also
   * `_response.headers_` (the verbatim status line and header block) and `_request.time_` (epoch ms).
   */
  readonly headers: Readonly<Record<string, string[]>>;
  /** The body, decoded from its Content-Encoding and cut at the limits. Empty for 3xx and HEAD. */
  readonly content: Buffer;
  /** `content.length`; StormCrawler's `fetch.byteLength`. */
  readonly byteLength: number;
  /** Set when the body was cut (`http.trimmed` = true, `http.trimmed.reason` = this). */
  readonly trimmed?: TrimReason;
  /** From sending the request to the end of the body. */
  readonly loadingTimeMs: number;
  /** The address connected to, when known (not through a proxy). */
  readonly ip?: string;
  /** WARC output: the heads as sent and received; only when the protocol was built to capture. */
  readonly exchange?: Exchange;
}

/**
 * Fetches one URL. Lifecycle: construct once per process (it owns connection pools), call `fetch`
 * concurrently as often as needed, then `close` once; after `close`, `fetch` rejects.
 *
 * Contract of `fetch`: it never follows redirects and never retries; it resolves with any HTTP
 * answer (4xx and 5xx included) and rejects only with a FetchException whose `fetchException` is one
 * of the documented FETCH_EXCEPTION strings. It settles within http.timeout (plus scheduling
 * jitter), or as soon as `signal` aborts.
 */
export interface Protocol {
  fetch(url: string, md?: MetadataView, signal?: AbortSignal): Promise<ProtocolResponse>;
  close(): Promise<void>;
}

const NONE: MetadataView = { getFirstValue: () => undefined, getValues: () => undefined };

/** A read-only MetadataView over a plain record, for requests the crawler makes itself (robots.txt). */
export function metadataOf(record: Readonly<Record<string, string | readonly string[]>> = {}): MetadataView {
  if (Object.keys(record).length === 0) return NONE;
  const values = (k: string): readonly string[] | undefined => {
    if (!Object.hasOwn(record, k)) return undefined;
    const v = record[k]!;
    const list = typeof v === 'string' ? [v] : v;
    return list.length > 0 ? list : undefined;
  };
  return { getFirstValue: (k) => values(k)?.[0], getValues: values };
}

/**
 * What was said on the wire for one fetch: the request head as sent and the response head as
 * received. The HTTP protocol keeps it only when it is built with `capture: true` (WARC output), so
 * a crawl without an archive allocates none of this.
 */
export interface Exchange {
  /** Epoch ms at which the request was sent (the WARC-Date of its records). */
  readonly requestTime: number;
  readonly method: string;
  /** The request target as written in the request line: path and query. */
  readonly target: string;
  /** The request header fields in the order written, `host` and `connection` included. */
  readonly requestHeaders: readonly (readonly [string, string])[];
  /** The response's reason phrase (may be empty). */
  readonly statusText: string;
  /** The response header fields as received: [name, value, name, value...], names in their case. */
  readonly rawHeaders: readonly string[];
  /**
   * The body as kept for the archive. It is the response's `content` (decoded from its
   * Content-Encoding when `decoded`), except for redirects, whose body is read here (up to 64 KiB)
   * only for the archive.
   */
  readonly payload: Buffer;
  /** True when the Content-Encoding is one we undo, so `payload` is not the body as it was sent. */
  readonly decoded: boolean;
  /** Set when `payload` was cut at a limit (for a redirect: at 64 KiB). */
  readonly trimmed?: TrimReason;
  /** The address connected to, when known (not through a proxy). */
  readonly ip?: string;
}
