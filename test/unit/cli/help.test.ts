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
    expect(r.out).toMatch(/^ {2}init {4}create the status and content indices/m);
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
