import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One request as the server saw it: when it arrived and when its answer was sent. */
export interface Logged {
  readonly path: string;
  readonly start: number;
  end: number;
  status: number;
}

/**
 * A real HTTP host on a loopback address whose listener can be closed (connections are then
 * refused) and opened again on the same port, with its own request log (server timestamps), so
 * tests measure what the host saw rather than what the crawler thinks it did.
 */
export class ReopenableHost {
  readonly log: Logged[] = [];
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private port = 0;

  constructor(
    readonly host: string,
    private readonly handler: (req: IncomingMessage, res: ServerResponse, n: number) => void,
  ) {}

  get origin(): string {
    return `http://${this.host}:${this.port}`;
  }

  /** Requests of a path so far (robots.txt included when asked for). */
  count(path: string): number {
    return this.log.filter((l) => l.path === path).length;
  }

  /** Page requests (everything but robots.txt), in order of arrival. */
  pages(): Logged[] {
    return this.log.filter((l) => l.path !== '/robots.txt');
  }

  async open(): Promise<void> {
    const server = createServer((req, res) => {
      const path = req.url ?? '/';
      const entry: Logged = { path, start: Date.now(), end: 0, status: 0 };
      const n = this.log.filter((l) => l.path === path).length;
      this.log.push(entry);
      res.on('finish', () => {
        entry.end = Date.now();
        entry.status = res.statusCode;
      });
      this.handler(req, res, n);
    });
    server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, this.host, () => resolve());
    });
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  /** Stops listening and drops every connection: from now on connections are refused. */
  async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** Gaps between the end of each answer and the start of the next request, ms. */
export function gaps(entries: readonly Logged[]): number[] {
  const sorted = [...entries].sort((a, b) => a.start - b.start);
  return sorted.slice(1).map((e, i) => e.start - sorted[i]!.end);
}

export const html = (res: ServerResponse, body = 'page') =>
  res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><body>${body}</body></html>`);
