import { describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/run.js';

async function crawler(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out, err };
}

describe('a command given arguments it cannot use', () => {
  it.each([
    [['inject'], /^crawler inject: usage: crawler inject FILE\|-/],
    [['inject', 'a.txt', 'b.txt'], /^crawler inject: usage: crawler inject FILE\|-/],
    [['url'], /^crawler url: usage: crawler url URL$/],
  ])('crawler %j prints its usage in one line on stderr and exits 2', async (args, line) => {
    const r = await crawler(...args);
    expect(r.code).toBe(2);
    expect(r.out).toEqual([]);
    expect(r.err).toEqual([expect.stringMatching(line)]);
  });
});
