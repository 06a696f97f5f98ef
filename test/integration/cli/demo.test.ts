import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli, spawnCrawler } from '../../support/child.js';
import { crawler } from '../../support/crawl.js';
import { deleteIndices, opensearchUrl } from '../../support/opensearch.js';
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
    expect(r.out).toContain(`Its PDF goes to Apache Tika: ${tika}.`);
    // The feed the home page announces is fetched each round under its isFeed rule; its story is found.
    expect(of('/feed.xml').slice(1, 3)).toEqual([
      '0 | /feed.xml | DISCOVERED | FETCHED | +120 min | HTTP 200',
      '121 | /feed.xml | FETCHED | FETCHED | +120 min | HTTP 200',
    ]);
    const feedRow = r.out.findIndex((l) => /^0 +\/feed\.xml +DISCOVERED +FETCHED/.test(l));
    expect(r.out[feedRow + 1]).toMatch(/kept: .*isFeed=true/);
    expect(of('/news')[1]).toBe('0 | /news | DISCOVERED | FETCHED | +1440 min | HTTP 200');
    expect(r.out.some((l) => l.startsWith('Where to look next'))).toBe(true);
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
