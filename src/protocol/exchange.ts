import { canDecode, codingsOf } from './http/body.js';
import type { Exchange, TrimReason } from './types.js';

// The type lives with the protocol's other types (ProtocolResponse carries it).
export type { Exchange } from './types.js';

/**
 * Whether a body with this Content-Encoding reaches us decoded: every coding is one `readBody`
 * undoes (and at least one is not identity). An unknown coding leaves the body as it was sent.
 */
export function contentDecoded(contentEncoding: readonly string[] | undefined): boolean {
  const codings = codingsOf(contentEncoding);
  return codings.length > 0 && codings.every(canDecode);
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
