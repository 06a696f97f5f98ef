import type { TrimReason } from './types.js';

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

/** Codings `readBody` undoes (src/protocol/http/body.ts); anything else is kept as sent. */
const UNDONE = new Set(['gzip', 'x-gzip', 'deflate', 'br']);

/**
 * Whether a body with this Content-Encoding reaches us decoded: every coding is one `readBody`
 * undoes (and at least one is not identity). An unknown coding leaves the body as it was sent.
 */
export function contentDecoded(contentEncoding: readonly string[] | undefined): boolean {
  const codings = (contentEncoding ?? [])
    .flatMap((v) => v.split(','))
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
  return codings.length > 0 && codings.every((c) => UNDONE.has(c));
}

/**
 * The request header fields undici writes for `headers` (src/protocol/http/client.ts): `host` from
 * the URL, `connection` (close after HEAD, which undici does not keep alive), then ours in order.
 */
export function sentHeaders(
  url: URL,
  method: string,
  headers: Readonly<Record<string, string>>,
): [string, string][] {
  const out: [string, string][] = [
    ['host', url.host],
    ['connection', method === 'HEAD' ? 'close' : 'keep-alive'],
  ];
  for (const [name, value] of Object.entries(headers)) out.push([name, value]);
  return out;
}

/** The exchange of one fetch, from what HttpProtocol.fetch has at hand once the body is read. */
export function captured(c: {
  readonly url: URL;
  readonly method: string;
  readonly requestHeaders: Readonly<Record<string, string>>;
  readonly requestTime: number;
  readonly res: { readonly statusText: string };
  readonly raw: readonly string[];
  readonly body: { readonly content: Buffer; readonly trimmed?: TrimReason };
  readonly ip?: string;
}): Exchange {
  const encoding: string[] = [];
  for (let i = 0; i + 1 < c.raw.length; i += 2)
    if (c.raw[i]!.toLowerCase() === 'content-encoding') encoding.push(c.raw[i + 1]!);
  return {
    requestTime: c.requestTime,
    method: c.method,
    target: c.url.pathname + c.url.search,
    requestHeaders: sentHeaders(c.url, c.method, c.requestHeaders),
    statusText: c.res.statusText,
    rawHeaders: c.raw,
    payload: c.body.content,
    decoded: contentDecoded(encoding),
    ...(c.body.trimmed ? { trimmed: c.body.trimmed } : {}),
    ...(c.ip ? { ip: c.ip } : {}),
  };
}
