import { performance } from 'node:perf_hooks';
import { Agent, type Dispatcher } from 'undici';
import { MD } from '../../model/keys.js';
import { type Clock, systemClock } from '../../util/clock.js';
import { raceAbort } from '../abort.js';
import { captured } from '../exchange.js';
import type { ProtocolSettings } from '../settings.js';
import { type MetadataView, metadataOf, type Protocol, type ProtocolResponse } from '../types.js';
import { AddressFilter } from './address-filter.js';
import { ACCEPT_ENCODING, type Body, readBody } from './body.js';
import { allowedAddress, guardedConnector, type Resolver, systemResolver } from './connector.js';
import { classifyFetchError, DeadlineError, FetchException, genericFetchException } from './errors.js';
import { headerBlock, headersByName, RequestHeaders } from './headers.js';
import { ProxyRotation, proxyUrls, redact } from './proxies.js';
import { userAgent } from './user-agent.js';

export interface HttpProtocolDeps {
  /** For `_request.time_` and cookie expiry. */
  readonly clock?: Clock;
  /** Name resolution before the address check; tests point names at loopback with it. */
  readonly resolver?: Resolver;
  /** Reads http.proxy.file. */
  readonly readFile?: (path: string) => string;
  /** WARC output: keep each answer's request and response heads (`ProtocolResponse.exchange`). */
  readonly capture?: boolean;
}

/** A request a rendered page makes, as the browser would send it. */
export interface SubrequestInit {
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: Buffer;
}

/** Its answer: header values by lowercased name, the body decoded from its Content-Encoding. */
export interface SubrequestAnswer {
  readonly statusCode: number;
  readonly headers: Readonly<Record<string, string[]>>;
  readonly content: Buffer;
}

/** Header fields of one connection, or that undici sets itself: never taken from the browser. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'host',
  'content-length',
  'accept-encoding',
  'user-agent',
]);

const NO_METADATA = metadataOf();
const EMPTY = Buffer.alloc(0);
/** A redirect's body is small or skipped; reading up to this keeps the connection reusable. */
const DISCARD_LIMIT = 64 * 1024;
const REMEMBERED_ADDRESSES = 10_000;

/**
 * HTTP and HTTPS on undici: one keep-alive pool per origin (or per proxy), no redirects followed, no
 * retries, one hard deadline (http.timeout) over connect, headers and body. Every address connected
 * to passes http.filter.ipaddress.exclude after DNS resolution.
 *
 * Lifecycle: construct once at start-up (configuration errors throw ConfigError here, e.g. a missing
 * or invalid http.agent.name), call `fetch` concurrently, then `close` once at shutdown; it waits
 * for requests in flight. See `Protocol` for the contract of `fetch`.
 */
export class HttpProtocol implements Protocol {
  /** The User-Agent header sent with every request. */
  readonly userAgent: string;
  private readonly timeoutMs: number;
  private readonly filter: AddressFilter;
  private readonly resolver: Resolver;
  private readonly clock: Clock;
  private readonly headers: RequestHeaders;
  private readonly agent: Agent;
  /** The answer of `dispatcherFor` without proxies. */
  private readonly direct: { readonly dispatcher: Dispatcher; readonly proxy?: string };
  private readonly proxies: ProxyRotation | undefined;
  private readonly addresses = new Map<string, string>();
  private readonly capture: boolean;
  private closed = false;

  constructor(
    private readonly s: ProtocolSettings,
    deps: HttpProtocolDeps = {},
  ) {
    this.userAgent = userAgent(s);
    this.timeoutMs = s['http.timeout'];
    this.filter = AddressFilter.fromEntries(
      s['http.filter.ipaddress.exclude'],
      'http.filter.ipaddress.exclude',
      s['http.filter.ipaddress.allow'],
    );
    this.resolver = deps.resolver ?? systemResolver;
    this.clock = deps.clock ?? systemClock;
    this.capture = deps.capture === true;
    this.headers = new RequestHeaders({
      userAgent: this.userAgent,
      accept: s['http.accept'],
      acceptLanguage: s['http.accept.language'],
      custom: s['http.custom.headers'],
      useCookies: s['http.use.cookies'],
      prefix: s['protocol.md.prefix'],
    });
    // undici's own timeouts only back up the deadline; they cannot be shorter than it.
    const timeouts = { headersTimeout: this.timeoutMs, bodyTimeout: this.timeoutMs };
    const urls = proxyUrls(s, deps.readFile);
    this.proxies = urls.length > 0 ? new ProxyRotation(urls, s['http.proxy.rotation'], timeouts) : undefined;
    this.agent = new Agent({
      ...timeouts,
      connect: guardedConnector({
        filter: this.filter,
        resolver: this.resolver,
        timeoutMs: this.timeoutMs,
        onConnected: (origin, address) => this.remember(origin, address),
      }),
    });
    this.direct = { dispatcher: this.agent };
  }

  async fetch(url: string, md: MetadataView = NO_METADATA, signal?: AbortSignal): Promise<ProtocolResponse> {
    const target = this.target(url);
    if (signal?.aborted) throw FetchException.of('aborted', `${url}: aborted before the request`);
    const started = performance.now();
    const requestTime = this.clock.now();
    const controller = new AbortController();
    const deadline = setTimeout(
      () => controller.abort(new DeadlineError(`no complete answer within ${this.timeoutMs} ms`)),
      this.timeoutMs,
    );
    const onAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    let proxy: string | undefined;
    try {
      // Without proxies no await: one turn of the event loop less per request.
      const via = this.proxies ? await this.dispatcherFor(target, controller.signal) : this.direct;
      proxy = via.proxy;
      const dispatcher = via.dispatcher;
      const head = md.getFirstValue(MD.httpMethodHead) === 'true';
      const method = head ? 'HEAD' : 'GET';
      const requestHeaders = this.headers.build(target, md, requestTime);
      const res = await dispatcher.request({
        origin: target.origin,
        path: target.pathname + target.search,
        method,
        headers: requestHeaders,
        signal: controller.signal,
        responseHeaders: 'raw',
      });
      // With responseHeaders 'raw' undici hands over the flat [name, value, ...] list.
      const raw = res.headers as unknown as string[];
      const headers = headersByName(raw);
      const status = res.statusCode;
      let body: Body = { content: EMPTY };
      // WARC: a redirect's body is kept for the archive (as much as would be read to discard it).
      let redirectBody: Body | undefined;
      if (this.capture && !head && status >= 300 && status < 400)
        redirectBody = await readBody(res.body, headers['content-encoding'], {
          contentLimit: DISCARD_LIMIT,
          decodedLimit: DISCARD_LIMIT,
        });
      else if (head || (status >= 300 && status < 400)) await res.body.dump({ limit: DISCARD_LIMIT });
      else
        body = await readBody(res.body, headers['content-encoding'], {
          contentLimit: this.contentLimit(md),
          decodedLimit: this.s['http.decoded.limit'],
          maxRatio: this.s['http.decoded.max.ratio'],
        });
      if (this.s['http.store.headers']) {
        headers['_response.headers_'] = [headerBlock(status, res.statusText, raw)];
        headers['_request.time_'] = [String(requestTime)];
      }
      const ip = this.proxies ? undefined : this.addresses.get(target.origin);
      // WARC: the heads as sent and received, only when asked for (no cost otherwise).
      const exchange = this.capture
        ? captured({
            url: target,
            method,
            requestHeaders,
            requestTime,
            res,
            raw,
            body: redirectBody ?? body,
            ip,
          })
        : undefined;
      return {
        statusCode: status,
        headers,
        content: body.content,
        byteLength: body.content.length,
        ...(body.trimmed ? { trimmed: body.trimmed } : {}),
        loadingTimeMs: performance.now() - started,
        ...(ip ? { ip } : {}),
        ...(exchange ? { exchange } : {}),
      };
    } catch (e) {
      if (signal?.aborted) throw FetchException.of('aborted', `${url}: aborted by the caller`, e);
      const reason: unknown = controller.signal.reason;
      throw classifyFetchError(reason instanceof DeadlineError ? reason : e, url, {
        viaProxy: this.proxies !== undefined,
        proxy,
      });
    } finally {
      clearTimeout(deadline);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  /**
   * A request a rendered page makes (src/render): the browser's method, header fields and body,
   * with our User-Agent and Accept-Encoding; the same connections, address filter, proxies,
   * deadline and content limit as `fetch`. Never follows redirects; resolves with any answer, its
   * body decoded; rejects with a FetchException like `fetch`.
   */
  async subrequest(url: string, init: SubrequestInit, signal?: AbortSignal): Promise<SubrequestAnswer> {
    const target = this.target(url);
    if (signal?.aborted) throw FetchException.of('aborted', `${url}: aborted before the request`);
    const controller = new AbortController();
    const deadline = setTimeout(
      () => controller.abort(new DeadlineError(`no complete answer within ${this.timeoutMs} ms`)),
      this.timeoutMs,
    );
    const onAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const via = this.proxies ? await this.dispatcherFor(target, controller.signal) : this.direct;
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(init.headers)) {
        const name = k.toLowerCase();
        if (!HOP_BY_HOP.has(name) && !name.startsWith(':')) headers[name] = v;
      }
      headers['user-agent'] = this.userAgent;
      headers['accept-encoding'] = ACCEPT_ENCODING;
      const method = init.method.toUpperCase();
      const res = await via.dispatcher.request({
        origin: target.origin,
        path: target.pathname + target.search,
        method,
        headers,
        ...(init.body && method !== 'GET' && method !== 'HEAD' ? { body: init.body } : {}),
        signal: controller.signal,
        responseHeaders: 'raw',
      });
      const raw = res.headers as unknown as string[];
      const answer = headersByName(raw);
      const status = res.statusCode;
      let content: Buffer = EMPTY;
      if (method === 'HEAD' || (status >= 300 && status < 400) || status === 204 || status === 304)
        await res.body.dump({ limit: DISCARD_LIMIT });
      else
        content = (
          await readBody(res.body, answer['content-encoding'], {
            contentLimit: this.s['http.content.limit'],
            decodedLimit: this.s['http.decoded.limit'],
            maxRatio: this.s['http.decoded.max.ratio'],
          })
        ).content;
      return { statusCode: status, headers: answer, content };
    } catch (e) {
      if (signal?.aborted) throw FetchException.of('aborted', `${url}: aborted by the caller`, e);
      const reason: unknown = controller.signal.reason;
      throw classifyFetchError(reason instanceof DeadlineError ? reason : e, url, {
        viaProxy: this.proxies !== undefined,
      });
    } finally {
      clearTimeout(deadline);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  /** Waits for requests in flight, then closes every connection. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([this.agent.close(), this.proxies?.close()]);
  }

  /** Requests sent through each proxy so far (empty without proxies); for metrics and tests. */
  proxyUsage(): readonly number[] {
    return this.proxies?.usageCounts() ?? [];
  }

  private target(url: string): URL {
    if (this.closed)
      throw new FetchException(genericFetchException('CLOSED'), 'FETCH_CLOSED', 'protocol closed');
    let target: URL;
    try {
      target = new URL(url);
    } catch (cause) {
      const invalid = genericFetchException('ERR_INVALID_URL');
      throw new FetchException(invalid, 'FETCH_FAILED', `malformed URL ${url}`, { cause });
    }
    if (target.protocol !== 'http:' && target.protocol !== 'https:') {
      throw FetchException.of('unsupportedScheme', `${url}: only http and https are fetched`);
    }
    return target;
  }

  /** The proxies requests go through, without passwords; empty without proxies. For start-up logs. */
  get proxyList(): readonly string[] {
    return this.proxies?.urls.map(redact) ?? [];
  }

  private async dispatcherFor(
    target: URL,
    signal: AbortSignal,
  ): Promise<{ dispatcher: Dispatcher; proxy?: string }> {
    if (!this.proxies) return { dispatcher: this.agent };
    // The proxy resolves the name again when it connects, so this check cannot stop DNS rebinding;
    // it still keeps plain internal names and addresses from being fetched through the proxy.
    if (!this.filter.allowsAll)
      await raceAbort(allowedAddress(target.hostname, this.filter, this.resolver), signal);
    const { dispatcher, index } = this.proxies.next();
    return { dispatcher, proxy: redact(this.proxies.urls[index]!) };
  }

  private contentLimit(md: MetadataView): number {
    const own = md.getFirstValue(MD.httpContentLimit)?.trim();
    return own && /^-?\d+$/.test(own) ? Number(own) : this.s['http.content.limit'];
  }

  private remember(origin: string, address: string): void {
    this.addresses.delete(origin);
    this.addresses.set(origin, address);
    if (this.addresses.size > REMEMBERED_ADDRESSES)
      this.addresses.delete(this.addresses.keys().next().value!);
  }
}
