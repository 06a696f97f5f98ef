import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeTika } from '../../../src/app/demo.js';
import { buildConfig } from '../../../src/config/load.js';
import { buildCli, spawnCrawler } from '../../support/child.js';
import { crawler } from '../../support/crawl.js';
import { deleteIndices, opensearchUrl } from '../../support/opensearch.js';
import { freePort } from '../../support/prometheus.js';
import { sharedTika } from '../../support/tika.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
let tika: string;
beforeAll(async () => {
  buildCli();
  tika = await sharedTika();
}, 240_000);
afterAll(() => deleteIndices('demo-status', 'demo-content', 'demo-transitions'));

describe('crawler demo', () => {
  it('crawls the built-in site in four simulated rounds and prints each transition', async () => {
    const r = await crawler(
      'demo',
      '--set',
      `opensearch.addresses=${opensearchUrl()}`,
      '--set',
      `tika.server.url=${tika}`,
    );
    expect(r.err).toEqual([]);
    expect(r.code).toBe(0);
    expect(r.out.join('\n')).toContain('Spout (buffer, in-flight set, purgatory');
    // Rows: minute, url, old, new, next fetch, reason (columns split on two or more spaces).
    const rows = r.out.filter((l) => /^\d+ +\//.test(l)).map((l) => l.split(/ {2,}/).slice(0, 6).join(' | '));
    const of = (path: string) => rows.filter((row) => row.split(' | ')[1] === path);
    expect(of('/missing')).toEqual([
      '0 | /missing | - | DISCOVERED | +0 min | discovered',
      '0 | /missing | DISCOVERED | FETCH_ERROR | +120 min | HTTP 404',
      '121 | /missing | FETCH_ERROR | FETCH_ERROR | +120 min | HTTP 404',
      '242 | /missing | FETCH_ERROR | ERROR | never | maxFetchErrors: HTTP 404',
    ]);
    expect(of('/flaky').slice(1)).toEqual([
      '0 | /flaky | DISCOVERED | FETCH_ERROR | +120 min | HTTP 503',
      '121 | /flaky | FETCH_ERROR | FETCH_ERROR | +120 min | HTTP 503',
      '242 | /flaky | FETCH_ERROR | FETCHED | +1440 min | HTTP 200',
    ]);
    expect(of('/slow').at(-1)).toBe(
      '242 | /slow | FETCH_ERROR | ERROR | never | maxFetchErrors: Socket timeout fetching',
    );
    expect(of('/private/secret').at(-1)).toBe(
      '0 | /private/secret | DISCOVERED | ERROR | never | robots.txt',
    );
    expect(of('/moved').map((row) => row.split(' | ')[3])).toEqual([
      'DISCOVERED',
      'REDIRECTION',
      'REDIRECTION',
    ]);
    expect(of('/good').at(-1)).toBe('1441 | /good | FETCHED | FETCHED | +1440 min | HTTP 200');
    // The PDF, read by Tika: its row, then the title Tika extracted.
    const pdf = r.out.findIndex((l) => /^0 +\/report\.pdf +DISCOVERED +FETCHED /.test(l));
    expect(pdf).toBeGreaterThan(0);
    expect(r.out[pdf + 1]!.trim()).toBe('title: Annual Report on Crawling');
    expect(r.out).toContain(`Its PDF goes to the Tika server at ${tika} (tika.server.url).`);
    // What a person reads: no list of what the persist filter left out (Tika's parse.pdf:* fields
    // and the like), and a URL's title and kept metadata shown when they change, not at each fetch.
    expect(r.out.filter((l) => /dropped|parse\.pdf:|X-TIKA/.test(l))).toEqual([]);
    expect(r.out.filter((l) => l.trim() === 'title: Annual Report on Crawling')).toHaveLength(1);
    const refetched = r.out.findIndex((l) => /^1441 +\/report\.pdf +FETCHED +FETCHED /.test(l));
    expect(refetched).toBeGreaterThan(pdf);
    expect(r.out[refetched + 1] ?? '').not.toMatch(/^ +(title|kept): /);
    // The feed the home page announces is fetched each round under its isFeed rule; its story is found.
    expect(of('/feed.xml').slice(1, 3)).toEqual([
      '0 | /feed.xml | DISCOVERED | FETCHED | +120 min | HTTP 200',
      '121 | /feed.xml | FETCHED | FETCHED | +120 min | HTTP 200',
    ]);
    // (its kept metadata shows once, when discovered: fetching it keeps the same)
    const feedRow = r.out.findIndex((l) => /^0 +\/feed\.xml +- +DISCOVERED/.test(l));
    expect(r.out[feedRow + 1]).toMatch(/kept: .*isFeed=true/);
    expect(of('/news')[1]).toBe('0 | /news | DISCOVERED | FETCHED | +1440 min | HTTP 200');
    expect(r.out.some((l) => l.startsWith('Where to look next'))).toBe(true);
  }, 120_000);

  it("says whose Tika reads the PDF: this checkout's, one another checkout started (named by its home), or one it will start", async () => {
    const port = Number(new URL(tika).port);
    const cfg = (over: Record<string, unknown>) =>
      buildConfig([{ source: 'test', entries: { 'tika.server.url': '', ...over } }]).config;
    const mine = await describeTika(cfg({ 'tika.embedded.port': port }));
    expect(mine.join(' ')).toMatch(
      new RegExp(
        `^Its PDF goes to this checkout's Tika, already running at ${tika} \\(Apache Tika [\\d.]+, pid \\d+\\);`,
      ),
    );
    // The same server seen from another checkout (another TIKA_HOME): not its own, and whose it is.
    const elsewhere = mkdtempSync(join(tmpdir(), 'other-checkout-'));
    try {
      const other = await describeTika(cfg({ 'tika.embedded.port': port }), {
        ...process.env,
        TIKA_HOME: elsewhere,
      });
      expect(other[0]).toBe(
        `Its PDF goes to a Tika this checkout did not start, already running at ${tika} (${/\(([^,]+),/.exec(mine[0]!)![1]}),`,
      );
      expect(other[1]).toBe(`started from ${join(ROOT, '.tika')}/server-${port}.`);
      expect(other[2]).toContain('--set tika.embedded.port=PORT');
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
    const free = await freePort();
    expect((await describeTika(cfg({ 'tika.embedded.port': free }))).join(' ')).toBe(
      `Its PDF goes to this checkout's Tika (scripts/tika start, 127.0.0.1:${free}), started when the crawl meets ` +
        'the PDF; it keeps running after the demo: scripts/tika stop ends it.',
    );
    expect(await describeTika(cfg({ 'tika.server.url': tika }))).toEqual([
      `Its PDF goes to the Tika server at ${tika} (tika.server.url).`,
    ]);
  }, 120_000);

  it('as a process: fits 120 columns, no log lines on a non-terminal stderr, follow-ups that work as printed', async () => {
    const child = spawnCrawler([
      'demo',
      '--set',
      `opensearch.addresses=${opensearchUrl()}`,
      '--set',
      'http.agent.description=my demo',
      '--set',
      `tika.server.url=${tika}`,
    ]);
    expect(await child.exited).toBe(0);
    expect(child.stderr).toEqual([]);
    const wide = child.stdout.filter((l) => l.length > 120);
    expect(wide).toEqual([]);
    // Each suggested command, its continuation lines joined: as printed, and in shell words.
    const next = child.stdout.slice(child.stdout.findIndex((l) => l.startsWith('Where to look next')) + 1);
    const printed: string[] = [];
    let current = '';
    for (const l of next) {
      if (!l.trimStart().startsWith('npx crawler ') && current === '') continue;
      current += ` ${l.trim().replace(/ \\$/, '')}`;
      if (!l.endsWith('\\')) {
        printed.push(current.trim());
        current = '';
      }
    }
    const commands = printed.map((p) => [...p.matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2]!));
    expect(commands.map((c) => c.slice(0, 3).join(' '))).toEqual([
      'npx crawler stats',
      'npx crawler url',
      'npx crawler url',
    ]);
    for (const c of commands) {
      // One option points the command at every index of the demo.
      expect(c.join(' ')).toContain('--conf conf/demo.yaml');
      expect(c).toContain(`opensearch.addresses=${opensearchUrl()}`);
      expect(c).toContain('http.agent.description=my demo');
    }
    const stats = await crawler(...commands[0]!.slice(2));
    expect(stats.code).toBe(0);
    expect(stats.out[0]).toMatch(/^URLs: \d+$/);
    const missing = await crawler(...commands[1]!.slice(2));
    expect(missing.code).toBe(0);
    expect(missing.out.join('\n')).toMatch(/status ERROR/);
    expect(missing.out).toContain(
      '  why ERROR: 3 fetch errors in a row (max.fetch.errors); last fetch answered HTTP 404; ended by fetching',
    );
    // Its transitions come from demo-transitions, its content line names demo-content.
    expect(missing.out).toContain('  transitions:');
    expect(missing.out).toContain('  content: not in the content index "demo-content"');
    // The last, run by a shell exactly as printed (npx included): the demo's page, from demo-content.
    const { stdout } = await run('sh', ['-c', printed[2]!], {
      cwd: ROOT,
      env: { ...process.env, LOG_FORMAT: 'json' },
      timeout: 240_000,
    });
    expect(stdout).toContain('Some text worth indexing.');
  }, 300_000);
});
