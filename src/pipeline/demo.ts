import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Client } from '@opensearch-project/opensearch';
import type { Config } from '../config/schema.js';
import type { TransitionRecord } from '../model/transition.js';
import { ensureIndices, planIndices } from '../opensearch/indices.js';
import { OffsetClock } from '../util/clock.js';
import type { Logger } from '../util/log.js';
import { buildCrawl } from './compose.js';

/** The simulated minutes at which the demo crawls: the default intervals make each round differ. */
export const DEMO_ROUNDS = [0, 121, 242, 1441] as const;

/** The settings the demo runs with, over the user's: its own indices and a fast, local crawl. */
export const DEMO_SETTINGS: Record<string, unknown> = {
  'opensearch.status.index.name': 'demo-status',
  'opensearch.indexer.index.name': 'demo-content',
  'status.transitions.index.name': 'demo-transitions',
  'http.agent.name': 'crawler-demo',
  'http.filter.ipaddress.exclude': [],
  'http.timeout': 1000,
  'fetcher.server.delay': 0.1,
  'spout.min.delay.queries': 100,
  // Longer than a round: a URL written in a round never comes back in the same round, however long
  // the index takes to show its new state on a busy machine (each round has a new spout).
  'spout.ttl.purgatory': 3600,
  'opensearch.status.flushInterval': '200ms',
  'opensearch.indexer.flushInterval': '200ms',
  'status.transitions.log': false,
};

/**
 * The built-in site: a good page, a 404, a page that fails twice with 503 and then recovers, a
 * redirect, a path robots.txt forbids, and a page slower than http.timeout.
 */
export async function startDemoSite(): Promise<{ origin: string; server: Server }> {
  const hits = new Map<string, number>();
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    const n = hits.get(path) ?? 0;
    hits.set(path, n + 1);
    const html = (title: string, body = '') =>
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(
          `<!doctype html><html><head><title>${title}</title></head><body><h1>${title}</h1>${body}</body></html>`,
        );
    switch (path) {
      case '/robots.txt':
        return void res
          .writeHead(200, { 'content-type': 'text/plain' })
          .end('User-agent: *\nDisallow: /private\n');
      case '/':
        return html(
          'Demo home',
          ['/good', '/missing', '/flaky', '/moved', '/private/secret', '/slow']
            .map((l) => `<a href="${l}">${l}</a>`)
            .join(' '),
        );
      case '/good':
        return html('A good page', '<p>Some text worth indexing.</p>');
      case '/flaky':
        return n < 2 ? void res.writeHead(503).end('busy') : html('Flaky, now fine');
      case '/moved':
        return void res.writeHead(301, { location: '/good' }).end();
      case '/slow':
        return void setTimeout(() => html('Too late'), 3000);
      default:
        return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

export interface DemoRow {
  readonly minute: number;
  readonly path: string;
  readonly from: string;
  readonly to: string;
  /** "never", or minutes after the round's time. */
  readonly next: string;
  readonly reason: string;
  readonly kept: string;
  readonly dropped: string;
}

/**
 * Crawls the demo site round by round on a clock moved forward between rounds; returns the table.
 * Each round is a fresh crawl (`--once`) on the same indices, as a daemon restarted at that time.
 */
export async function runDemo(
  client: Client,
  config: Config,
  origin: string,
  log: Logger,
): Promise<DemoRow[]> {
  const clock = new OffsetClock();
  await ensureIndices(client, planIndices(config), { recreate: true });
  const rows: DemoRow[] = [];
  let minute = 0;
  const onTransition = (r: TransitionRecord) => {
    // Relative to when the update was applied, so that a slow machine shows the same minutes.
    const next =
      r.nextFetchDate === 'never'
        ? 'never'
        : `+${Math.round((Date.parse(r.nextFetchDate) - Date.parse(r.appliedAt)) / 60_000)} min`;
    rows.push({
      minute,
      path: r.url.startsWith(origin) ? r.url.slice(origin.length) : r.url,
      from: r.previousStatus ?? '-',
      to: r.status,
      next,
      reason: r.reason,
      kept: Object.keys(r.metadata).join(', '),
      dropped: r.dropped.filter((k) => !k.startsWith('protocol.')).join(', '),
    });
  };
  for (const at of DEMO_ROUNDS) {
    clock.advanceMinutes(at - minute);
    minute = at;
    const seeds = at === DEMO_ROUNDS[0] ? [`${origin}/`] : [];
    const crawl = await buildCrawl(config, { client, clock, log, onTransition, seeds });
    try {
      await crawl.crawler.run({ once: true });
    } finally {
      await crawl.close();
    }
  }
  return rows;
}

export function formatDemoTable(rows: readonly DemoRow[]): string[] {
  const head: DemoRow = {
    minute: 0,
    path: 'url',
    from: 'old',
    to: 'new',
    next: 'next fetch',
    reason: 'reason',
    kept: 'metadata kept',
    dropped: 'metadata dropped',
  };
  const cells = (r: DemoRow, h = false) => [
    h ? 'min' : String(r.minute),
    r.path,
    r.from,
    r.to,
    r.next,
    r.reason,
    r.kept,
    r.dropped,
  ];
  const all = [cells(head, true), ...rows.map((r) => cells(r))];
  const widths = all[0]!.map((_, i) => Math.max(...all.map((c) => c[i]!.length)));
  return all.map((c) =>
    c
      .map((v, i) => v.padEnd(widths[i]!))
      .join('  ')
      .trimEnd(),
  );
}
