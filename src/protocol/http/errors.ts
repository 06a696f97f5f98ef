import { CrawlerError, type ErrorCode } from '../../util/errors.js';

/**
 * The `fetch.exception` values a failed fetch records. Operators filter status documents on them,
 * so they never change once published; add new ones, never rename.
 *
 * | value | when |
 * |---|---|
 * | Socket timeout fetching | http.timeout passed (connect, headers or body), or a connect/read timeout |
 * | Unknown host | DNS found no address (ENOTFOUND, EAI_AGAIN, EAI_NONAME, EAI_NODATA, EAI_FAIL) |
 * | Connection refused | ECONNREFUSED |
 * | Connection reset | the peer closed or reset the connection before the answer was complete |
 * | TLS error | handshake or certificate failure |
 * | Protocol error | malformed HTTP, a body shorter than its Content-Length, undecodable Content-Encoding |
 * | Blocked address | http.filter.ipaddress.exclude refused the address the host resolves to |
 * | Unsupported scheme | neither http nor https |
 * | Proxy error | the proxy refused the request (407, tunnel refused), or refused the connection to it (it is down) |
 * | Aborted | the caller's AbortSignal fired (shutdown); not the server's fault |
 * | Render failed | a page to render could not be (the browser died twice, or cannot start); not the server's fault |
 * | Fetch error (CODE) | anything else, with the Node/undici error code |
 */
export const FETCH_EXCEPTION = {
  timeout: 'Socket timeout fetching',
  unknownHost: 'Unknown host',
  connectionRefused: 'Connection refused',
  connectionReset: 'Connection reset',
  tls: 'TLS error',
  protocol: 'Protocol error',
  blockedAddress: 'Blocked address',
  unsupportedScheme: 'Unsupported scheme',
  proxy: 'Proxy error',
  aborted: 'Aborted',
  render: 'Render failed',
} as const;

export type FetchExceptionKind = keyof typeof FETCH_EXCEPTION;

/**
 * Failures that say the host could not be reached or would not answer at all (nothing about the URL):
 * enough of them in a row and the fetcher treats the host as down. A timeout counts, whether it hit
 * the connect or a slow answer (one deadline covers both): a host that lets every request time out
 * is as good as down.
 */
export const UNREACHABLE_KINDS: ReadonlySet<FetchExceptionKind> = new Set([
  'connectionRefused',
  'unknownHost',
  'tls',
  'timeout',
  'connectionReset',
]);

/** The fallback `fetch.exception` for errors outside the documented set. */
export function genericFetchException(code: string): string {
  return `Fetch error (${code})`;
}

const CODE_OF_KIND: Record<FetchExceptionKind, ErrorCode> = {
  timeout: 'FETCH_TIMEOUT',
  unknownHost: 'FETCH_UNKNOWN_HOST',
  connectionRefused: 'FETCH_CONNECTION_REFUSED',
  connectionReset: 'FETCH_CONNECTION_RESET',
  tls: 'FETCH_TLS',
  protocol: 'FETCH_PROTOCOL',
  blockedAddress: 'FETCH_BLOCKED_ADDRESS',
  unsupportedScheme: 'FETCH_UNSUPPORTED_SCHEME',
  proxy: 'FETCH_PROXY',
  aborted: 'FETCH_ABORTED',
  render: 'FETCH_RENDER_FAILED',
};

/** A fetch that got no HTTP answer. `fetchException` is what goes into the URL's metadata. */
export class FetchException extends CrawlerError {
  constructor(
    readonly fetchException: string,
    code: ErrorCode,
    message: string,
    options?: { cause?: unknown; kind?: FetchExceptionKind },
  ) {
    super(code, message, options);
    this.kind = options?.kind;
  }

  /** Which documented failure this is; undefined for the generic `Fetch error (CODE)`. */
  readonly kind: FetchExceptionKind | undefined;

  static of(kind: FetchExceptionKind, message: string, cause?: unknown): FetchException {
    return new FetchException(FETCH_EXCEPTION[kind], CODE_OF_KIND[kind], message, { cause, kind });
  }
}

/**
 * Raised by the connector; carries what the operator needs to decide whether to allow it. Its
 * message is the hint a terminal shows: one line under 80 columns for an IPv4 address, naming the
 * one setting that allows exactly that address (the README shows the same).
 */
export class BlockedAddressError extends CrawlerError {
  constructor(
    readonly host: string,
    readonly address: string,
    readonly rule: string,
  ) {
    const who = host === address ? address : `${host} (${address})`;
    // The entry that refused it (`rule`) stays out of the line: the setting that allows it says enough.
    super('FETCH_BLOCKED_ADDRESS', `${who} refused: --set http.filter.ipaddress.allow=${address}`);
  }
}

/** Raised when a Content-Encoding cannot be decoded: a protocol error. */
export class DecodingError extends CrawlerError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('FETCH_PROTOCOL', message, options);
  }
}

/** Our own deadline, so that its abort can be told apart from the caller's: a timeout. */
export class DeadlineError extends CrawlerError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('FETCH_TIMEOUT', message, options);
  }
}

const TIMEOUT = new Set([
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);
const UNKNOWN_HOST = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EAI_NODATA', 'EAI_FAIL']);
const RESET = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);
const PROTOCOL = new Set([
  'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
  'UND_ERR_REQ_CONTENT_LENGTH_MISMATCH',
  'UND_ERR_INFO',
]);
const TLS_CODES = new Set([
  'EPROTO',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
]);

/**
 * undici reports a proxy's refusal with generic codes (an invalid argument for a 407, an aborted
 * request for a refused CONNECT, a TLS error of the proxy connection): they mean "proxy" only when the
 * request went through one.
 */
const PROXY_CODES = new Set(['UND_ERR_INVALID_ARG', 'UND_ERR_ABORTED', 'UND_ERR_PRX_TLS']);

/** Each of our own FETCH_* codes is the fetch.exception it becomes. */
const KIND_OF_CODE = new Map<string, FetchExceptionKind>(
  Object.entries(CODE_OF_KIND).map(([kind, code]) => [code, kind as FetchExceptionKind]),
);

function kindOfCode(code: string, viaProxy: boolean): FetchExceptionKind | undefined {
  const own = KIND_OF_CODE.get(code);
  if (own) return own;
  if (viaProxy && PROXY_CODES.has(code)) return 'proxy';
  // Through a proxy the only connection we open is to the proxy: a refusal is the proxy being down
  // (the target's own refusal comes back from the proxy as an HTTP answer, 502 and the like).
  if (viaProxy && code === 'ECONNREFUSED') return 'proxy';
  if (TIMEOUT.has(code)) return 'timeout';
  if (UNKNOWN_HOST.has(code)) return 'unknownHost';
  if (code === 'ECONNREFUSED') return 'connectionRefused';
  if (RESET.has(code)) return 'connectionReset';
  if (PROTOCOL.has(code) || code.startsWith('HPE_')) return 'protocol';
  if (TLS_CODES.has(code) || code.startsWith('ERR_TLS_') || code.startsWith('ERR_SSL_')) return 'tls';
  return undefined;
}

function codeOf(e: unknown): string | undefined {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Turns whatever undici, node:net, node:tls or zlib threw into a FetchException. Looks through
 * `cause` chains because undici sometimes wraps the socket error.
 */
export function classifyFetchError(
  e: unknown,
  url: string,
  context: {
    readonly viaProxy?: boolean;
    /** The proxy the request went through (without its password), named in proxy errors. */
    readonly proxy?: string;
  } = {},
): FetchException {
  if (e instanceof FetchException) return e;
  let firstCode: string | undefined;
  for (let cur: unknown = e, depth = 0; cur && depth < 5; cur = (cur as Error).cause, depth++) {
    // undici's HTTPParserError has no code when llhttp's error number has no name.
    const code = codeOf(cur) ?? ((cur as Error).name === 'HTTPParserError' ? 'HPE_UNKNOWN' : undefined);
    if (code === undefined) continue;
    firstCode ??= code;
    const kind = kindOfCode(code, context.viaProxy === true);
    if (kind) {
      const detail = cur instanceof Error ? cur.message : String(cur);
      const via = kind === 'proxy' && context.proxy ? ` (through the proxy ${context.proxy})` : '';
      return FetchException.of(kind, `${FETCH_EXCEPTION[kind]}: ${url}${via}: ${detail}`, e);
    }
  }
  const code = firstCode ?? (e instanceof Error ? e.name : 'UNKNOWN');
  const message = e instanceof Error ? e.message : String(e);
  return new FetchException(genericFetchException(code), 'FETCH_FAILED', `${url}: ${message}`, { cause: e });
}
