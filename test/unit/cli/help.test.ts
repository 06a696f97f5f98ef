import { describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/run.js';

async function crawler(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('crawler --help', () => {
  it('lists the commands and global options', async () => {
    const r = await crawler('--help');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^ {2}init +create the status and content indices/m);
    for (const c of ['inject', 'run', 'stats', 'reset-errors', 'topology', 'config']) {
      expect(r.out).toMatch(new RegExp(`^ {2}${c} +\\w`, 'm'));
    }
    expect(r.out).toMatch(/--conf FILE/);
    expect(r.out).toMatch(/--set KEY=VALUE/);
  });

  it('crawler init --help lists its own options and the global ones', async () => {
    const r = await crawler('init', '--help');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/Usage: crawler init/);
    expect(r.out).toMatch(/--recreate/);
    expect(r.out).toMatch(/--conf FILE/);
  });

  it("crawler --help and each command's --help document the exit codes", async () => {
    for (const args of [['--help'], ['stats', '--help'], ['run', '--help']]) {
      const r = await crawler(...args);
      expect(r.code).toBe(0);
      expect(r.out).toMatch(/^Exit codes:$/m);
      for (const code of ['0', '1', '2', '3', '4', '130'])
        expect(r.out).toMatch(new RegExp(`^ {2}${code} +\\w`, 'm'));
    }
  });

  it('an unknown command or option is refused with a hint', async () => {
    expect(await crawler('crawl')).toMatchObject({
      code: 2,
      err: expect.stringMatching(/unknown command "crawl"/),
    });
    expect(await crawler('init', '--bogus')).toMatchObject({
      code: 2,
      err: expect.stringMatching(/Unknown option '--bogus'.*crawler init --help/),
    });
  });

  it('a bad --set value stops with the key, the value and the expected type', async () => {
    const r = await crawler('config', '--set', 'max.fetch.errors=abc');
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      'crawler config: --set: key "max.fetch.errors" has value "abc" (string); expected an integer',
    );
  });
});

describe('crawler run start-up checks', () => {
  it('refuses to crawl without http.agent.name, in one line, before touching the cluster', async () => {
    const r = await crawler('run', '--once', '--set', 'opensearch.addresses=http://127.0.0.1:1');
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      'crawler run: key "http.agent.name" is required to crawl: set it to your crawler\'s name (letters, "_" and "-" only)',
    );
  });

  it('refuses an agent name that is not an RFC 9309 product token', async () => {
    const r = await crawler('run', '--set', 'http.agent.name=my bot 2');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/key "http.agent.name" has value "my bot 2"; expected letters/);
  });

  it('refuses --instance outside 0..M-1', async () => {
    const r = await crawler('run', '--set', 'http.agent.name=bot', '--instances', '2', '--instance', '2');
    expect(r.code).toBe(3);
    expect(r.err).toMatch(/--instance must be between 0 and 1, got 2/);
  });
});

describe('validation at the door', () => {
  it('--log-level and LOG_LEVEL are checked: exit 2, listing the levels', async () => {
    const r = await crawler('stats', '--log-level', 'verbose');
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      'crawler stats: --log-level "verbose" is not a log level; use one of trace, debug, info, warn, error, silent',
    );
    const before = process.env.LOG_LEVEL;
    process.env.LOG_LEVEL = 'loud';
    try {
      const env = await crawler('config');
      expect(env.code).toBe(2);
      expect(env.err).toMatch(/^crawler config: LOG_LEVEL "loud" is not a log level; use one of trace/);
      // The option wins over the environment.
      expect((await crawler('config', '--log-level', 'silent')).code).toBe(0);
    } finally {
      if (before === undefined) delete process.env.LOG_LEVEL;
      else process.env.LOG_LEVEL = before;
    }
  });

  it('crawler config checks what crawler run checks: a bad agent name is exit 2 after the listing', async () => {
    const r = await crawler('config', '--set', 'http.agent.name=r5bot', '--log-level', 'silent');
    expect(r.code).toBe(2);
    expect(r.out).toMatch(/^http\.agent\.name +"r5bot" +\(--set\)$/m);
    expect(r.err).toMatch(/key "http.agent.name" has value "r5bot"; expected letters, "_" and "-" only/);
    const run = await crawler('run', '--set', 'http.agent.name=r5bot');
    expect(run.code).toBe(2);
    expect(run.err).toBe(r.err.replace('crawler config', 'crawler run'));
    // Without a name the listing is still useful: only a warning, exit 0.
    expect((await crawler('config', '--log-level', 'silent')).code).toBe(0);
    expect((await crawler('config', '--set', 'fetcher.maxThreads.[=2', '--log-level', 'silent')).code).toBe(
      2,
    );
  });
});
