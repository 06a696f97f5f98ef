import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface Request {
  readonly path: string;
  readonly userAgent: string;
  readonly at: number;
  /** The client's address (which machine asked, when crawlers run in network namespaces). */
  readonly from: string;
}

export interface SiteHost {
  readonly host: string;
  readonly origin: string;
  readonly requests: Request[];
  /** Requests for a path so far. */
  count(path: string): number;
}

/** What a path answers on its n-th request (0-based); `undefined` = 404. */
export type Route = (n: number, req: IncomingMessage, res: ServerResponse) => void;

export const page =
  (title: string, links: readonly string[] = [], extra = '') =>
  (_n: number, _q: IncomingMessage, res: ServerResponse) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><html><head><title>${title}</title>${extra}</head><body><h1>${title}</h1><p>Text of ${title}.</p>` +
        links.map((l) => `<a href="${l}">${l}</a>`).join(' ') +
        '</body></html>',
    );
  };

export const status =
  (code: number, headers: Record<string, string> = {}) =>
  (_n: number, _q: IncomingMessage, res: ServerResponse) => {
    res.writeHead(code, headers).end();
  };

export const robots = (text: string) => (_n: number, _q: IncomingMessage, res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'text/plain' }).end(text);
};

/**
 * Real HTTP hosts for end-to-end crawls: each on its own loopback address (127.0.0.x), all on one
 * port chosen by the first, so URLs look like distinct sites. Routes can be changed between rounds.
 */
export class Site {
  readonly hosts = new Map<string, SiteHost>();
  private readonly servers: Server[] = [];
  private readonly sockets = new Set<Socket>();
  private readonly routes = new Map<string, Route>();
  private readonly listeners = new Set<(host: string, path: string) => void>();
  private port = 0;

  /** Sets what `http://<host>:<port><path>` answers. */
  route(host: string, path: string, r: Route): void {
    this.routes.set(`${host}${path}`, r);
  }

  /**
   * Calls `listener` on every request, once it is counted in `requests` and before it is answered,
   * so a test can act at an exact point of a crawl. Returns a function that removes the listener.
   */
  onRequest(listener: (host: string, path: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async start(hostAddresses: readonly string[]): Promise<void> {
    for (const host of hostAddresses) {
      const requests: Request[] = [];
      const counts = new Map<string, number>();
      const server = createServer((req, res) => {
        const path = req.url ?? '/';
        const n = counts.get(path) ?? 0;
        counts.set(path, n + 1);
        requests.push({
          path,
          userAgent: String(req.headers['user-agent'] ?? ''),
          at: Date.now(),
          from: req.socket.remoteAddress ?? '',
        });
        for (const l of this.listeners) l(host, path);
        const r = this.routes.get(`${host}${path}`);
        if (r) r(n, req, res);
        else res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      });
      server.on('connection', (s) => {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
      });
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(this.port, host, () => resolve());
      });
      this.port = (server.address() as AddressInfo).port;
      this.servers.push(server);
      this.hosts.set(host, {
        host,
        origin: `http://${host}:${this.port}`,
        requests,
        count: (path) => counts.get(path) ?? 0,
      });
    }
  }

  origin(host: string): string {
    return this.hosts.get(host)!.origin;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await Promise.all(this.servers.map((s) => new Promise<void>((r) => s.close(() => r()))));
  }
}
