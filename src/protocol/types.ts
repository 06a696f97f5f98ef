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
