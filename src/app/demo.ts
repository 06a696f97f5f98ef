import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Client } from '@opensearch-project/opensearch';
import { parse } from 'yaml';
import type { Config } from '../config/schema.js';
import { KEYS } from '../config/schema.js';
import type { TransitionRecord } from '../model/transition.js';
import { ensureIndices, planIndices } from '../opensearch/indices.js';
import { TIKA_SCRIPT } from '../tika/service.js';
import { OffsetClock } from '../util/clock.js';
import type { Logger } from '../util/log.js';
import { buildCrawl } from './compose.js';

/** The simulated minutes at which the demo crawls: the default intervals make each round differ. */
export const DEMO_ROUNDS = [0, 121, 242, 1441] as const;

/**
 * The demo's indices, in a config file any command takes (`--conf conf/demo.yaml`): one option
 * points stats, url and the rest at the demo's crawl, every index at once.
 */
export const DEMO_CONF = fileURLToPath(new URL('../../conf/demo.yaml', import.meta.url));
const DEMO_INDICES = parse(readFileSync(DEMO_CONF, 'utf8')) as Record<string, string>;

/** The settings the demo runs with, over the user's: its own indices and a fast, local crawl. */
export const DEMO_SETTINGS: Record<string, unknown> = {
  ...DEMO_INDICES,
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
  // The table shows each page's title (the PDF's, as Tika read it).
  'metadata.persist': [...KEYS['metadata.persist'].default, 'parse.title'],
  // The demo's feed is fetched again each round (a rule per status: a new feed is due at once).
  'fetchInterval.FETCHED.isFeed=true': 120,
};

/** The demo site's PDF (made by LibreOffice: test/fixtures/documents/make.sh). */
const DEMO_PDF = new URL('../../scripts/demo/report.pdf', import.meta.url);

/** The demo site's RSS feed, announced by the home page's <link rel="alternate">. */
const DEMO_FEED =
  '<?xml version="1.0" encoding="utf-8"?><rss version="2.0"><channel><title>Demo news</title><link>/</link>' +
  '<item><title>The bridge is open</title><link>/news</link><pubDate>Sun, 01 Jun 2025 08:30:00 GMT</pubDate>' +
  '<description>&lt;p&gt;Open again, two weeks early.&lt;/p&gt;</description></item></channel></rss>';

/**
 * The built-in site: a good page, a 404, a page that fails twice with 503 and then recovers, a
 * redirect, a path robots.txt forbids, a page slower than http.timeout, an RSS feed of one story
 * and a PDF (read by Tika).
 */
export async function startDemoSite(): Promise<{ origin: string; server: Server }> {
  const hits = new Map<string, number>();
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    const n = hits.get(path) ?? 0;
    hits.set(path, n + 1);
    const html = (title: string, body = '', head = '') =>
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(
          `<!doctype html><html><head><title>${title}</title>${head}</head><body><h1>${title}</h1>${body}</body></html>`,
        );
    switch (path) {
      case '/robots.txt':
        return void res
          .writeHead(200, { 'content-type': 'text/plain' })
          .end('User-agent: *\nDisallow: /private\n');
      case '/':
        return html(
          'Demo home',
          ['/good', '/missing', '/flaky', '/moved', '/private/secret', '/slow', '/report.pdf']
            .map((l) => `<a href="${l}">${l}</a>`)
            .join(' '),
          '<link rel="alternate" type="application/rss+xml" href="/feed.xml">',
        );
      case '/feed.xml':
        return void res.writeHead(200, { 'content-type': 'application/rss+xml' }).end(DEMO_FEED);
      case '/news':
        return html('Harbour news', '<p>The bridge is open again.</p>');
      case '/good':
        return html('A good page', '<p>Some text worth indexing.</p>');
      case '/flaky':
        return n < 2 ? void res.writeHead(503).end('busy') : html('Flaky, now fine');
      case '/moved':
        return void res.writeHead(301, { location: '/good' }).end();
      case '/slow':
        return void setTimeout(() => html('Too late'), 3000);
      case '/report.pdf':
        return void res.writeHead(200, { 'content-type': 'application/pdf' }).end(readFileSync(DEMO_PDF));
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
  /** The page's title (parse.title), when it has one. */
  readonly title?: string;
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
      kept: Object.entries(r.metadata)
        .map(([k, v]) => (SHOWN.has(k) ? `${k}=${v.join('|')}` : k))
        .join(', '),
      ...(r.metadata['parse.title']?.[0] ? { title: r.metadata['parse.title'][0] } : {}),
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

/** Kept keys whose value the table shows, not only their name. */
const SHOWN = new Set(['isFeed']);

/** The table fits a terminal this wide; metadata lists wrap onto lines of their own. */
export const DEMO_TABLE_WIDTH = 120;

/** Words of a list, greedily packed into lines of at most `width` characters after `indent`. */
function wrap(label: string, items: readonly string[], indent: string, width: number): string[] {
  const lines: string[] = [];
  let line = `${indent}${label}`;
  items.forEach((item, i) => {
    const word = `${item}${i < items.length - 1 ? ',' : ''}`;
    const sep = line.endsWith(': ') ? '' : ' ';
    if (line.length + sep.length + word.length > width && line.trim() !== label.trim()) {
      lines.push(line);
      line = `${indent}${' '.repeat(label.length)}${word}`;
    } else {
      line += sep + word;
    }
  });
  lines.push(line);
  // A single item longer than the width is cut rather than overflowing.
  return lines.map((l) => (l.length > width ? `${l.slice(0, width - 3)}...` : l));
}

/**
 * The transitions as a table: one row per transition (minute, url, old and new status, next fetch,
 * reason), and under it the page's title and the metadata kept, wrapped to DEMO_TABLE_WIDTH
 * columns, each shown when it is new for that URL. What the persist filter left out is not listed:
 * it is what fetching and parsing found (HTTP and Tika fields, fingerprints), not for a person.
 */
export function formatDemoTable(rows: readonly DemoRow[], width = DEMO_TABLE_WIDTH): string[] {
  const head = ['min', 'url', 'old', 'new', 'next fetch', 'reason'];
  const cells = (r: DemoRow) => [String(r.minute), r.path, r.from, r.to, r.next, r.reason];
  const all = [head, ...rows.map(cells)];
  const widths = head.map((_, i) => Math.max(...all.map((c) => c[i]!.length)));
  const line = (c: readonly string[]) => {
    const text = c
      .map((v, i) => v.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
    return text.length > width ? `${text.slice(0, width - 3)}...` : text;
  };
  const indent = ' '.repeat(widths[0]! + 2);
  const out = [
    line(head),
    ...wrap(
      'kept: ',
      ['metadata stored in the status index (metadata.persist), shown when it changes'],
      indent,
      width,
    ),
  ];
  const before = new Map<string, DemoRow>();
  for (const r of rows) {
    out.push(line(cells(r)));
    const last = before.get(r.path);
    before.set(r.path, r);
    if (r.title && r.title !== last?.title) out.push(...wrap('title: ', [r.title], indent, width));
    if (r.kept !== '' && r.kept !== last?.kept)
      out.push(...wrap('kept: ', r.kept.split(', '), indent, width));
  }
  return out;
}

/**
 * Which Apache Tika the demo's PDF goes to, in lines of a sentence each: tika.server.url, or the
 * embedded server's port as `scripts/tika status` finds it: this checkout's (running, or started by
 * the crawl when it meets the PDF), or one another checkout started, named by its home. `env` is
 * the crawl's (TIKA_HOME says which checkout's servers are "this checkout's").
 */
export async function describeTika(cfg: Config, env = process.env): Promise<string[]> {
  const external = cfg['tika.server.url'];
  if (external) return [`Its PDF goes to the Tika server at ${external} (tika.server.url).`];
  const port = cfg['tika.embedded.port'];
  const status = await promisify(execFile)(TIKA_SCRIPT, ['status'], {
    env: { ...env, TIKA_PORT: String(port) },
    timeout: 30_000,
  }).then(
    (r) => r.stdout.trim(),
    (e: { stdout?: string }) => (e.stdout ?? '').trim(),
  );
  const mine = /^running (\S+) (.+) \(pid ([\d ]+), home (.+)\)$/.exec(status);
  if (mine)
    return [
      `Its PDF goes to this checkout's Tika, already running at ${mine[1]} (${mine[2]}, pid ${mine[3]});`,
      'it keeps running after the demo: scripts/tika stop ends it.',
    ];
  const other = /^running (\S+) (.+) \(not started from [^;]+(?:; started from (.+))?\)$/.exec(status);
  if (other)
    return [
      `Its PDF goes to a Tika this checkout did not start, already running at ${other[1]} (${other[2]}),`,
      other[3] ? `started from ${other[3]}.` : 'not started by any scripts/tika.',
      `For one of the demo's own, give a free port: --set tika.embedded.port=PORT (now ${port}).`,
    ];
  return [
    `Its PDF goes to this checkout's Tika (scripts/tika start, 127.0.0.1:${port}), started when the crawl meets`,
    'the PDF; it keeps running after the demo: scripts/tika stop ends it.',
  ];
}
