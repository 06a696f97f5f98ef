import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { HttpProtocol, type HttpProtocolDeps } from '../../../src/protocol/http/client.js';
import { protocolSettings } from '../../../src/protocol/settings.js';
import { ManualClock } from '../../../src/util/clock.js';

export interface TestServer {
  readonly server: Server;
  readonly host: string;
  readonly port: number;
  /** `http://host:port` */
  readonly origin: string;
  /** Requests received, by path (query included). */
  readonly hits: Map<string, number>;
  /** TCP connections accepted. */
  connections: number;
  close(): Promise<void>;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * A node:http server on a loopback address of its own (all of 127.0.0.0/8 answers on Linux), port 0.
 * Counts requests per path and connections; `close` also ends kept-alive and stalled sockets.
 */
export async function startServer(handler: Handler, host = '127.0.0.2'): Promise<TestServer> {
  const hits = new Map<string, number>();
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    hits.set(req.url ?? '', (hits.get(req.url ?? '') ?? 0) + 1);
    handler(req, res);
  });
  const t: { connections: number } = { connections: 0 };
  server.on('connection', (s) => {
    t.connections++;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(t, {
    server,
    host,
    port,
    origin: `http://${host}:${port}`,
    hits,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}

/** An HttpProtocol for loopback tests: address filter off, a short timeout, `testbot` as agent. */
export function testProtocol(
  entries: Record<string, unknown> = {},
  deps: HttpProtocolDeps = {},
): HttpProtocol {
  return new HttpProtocol(
    protocolSettings({
      'http.agent.name': 'testbot',
      'http.agent.version': '1.0',
      'http.filter.ipaddress.exclude': [],
      'http.timeout': 2000,
      ...entries,
    }),
    { clock: new ManualClock(), ...deps },
  );
}

/** A resolver that knows only the given names, as a DNS server under test control would. */
export function fakeResolver(names: Record<string, string>): NonNullable<HttpProtocolDeps['resolver']> {
  return async (hostname) => {
    const address = names[hostname];
    if (!address) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return [{ address, family: address.includes(':') ? 6 : 4 }];
  };
}
