import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { isIP } from 'node:net';
import type { Config } from '../config/schema.js';
import { PROMETHEUS_CONTENT_TYPE } from '../metrics/prometheus.js';
import { ConfigError, errorMessage } from '../util/errors.js';
import type { Logger } from '../util/log.js';
import { CONSOLE_CSS, CONSOLE_HTML, CONSOLE_ICON, CONSOLE_JS } from './assets.js';
import type { ConsoleState } from './state.js';

/** What the console shows; the monitor implements it for one process or for a supervisor. */
export interface ConsoleView {
  state(): Promise<ConsoleState>;
  /** Pages/s and errors/s over the last `hours`. */
  chart(hours: number): Promise<Chart>;
  /** What `crawler url URL` prints of `url`, line by line. */
  explain(url: string): Promise<Explanation>;
  /** The Prometheus text format. */
  prometheus(): Promise<string>;
}

export interface Explanation {
  /** Whether the status index has the URL. */
  readonly known: boolean;
  readonly lines: readonly string[];
}

export interface Chart {
  /** Where the points come from: the metrics index, or this process's memory since it started. */
  readonly source: 'metrics index' | 'since start';
  readonly bucketSec: number;
  readonly points: readonly {
    readonly t: number;
    readonly pagesPerSec: number;
    readonly errorsPerSec: number;
  }[];
}

export interface ConsoleSettings {
  readonly host: string;
  readonly port: number;
  /** The token every request needs. */
  readonly token: string;
  /** True when the token came from console.token (it is then not printed). */
  readonly explicit: boolean;
}

/** The keys of the console's listener. */
export type ConsoleConfig = Pick<Config, 'console.port' | 'console.host' | 'console.token'>;

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '');
  return LOOPBACK_NAMES.has(h) || (isIP(h) === 4 && h.startsWith('127.'));
}

/**
 * console.* checked at start-up: a port in range, and no address other than loopback without an
 * explicit token of 16 characters at least (a random one printed in a log is no protection on a
 * shared network). Undefined when the console is off (console.port 0).
 */
export function consoleSettings(config: ConsoleConfig): ConsoleSettings | undefined {
  const port = config['console.port'];
  if (port === 0) return undefined;
  if (port > 65535)
    throw new ConfigError([`console.port: ${port} is not a port (1 to 65535, or 0 for no console)`]);
  const host = config['console.host'];
  const given = config['console.token'];
  if (!isLoopback(host) && given.length < 16) {
    throw new ConfigError([
      `console.host: "${host}" is not a loopback address, so console.token must be set explicitly ` +
        '(16 characters at least, e.g. from `openssl rand -hex 24`); or keep console.host 127.0.0.1, or set console.port: 0',
    ]);
  }
  return { host, port, token: given || randomBytes(24).toString('base64url'), explicit: given !== '' };
}

const digest = (s: string) => createHash('sha256').update(s).digest();

const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'cache-control': 'no-store',
};

export interface RunningConsole {
  readonly port: number;
  /** The address to open, with the token when it is a random one. */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * The live console: one page, its script and style, a JSON API and /metrics, read only. Every
 * request is checked in this order: the Host header must name this server (a DNS-rebinding page
 * cannot reach it), the method must be GET or HEAD, and the token must come as a Bearer header or as
 * the cookie that `?token=` sets (then redirected to the same path without it); only the icon is
 * served without it. No CORS headers are
 * ever sent; a strict Content-Security-Policy allows only the console's own script, which writes
 * every value as text. A port in use costs one warning and resolves to undefined.
 */
export async function startConsole(
  view: ConsoleView,
  settings: ConsoleSettings,
  log: Logger,
): Promise<RunningConsole | undefined> {
  const want = digest(settings.token);
  const tokenOk = (t: string | undefined) => t !== undefined && timingSafeEqual(digest(t), want);
  let port = settings.port;
  const cookie = () => `crawler_console_${port}`;
  let allowed = new Set<string>();

  /** Answers `res` with `answer.body` of `answer.type` (its headers alone for a HEAD request). */
  const send = (
    res: ServerResponse,
    status: number,
    answer: { readonly type: string; readonly body: string },
    head = false,
  ) => {
    res.writeHead(status, {
      ...SECURITY_HEADERS,
      'content-type': answer.type,
      'content-length': Buffer.byteLength(answer.body),
    });
    res.end(head ? undefined : answer.body);
  };
  const json = (res: ServerResponse, status: number, body: unknown, head: boolean) =>
    send(res, status, { type: 'application/json; charset=utf-8', body: JSON.stringify(body) }, head);

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const host = (req.headers.host ?? '').toLowerCase();
    if (!hostAllowed(host, allowed, settings.host, port)) {
      send(res, 421, {
        type: 'text/plain; charset=utf-8',
        body: 'wrong Host header: open the console by the address it printed\n',
      });
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('allow', 'GET, HEAD');
      send(res, 405, { type: 'text/plain; charset=utf-8', body: 'read only: GET and HEAD\n' });
      return;
    }
    const head = req.method === 'HEAD';
    const url = new URL(req.url ?? '/', 'http://console.invalid');
    // The icon tells nothing a 401 does not (that a console listens here), and browsers ask for
    // /favicon.ico on their own, before a token cookie exists: served to anyone who names this host.
    if (url.pathname === '/favicon.svg' || url.pathname === '/favicon.ico')
      return send(res, 200, { type: 'image/svg+xml', body: CONSOLE_ICON }, head);
    const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const fromCookie = cookieValue(req.headers.cookie, cookie());
    const fromQuery = url.searchParams.get('token') ?? undefined;
    if (fromQuery !== undefined && tokenOk(fromQuery)) {
      url.searchParams.delete('token');
      res.setHeader('set-cookie', `${cookie()}=${settings.token}; HttpOnly; SameSite=Strict; Path=/`);
      res.setHeader('location', `${url.pathname}${url.search}`);
      send(res, 303, { type: 'text/plain; charset=utf-8', body: 'see the console\n' }, head);
      return;
    }
    if (!tokenOk(bearer) && !tokenOk(fromCookie)) {
      res.setHeader('www-authenticate', 'Bearer realm="crawler console"');
      send(
        res,
        401,
        {
          type: 'text/plain; charset=utf-8',
          body: 'token required: open the URL the crawler printed at start-up (with ?token=), or send Authorization: Bearer TOKEN\n',
        },
        head,
      );
      return;
    }
    switch (url.pathname) {
      case '/':
        return send(res, 200, { type: 'text/html; charset=utf-8', body: CONSOLE_HTML }, head);
      case '/console.js':
        return send(res, 200, { type: 'text/javascript; charset=utf-8', body: CONSOLE_JS }, head);
      case '/console.css':
        return send(res, 200, { type: 'text/css; charset=utf-8', body: CONSOLE_CSS }, head);
      case '/metrics':
        return send(res, 200, { type: PROMETHEUS_CONTENT_TYPE, body: await view.prometheus() }, head);
      case '/api/state':
        return json(res, 200, await view.state(), head);
      case '/api/chart': {
        const hours = Number(url.searchParams.get('hours') ?? '3');
        return json(
          res,
          200,
          await view.chart(Number.isFinite(hours) ? Math.min(48, Math.max(0.25, hours)) : 3),
          head,
        );
      }
      case '/api/url': {
        const target = url.searchParams.get('url') ?? '';
        if (!/^https?:\/\/./i.test(target))
          return json(res, 400, { error: 'give an absolute http(s) URL' }, head);
        return json(res, 200, await view.explain(target), head);
      }
      default:
        return send(res, 404, { type: 'text/plain; charset=utf-8', body: 'not found\n' }, head);
    }
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) json(res, 500, { error: errorMessage(e) }, req.method === 'HEAD');
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 5000;
  const listening = await new Promise<boolean>((resolve) => {
    server.once('error', (e: NodeJS.ErrnoException) => {
      log.warn(
        { err: e.code ?? e.message, host: settings.host, port: settings.port },
        `console not started: ${settings.host}:${settings.port} ${e.code === 'EADDRINUSE' ? 'is in use' : `cannot be used (${e.code ?? e.message})`}; ` +
          'the crawl goes on without the console and /metrics (set console.port to a free port, or 0)',
      );
      resolve(false);
    });
    server.listen(settings.port, settings.host, () => resolve(true));
  });
  if (!listening) return undefined;
  server.on('error', (e) => log.warn({ err: errorMessage(e) }, 'console server error'));
  server.unref();
  const address = server.address();
  port = typeof address === 'object' && address ? address.port : settings.port;
  allowed = allowedHosts(settings.host, port);
  const shownHost = settings.host.includes(':') ? `[${settings.host}]` : settings.host;
  const base = `http://${isWildcard(settings.host) ? '127.0.0.1' : shownHost}:${port}/`;
  return {
    port,
    url: settings.explicit ? base : `${base}?token=${settings.token}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

const isWildcard = (host: string) => host === '0.0.0.0' || host === '::';

/** Host header values naming this server: loopback names, and the configured address. */
function allowedHosts(host: string, port: number): Set<string> {
  const out = new Set<string>();
  const add = (h: string) =>
    out.add(`${h.includes(':') && !h.startsWith('[') ? `[${h}]` : h}:${port}`.toLowerCase());
  if (isLoopback(host) || isWildcard(host)) for (const h of ['127.0.0.1', 'localhost', '[::1]']) add(h);
  if (!isWildcard(host)) add(host);
  return out;
}

/**
 * A console on every address (0.0.0.0) is reached by whatever address the machine has: any IP
 * literal is accepted, never a DNS name (which is what a rebinding page would send).
 */
function hostAllowed(host: string, allowed: ReadonlySet<string>, configured: string, port: number): boolean {
  if (allowed.has(host)) return true;
  if (!isWildcard(configured)) return false;
  const m = /^(\[[0-9a-f:.]+\]|[0-9.]+):(\d+)$/.exec(host);
  return m !== null && Number(m[2]) === port && isIP(m[1]!.replace(/^\[|\]$/g, '')) !== 0;
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim();
  }
  return undefined;
}
