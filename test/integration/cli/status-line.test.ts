import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli } from '../../support/child.js';
import { fastCrawlSettings, writeConf } from '../../support/crawl.js';
import { deleteIndices, uniqueIndexNames } from '../../support/opensearch.js';
import { freePort } from '../../support/prometheus.js';
import { page, robots, Site } from '../../support/site.js';

// On a terminal `crawler run` keeps one live status line, rewritten in place, and prints lines only
// for what needs a person: a crawl of a few hundred pages fits on one screen. util-linux `script`
// gives the crawler a pseudo-terminal of 100 columns.

const run = promisify(execFile);
const ARTIFACTS = fileURLToPath(new URL('../../../test-artifacts/', import.meta.url));
const CLI = fileURLToPath(new URL('../../../dist/cli/main.js', import.meta.url));
const names = uniqueIndexNames('statusline');
const site = new Site();
const HOSTS = ['127.0.9.1', '127.0.9.2', '127.0.9.3'];
const PAGES = 100;
const COLUMNS = 100;

beforeAll(async () => {
  buildCli();
  await site.start(HOSTS);
  for (const host of HOSTS) {
    site.route(host, '/robots.txt', robots('User-agent: *\nAllow: /\n'));
    for (let i = 0; i < PAGES; i++) {
      const links = [1, 2, 3].map((k) => `/p${(i + k) % PAGES}`);
      site.route(host, `/p${i}`, page(`${host} page ${i}`, links));
    }
  }
}, 120_000);

afterAll(async () => {
  await site.close();
  await deleteIndices(names.status, names.content, `${names.status}-m-*`);
});

/**
 * What a terminal shows of each line: the text after its last carriage return, escapes removed
 * (the pseudo-terminal ends every line with \r\n).
 */
const visible = (line: string) => (line.replace(/\r$/, '').split('\r').at(-1) ?? '').replace(/\x1b\[K/g, '');

describe('crawler run on a terminal', () => {
  it('shows a screenful for a crawl of a few hundred pages: a live status line, no line per URL', async () => {
    const port = await freePort();
    const conf = writeConf({
      ...fastCrawlSettings(names),
      // A busy machine answers loopback pages slowly: no page may time out.
      'http.timeout': 30_000,
      'opensearch.metrics.index.name': `${names.status}-m`,
      'console.port': port,
    });
    const seeds = HOSTS.map((h) => `--seed ${site.origin(h)}/p0`).join(' ');
    const cmd = `stty cols ${COLUMNS} rows 30; ${process.execPath} ${CLI} run --once --conf ${conf} ${seeds}`;
    const env: Record<string, string | undefined> = { ...process.env };
    delete env.LOG_FORMAT;
    const { stdout } = await run('script', ['-qefc', cmd, '/dev/null'], { env, timeout: 180_000 });
    const lines = stdout.split('\n');
    const shown = lines.map(visible).filter((l) => l.trim() !== '');
    // What the terminal ended up showing, kept beside the console's screenshot.
    mkdirSync(ARTIFACTS, { recursive: true });
    writeFileSync(join(ARTIFACTS, 'terminal.txt'), `${shown.join('\n')}\n`);
    // Every page, some maybe twice (spout.ttl.purgatory is 2 s here, and the machine is shared).
    expect(Number(/^fetched (\d+) pages/.exec(shown.at(-1) ?? '')?.[1])).toBeGreaterThanOrEqual(
      HOSTS.length * PAGES,
    );
    // One screen: the start-up lines, the console's address, the summary and the outcome.
    expect(shown.length, shown.join('\n')).toBeLessThanOrEqual(24);
    expect(shown.some((l) => l.includes(`console: http://127.0.0.1:${port}/?token=`))).toBe(true);
    expect(shown.filter((l) => / -> [A-Z_]+ {2}http/.test(l))).toEqual([]);
    // The live line was drawn again and again in place, never wider than the terminal.
    const statuses = stdout
      .split(/[\r\n]/)
      .map((s) => s.replace(/\x1b\[K/g, ''))
      .filter((s) => s.includes(' pages/s (avg '));
    expect(statuses.length).toBeGreaterThan(2);
    for (const s of statuses) expect(s.length).toBeLessThan(COLUMNS);
    expect(statuses.some((s) => /fetched [1-9]/.test(s))).toBe(true);
  }, 240_000);
});
