import { Agent } from 'undici';
import { ERROR_CAUSE } from '../model/keys.js';
import type { TikaDocument } from '../parse/document.js';
import { CrawlerError, errorMessage } from '../util/errors.js';

/** The version of the Tika server API the crawler speaks (and scripts/tika-server serves). */
export const TIKA_API_VERSION = '3.2.2';

/** Why Tika gave no document: the page's status, its error.cause and a message for the operator. */
export interface TikaFailure {
  readonly status: 'ERROR' | 'FETCH_ERROR';
  readonly cause: (typeof ERROR_CAUSE)[keyof typeof ERROR_CAUSE];
  readonly message: string;
}

/**
 * What one call of the server gave: the document; a failure; or "refused", nothing listened, so the
 * document never reached Tika (an embedded server is started again and the call repeated).
 */
export type TikaAnswer =
  | { readonly kind: 'document'; readonly document: TikaDocument }
  | { readonly kind: 'failed'; readonly failure: TikaFailure; readonly connectionLost?: boolean }
  | { readonly kind: 'refused'; readonly message: string };

export interface TikaCall {
  readonly url: string;
  readonly content: Buffer;
}

export interface TikaClientOptions {
  /** The server, without a trailing slash. */
  readonly server: string;
  /** Calls at once (the connection pool's size). */
  readonly connections: number;
  /** Per document, from sending to the whole answer. */
  readonly timeoutMs: number;
  /** Bytes of an answer read at most (http.decoded.limit); -1 = unlimited. */
  readonly maxAnswerBytes: number;
  /** Characters of text Tika writes at most (its `writeLimit`); -1 = all. */
  readonly writeLimit: number;
}

const CONTAINER_EXCEPTION = 'X-TIKA:EXCEPTION:container_exception';
const ENCRYPTED = 'X-TIKA:encrypted';
const CONTENT = 'X-TIKA:content';

/**
 * A client of Apache Tika server's REST API (3.x): one `PUT /rmeta/html` per document gives both
 * what the crawler needs, in one parse: the metadata of the container document (the first object of
 * the answer) and its content as XHTML (`X-TIKA:content`). The official server answers it as
 * scripts/tika-server does. Embedded documents are not parsed (`maxEmbeddedResources: 0`, as
 * StormCrawler's `parser.extract.embedded: false`). Never throws: every outcome is a `TikaAnswer`.
 */
export class TikaClient {
  private readonly agent: Agent;

  constructor(private readonly o: TikaClientOptions) {
    this.agent = new Agent({ connections: o.connections, keepAliveTimeout: 10_000 });
  }

  get server(): string {
    return this.o.server;
  }

  /** The server's version line ("Apache Tika 3.2.2"), or undefined when it does not answer as Tika. */
  async version(timeoutMs = 3000): Promise<string | undefined> {
    try {
      const res = await this.agent.request({
        origin: this.o.server,
        path: '/version',
        method: 'GET',
        signal: AbortSignal.timeout(timeoutMs),
      });
      const text = (await res.body.text()).trim();
      return res.statusCode === 200 && text.startsWith('Apache Tika') ? text : undefined;
    } catch {
      return undefined;
    }
  }

  async parse(call: TikaCall): Promise<TikaAnswer> {
    const { o } = this;
    const headers: Record<string, string> = {
      accept: 'application/json',
      // Tika detects the type from the bytes and the file name: a Content-Type would override its
      // detection (the server's rule), and servers mislabel documents.
      'content-type': 'application/octet-stream',
      maxEmbeddedResources: '0',
    };
    const name = fileName(call.url);
    if (name) headers['content-disposition'] = `attachment; filename="${name}"`;
    if (o.writeLimit > 0) {
      headers.writeLimit = String(o.writeLimit);
      headers.throwOnWriteLimitReached = 'false';
    }
    const signal = AbortSignal.timeout(o.timeoutMs);
    let status: number;
    let body: Buffer;
    let sent = false;
    try {
      const res = await this.agent.request({
        origin: o.server,
        path: '/rmeta/html',
        method: 'PUT',
        headers,
        body: call.content,
        signal,
      });
      sent = true;
      status = res.statusCode;
      body = await readCapped(res.body, o.maxAnswerBytes);
    } catch (e) {
      return this.transportFailure(e, signal.aborted, sent);
    }
    if (status !== 200) return { kind: 'failed', failure: statusFailure(status, o.server) };
    return answerOf(body, o.server);
  }

  private transportFailure(e: unknown, timedOut: boolean, answered: boolean): TikaAnswer {
    const { server, timeoutMs, maxAnswerBytes } = this.o;
    if (e instanceof AnswerTooLarge) {
      return fail(
        'ERROR',
        ERROR_CAUSE.tikaOutputLimit,
        `Tika's answer for this document is larger than http.decoded.limit (${maxAnswerBytes} bytes)`,
      );
    }
    if (timedOut) {
      return fail(
        'FETCH_ERROR',
        ERROR_CAUSE.tikaTimeout,
        `Tika at ${server} gave no answer within parser.tika.timeout (${timeoutMs} ms)`,
      );
    }
    const code = errorCode(e);
    if (!answered && (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN')) {
      return { kind: 'refused', message: `Tika at ${server} cannot be reached (${code})` };
    }
    return {
      kind: 'failed',
      failure: {
        status: 'FETCH_ERROR',
        cause: ERROR_CAUSE.tikaCrashed,
        message: `the connection to Tika at ${server} broke while it parsed the document (${code ?? errorMessage(e)})`,
      },
      connectionLost: true,
    };
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

/** Tika's answer past http.decoded.limit: the document's error.cause tika.output.limit. */
class AnswerTooLarge extends CrawlerError {
  constructor() {
    super('TIKA_OUTPUT_LIMIT', "Tika's answer is larger than http.decoded.limit");
  }
}

async function readCapped(body: AsyncIterable<Buffer> & { destroy(): void }, max: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of body) {
    length += chunk.length;
    if (max >= 0 && length > max) {
      body.destroy();
      throw new AnswerTooLarge();
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, length);
}

/** The code of a network error, looking through undici's wrappers ("connection closed" for theirs). */
function errorCode(e: unknown): string | undefined {
  let fallback: string | undefined;
  let cur: unknown = e;
  for (let i = 0; cur && i < 5; i++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === 'string') {
      if (!code.startsWith('UND_ERR_')) return code;
      fallback ??= code === 'UND_ERR_SOCKET' ? 'connection closed' : code;
    }
    cur = (cur as { cause?: unknown }).cause;
  }
  return fallback;
}

function fail(status: TikaFailure['status'], cause: TikaFailure['cause'], message: string): TikaAnswer {
  return { kind: 'failed', failure: { status, cause, message } };
}

/** The official server's statuses: 422 it cannot parse the document, 415 no parser, 503 busy/stopping. */
function statusFailure(status: number, server: string): TikaFailure {
  if (status === 422)
    return {
      status: 'ERROR',
      cause: ERROR_CAUSE.tikaParseError,
      message: 'Tika cannot parse the document (HTTP 422)',
    };
  if (status === 415)
    return {
      status: 'ERROR',
      cause: ERROR_CAUSE.tikaParseError,
      message: 'Tika has no parser for the document (HTTP 415)',
    };
  return {
    status: 'FETCH_ERROR',
    cause: status === 503 ? ERROR_CAUSE.tikaUnavailable : ERROR_CAUSE.tikaServerError,
    message: `Tika at ${server} answered HTTP ${status} to PUT /rmeta/html`,
  };
}

/** Reads the JSON of /rmeta: the first object is the document itself. */
export function answerOf(body: Buffer, server: string): TikaAnswer {
  let first: Record<string, unknown> | undefined;
  try {
    const list = JSON.parse(body.toString('utf8')) as unknown;
    if (Array.isArray(list) && typeof list[0] === 'object' && list[0] !== null)
      first = list[0] as Record<string, unknown>;
  } catch {
    // handled below
  }
  if (!first) {
    return fail(
      'FETCH_ERROR',
      ERROR_CAUSE.tikaServerError,
      `${server} answered PUT /rmeta/html with something that is not Tika's metadata list`,
    );
  }
  const metadata: Record<string, string[]> = {};
  for (const [key, value] of Object.entries(first)) {
    if (typeof value === 'string') metadata[key] = [value];
    else if (Array.isArray(value)) metadata[key] = value.filter((v): v is string => typeof v === 'string');
  }
  const exception = metadata[CONTAINER_EXCEPTION]?.[0];
  if (exception !== undefined) {
    const reason = exception.split('\n', 1)[0]!.trim().slice(0, 300);
    const encrypted =
      metadata[ENCRYPTED]?.[0] === 'true' ||
      reason.startsWith('org.apache.tika.exception.EncryptedDocumentException');
    return encrypted
      ? fail('ERROR', ERROR_CAUSE.tikaEncrypted, `the document is encrypted, Tika cannot read it (${reason})`)
      : fail('ERROR', ERROR_CAUSE.tikaParseError, `Tika cannot parse the document: ${reason}`);
  }
  const xhtml = metadata[CONTENT]?.[0] ?? '';
  return { kind: 'document', document: { metadata, xhtml } };
}

/** The URL's last path segment, as a file-name hint for Tika's detection (only safe characters). */
export function fileName(url: string): string | undefined {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return undefined;
  }
  const last = path.slice(path.lastIndexOf('/') + 1).replace(/[^\w.%+~()!,-]/g, '');
  return last === '' ? undefined : last.slice(-200);
}
