import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli } from '../../support/child.js';
import { fastCrawlSettings, writeConf } from '../../support/crawl.js';
import { deleteIndices, uniqueIndexNames } from '../../support/opensearch.js';
import { page, Site } from '../../support/site.js';

// On a terminal a person reads the log: at --log-level debug, one short line per transition, not a
// pretty-printed object (at info the live status line stands for them: status-line.test.ts).
// util-linux `script` gives the crawler a pseudo-terminal as its stdout and stderr.

const run = promisify(execFile);
const CLI = fileURLToPath(new URL('../../../dist/cli/main.js', import.meta.url));
const names = uniqueIndexNames('tty');
const site = new Site();
const H = '127.0.0.8';

beforeAll(async () => {
  buildCli();
  await site.start([H]);
  site.route(H, '/', page('Home', ['/a', '/b', '/c', '/d', '/e', '/f', '/g']));
  for (const p of ['/a', '/b', '/c', '/d', '/e', '/f', '/g']) site.route(H, p, page(p));
}, 120_000);

/**
 * What a terminal of `cols` columns shows of `crawler <args>`: each line's text after its last
 * carriage return (the live status line is rewritten in place), erase escapes removed.
 */
async function onTerminal(cols: number, args: string): Promise<string[]> {
  const cmd = `stty cols ${cols}; ${process.execPath} ${CLI} ${args}`;
  const env: Record<string, string | undefined> = { ...process.env };
  delete env.LOG_FORMAT;
  const { stdout } = await run('script', ['-qefc', cmd, '/dev/null'], { env, timeout: 90_000 });
  return stdout
    .split(/\r?\n/)
    .map((l) => (l.split('\r').at(-1) ?? '').replace(/\x1b\[K/g, ''))
    .filter((l) => l.trim() !== '');
}

afterAll(async () => {
  await site.close();
  await deleteIndices(names.status, names.content);
});

describe('crawler run on a terminal', () => {
  it('at --log-level debug prints one line per transition (time, old -> new, URL, reason, next fetch)', async () => {
    const conf = writeConf(fastCrawlSettings(names));
    // A wide terminal: lines are cut to its width.
    const lines = await onTerminal(
      160,
      `run --once --conf ${conf} --log-level debug --seed ${site.origin(H)}/`,
    );
    const transitions = lines.filter((l) => / -> [A-Z_]+ {2}http/.test(l));
    // 8 pages fetched and 7 links discovered: 16 transitions (the seed's DISCOVERED included).
    expect(transitions.length).toBe(16);
    for (const t of transitions)
      expect(t).toMatch(/^\d\d:\d\d:\d\d INFO {2}(-|[A-Z_]+) -> [A-Z_]+ {2}http\S+ {2}\(.+\) {2}next /);
    expect(lines.length).toBeLessThan(40);
    expect(lines.some((l) => l.trim().startsWith('{'))).toBe(false);
  }, 120_000);

  it('on 80 columns, the refusal of a loopback seed and what to do next fit, uncut', async () => {
    const refusedNames = uniqueIndexNames('tty-refused');
    const { 'http.filter.ipaddress.exclude': _, ...settings } = fastCrawlSettings(refusedNames);
    const conf = writeConf(settings);
    try {
      const lines = await onTerminal(80, `run --once --conf ${conf} --seed ${site.origin(H)}/`);
      const refusal = lines.find((l) => l.includes(' refused: '));
      expect(refusal, lines.join('\n')).toMatch(
        new RegExp(
          `^\\d\\d:\\d\\d:\\d\\d WARN {2}${H.replaceAll('.', '\\.')} refused: --set http\\.filter\\.ipaddress\\.allow=${H.replaceAll('.', '\\.')}$`,
        ),
      );
      expect(refusal!.length).toBeLessThanOrEqual(80);
      expect(lines).toContainEqual(
        expect.stringContaining('every URL was refused by its address: run again with --set'),
      );
      expect(lines.join('\n')).not.toContain('…');
    } finally {
      await deleteIndices(refusedNames.status, refusedNames.content);
    }
  }, 120_000);
});
