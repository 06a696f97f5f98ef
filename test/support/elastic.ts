import { writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { Client } from '@opensearch-project/opensearch';
import { leaseId } from '../../src/opensearch/lease.js';
import type { Child } from './child.js';
import { fastCrawlSettings } from './crawl.js';
import { deleteIndices } from './opensearch.js';
import type { Site } from './site.js';

/*
 * What the tests of an elastic crawl (`crawler run --join`) read: who holds which status shard (the
 * lease documents), how many URLs ended FETCHED, and the test web's own request log.
 */

/** The settings the members of a loopback elastic crawl share (elastic-kill, elastic-polite). */
export function memberSettings(
  names: { status: string; content: string },
  o: { shards: number; leases: string; ttlMs: number; delayS: number; agent: string },
): Record<string, unknown> {
  return {
    ...fastCrawlSettings(names),
    'opensearch.status.shards': o.shards,
    'opensearch.lease.index.name': o.leases,
    'opensearch.lease.ttl': o.ttlMs,
    'fetcher.server.delay': o.delayS,
    'http.timeout': 5000,
    'http.agent.name': o.agent,
    // A fetch that failed (a keep-alive connection the test web closed as it was reused, on a loaded
    // machine) is tried again within seconds, not the default 2 hours: the tests wait for every page
    // to end FETCHED, which is what a crawl does with a transient error.
    'fetchInterval.fetch.error': 0.05,
    // A generous ceiling: on a loaded machine creating an index can take longer than the default 10 s.
    'opensearch.connect.timeout': 60_000,
  };
}

/** A page that answers after `ms` (fetching bound by latency), linking to `links`. */
export const slowPage =
  (title: string, links: readonly string[], ms: number) =>
  (_n: number, _q: IncomingMessage, res: ServerResponse) => {
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        `<!doctype html><html><head><title>${title}</title></head><body><h1>${title}</h1>` +
          `<p>Text of ${title}, long enough to be indexed.</p>${links.map((l) => `<a href="${l}">${l}</a>`).join(' ')}</body></html>`,
      );
    }, ms).unref();
  };

/** Routes `pages` pages on each host, page i linking to i+1 and i+2, each answering after `ms`. */
export function routeChains(site: Site, hosts: readonly string[], pages: number, ms: number): void {
  for (const h of hosts) {
    site.route(h, '/robots.txt', (_n, _q, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
    });
    for (let i = 0; i < pages; i++) {
      const links = [i + 1, i + 2].filter((j) => j < pages).map((j) => `/p${j}`);
      site.route(h, `/p${i}`, slowPage(`${h} ${i}`, links, ms));
    }
  }
}

/** Live lease holders of the status shards: the member (its share words) of each held shard. */
export async function holders(
  client: Client,
  leaseIndex: string,
  statusIndex: string,
  shards: number,
): Promise<(string | undefined)[]> {
  const ids = Array.from({ length: shards }, (_, s) => leaseId(statusIndex, s));
  try {
    const res = await client.mget({ index: leaseIndex, body: { ids } });
    const docs = (res.body as unknown as { docs: { found?: boolean; _source?: Record<string, unknown> }[] })
      .docs;
    return docs.map((d) =>
      d.found && d._source && d._source.token != null && Number(d._source.expiresAt) > Date.now()
        ? String(d._source.share)
        : undefined,
    );
  } catch {
    return Array.from({ length: shards }, () => undefined);
  }
}

/** Shards held per member, for the members given (by their pid in the share words' member id). */
export function sharesByPid(held: readonly (string | undefined)[], pids: readonly number[]): number[] {
  return pids.map(
    (pid) => held.filter((h) => h !== undefined && new RegExp(`-${pid}-[0-9a-f]+$`).test(h)).length,
  );
}

/** Fair: every shard held, by the given pids only, each within one of the others. */
export function fair(held: readonly (string | undefined)[], pids: readonly number[]): boolean {
  const counts = sharesByPid(held, pids);
  const sum = counts.reduce((a, b) => a + b, 0);
  return sum === held.length && Math.max(...counts) - Math.min(...counts) <= 1;
}

/** URLs of the status index with status FETCHED. */
export async function fetchedCount(client: Client, statusIndex: string): Promise<number> {
  try {
    await client.indices.refresh({ index: statusIndex });
    const res = await client.count({ index: statusIndex, body: { query: { term: { status: 'FETCHED' } } } });
    return Number(res.body.count);
  } catch {
    return 0;
  }
}

/**
 * Pairs of requests for one host closer than `ms` (start to start) from two different clients
 * (`by`: the machine of a request; without it, any two), from the web's own log. The crawl delay is
 * from the end of one fetch to the start of the next, so any two polite fetches are `ms` apart.
 */
export function impoliteFetches(
  site: Site,
  ms: number,
  by?: (r: { from: string; userAgent: string }) => string,
): string[] {
  const who = (r: { from: string; userAgent: string }) => (by ? by(r) : 'a client');
  const out: string[] = [];
  for (const [host, h] of site.hosts) {
    const pages = h.requests.filter((r) => r.path !== '/robots.txt').sort((a, b) => a.at - b.at);
    for (let i = 1; i < pages.length; i++) {
      const a = pages[i - 1]!;
      const b = pages[i]!;
      if ((by === undefined || by(a) !== by(b)) && b.at - a.at < ms)
        out.push(`${host}: ${a.path} by ${who(a)} and ${b.path} by ${who(b)} ${b.at - a.at} ms apart`);
    }
  }
  return out;
}

/** Pages of the web requested more than once within `ms` by different clients. */
export function fetchedTwiceWithin(
  site: Site,
  ms: number,
  by: (r: { from: string; userAgent: string }) => string,
): string[] {
  const out: string[] = [];
  for (const [host, h] of site.hosts) {
    const seen = new Map<string, { at: number; who: string }>();
    for (const r of [...h.requests].sort((a, b) => a.at - b.at)) {
      const prev = seen.get(r.path);
      if (prev && prev.who !== by(r) && r.at - prev.at < ms)
        out.push(`${host}${r.path} by ${prev.who} and ${by(r)} ${r.at - prev.at} ms apart`);
      seen.set(r.path, { at: r.at, who: by(r) });
    }
  }
  return out;
}

/** True while a spawned member has neither exited nor been killed. */
export const alive = (c: Child): boolean => c.proc.exitCode === null && c.proc.signalCode === null;

/**
 * The end of an elastic-crawl test: each member's stderr into ELASTIC_TEST_LOGS (when set, for a
 * look after a failure), members still running killed, the test web and client closed, the crawl's
 * indices deleted (status, content, transitions, leases).
 */
export async function endMembers(t: {
  children: readonly Child[];
  logPrefix: string;
  site: Site;
  client: Client;
  names: { status: string; content: string };
  leases: string;
}): Promise<void> {
  const dir = process.env.ELASTIC_TEST_LOGS;
  if (dir)
    for (const c of t.children)
      writeFileSync(join(dir, `${t.logPrefix}-${c.proc.pid}.log`), c.stderr.join('\n'));
  for (const c of t.children) if (alive(c)) c.proc.kill('SIGKILL');
  await t.site.close();
  await t.client.close();
  await deleteIndices(
    t.names.status,
    t.names.content,
    `${t.names.content.replace(/-content$/, '')}-transitions`,
    t.leases,
  );
}
