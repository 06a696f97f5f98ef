import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { Agent, createServer, request } from 'node:http';
import type { Client } from '@opensearch-project/opensearch';
import { leaseId } from '../../src/opensearch/lease.js';

/*
 * What an elastic crawl wrote, seen from OpenSearch's side: an HTTP proxy between the machines and
 * the node records every `_bulk` item that sets a URL's state in the status index (index, update or
 * delete; a `create` is a discovered link, written by whoever found it, whatever shard it lands on),
 * with the address of the machine that sent it and when the proxy handed it to OpenSearch. Beside it,
 * a timeline of the status shards' lease holders. Together they show whether a machine wrote a
 * URL's state while another member held the URL's shard: what the lease fence must prevent.
 */

export interface StatusWrite {
  /** When the request was complete and handed to OpenSearch (the proxy's clock: Date.now()). */
  readonly at: number;
  /** The address of the machine that sent it (or who `identify` said sent it). */
  readonly from: string;
  readonly op: string;
  readonly routing: string | undefined;
}

export interface RecordingProxy {
  readonly writes: StatusWrite[];
  /** The port it listens on (the one asked for, or the one given for 0). */
  readonly port: number;
  close(): Promise<void>;
}

/**
 * A proxy on `listen` to OpenSearch on 127.0.0.1:`to`, recording the status writes to `index`.
 * `identify` names the sender of a connection from its client port, when the address alone does not
 * (processes of one machine: see processOfPort); asked once per connection, when it opens.
 */
export async function recordingProxy(
  listen: { host: string; port: number },
  to: number,
  index: string,
  identify?: (clientPort: number) => string,
): Promise<RecordingProxy> {
  const writes: StatusWrite[] = [];
  const agent = new Agent({ keepAlive: true });
  const senders = new WeakMap<object, string>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const at = Date.now();
      const from = senders.get(req.socket) ?? req.socket.remoteAddress ?? '';
      if (req.url?.includes('_bulk'))
        for (const w of bulkItems(body.toString('utf8'), req.url))
          if (w.index === index && w.op !== 'create') writes.push({ at, from, op: w.op, routing: w.routing });
      const out = request(
        { host: '127.0.0.1', port: to, method: req.method, path: req.url, headers: req.headers, agent },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      out.on('error', () => res.destroy());
      out.end(body);
    });
    req.on('error', () => res.destroy());
  });
  // At once, while the process that opened it surely lives (its first request follows).
  if (identify) server.on('connection', (socket) => senders.set(socket, identify(socket.remotePort ?? 0)));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listen.port, listen.host, resolve);
  });
  const address = server.address();
  return {
    writes,
    port: typeof address === 'object' && address ? address.port : listen.port,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      agent.destroy();
    },
  };
}

/**
 * The pid (as a string) of the process, among `candidates()`, whose TCP socket to `serverPort` has
 * the local port `clientPort` on this machine (Linux: /proc/net/tcp gives the socket's inode, a
 * process's /proc/PID/fd its sockets); "unknown" when none has it.
 */
export function processOfPort(
  clientPort: number,
  serverPort: number,
  candidates: () => readonly number[],
): string {
  const hex = (n: number) => n.toString(16).toUpperCase().padStart(4, '0');
  let inode: string | undefined;
  for (const line of readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1)) {
    const f = line.trim().split(/\s+/);
    if (f[1]?.endsWith(`:${hex(clientPort)}`) && f[2]?.endsWith(`:${hex(serverPort)}`)) inode = f[9];
  }
  if (inode === undefined) return 'unknown';
  const target = `socket:[${inode}]`;
  for (const pid of candidates()) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        if (readlinkSync(`/proc/${pid}/fd/${fd}`) === target) return String(pid);
      } catch {
        // Closed meanwhile.
      }
    }
  }
  return 'unknown';
}

/** The items of a `_bulk` body: each action line (its document line, if any, skipped). */
function bulkItems(
  ndjson: string,
  url: string,
): { op: string; index: string | undefined; routing?: string }[] {
  const pathIndex = /^\/([^/_?][^/?]*)\/_bulk/.exec(url)?.[1];
  const items: { op: string; index: string | undefined; routing?: string }[] = [];
  const lines = ndjson.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === '') continue;
    const action = JSON.parse(line) as Record<string, { _index?: string; routing?: string }>;
    const op = Object.keys(action)[0]!;
    const meta = action[op] ?? {};
    items.push({ op, index: meta._index ?? pathIndex, ...(meta.routing ? { routing: meta.routing } : {}) });
    if (op !== 'delete') i++;
  }
  return items;
}

/** One reading of the shards' lease holders (each shard's member id, expired or not). */
export interface LeaseReading {
  readonly sentAt: number;
  readonly answeredAt: number;
  readonly holders: readonly (string | undefined)[];
}

/** Reads the lease holders every `everyMs` until stopped. */
export function leaseTimeline(
  client: Client,
  leaseIndex: string,
  statusIndex: string,
  shards: number,
  everyMs: number,
): { readings: LeaseReading[]; stop(): Promise<void> } {
  const readings: LeaseReading[] = [];
  const ids = Array.from({ length: shards }, (_, s) => leaseId(statusIndex, s));
  let running = true;
  const loop = (async () => {
    while (running) {
      const sentAt = Date.now();
      try {
        const res = await client.mget({ index: leaseIndex, body: { ids } });
        const docs = (res.body as unknown as { docs: { found?: boolean; _source?: { share?: unknown } }[] })
          .docs;
        readings.push({
          sentAt,
          answeredAt: Date.now(),
          holders: docs.map((d) =>
            d.found && d._source?.share != null ? String(d._source.share) : undefined,
          ),
        });
      } catch {
        // No reading this time: the intervals around it are not proven.
      }
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  return {
    readings,
    async stop() {
      running = false;
      await loop;
    },
  };
}

/**
 * The status writes that reached OpenSearch while another member held their shard: between two
 * consecutive readings that both name the same other holder (the first answered before the write,
 * the second sent after it). `memberOf` names the member a machine address ran as at that time.
 */
export function writesUnderAnotherLease(
  writes: readonly StatusWrite[],
  readings: readonly LeaseReading[],
  shardOf: ReadonlyMap<string, number>,
  isMember: (address: string, member: string) => boolean,
): StatusWrite[] {
  const bad: StatusWrite[] = [];
  for (const w of writes) {
    const shard = w.routing === undefined ? undefined : shardOf.get(w.routing);
    if (shard === undefined) continue;
    const after = readings.findIndex((r) => r.sentAt > w.at);
    if (after <= 0) continue;
    const before = readings[after - 1]!;
    if (before.answeredAt >= w.at) continue;
    const holder = before.holders[shard];
    if (holder !== undefined && holder === readings[after]!.holders[shard] && !isMember(w.from, holder))
      bad.push(w);
  }
  return bad;
}
