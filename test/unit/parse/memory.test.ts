import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import type { ParseResult } from '../../../src/parse/types.js';
import { parse } from './support.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

describe('strings that leave the parser are copies', () => {
  it('results of 40 pages of 1 MB retain far less than the pages', () => {
    const page = (i: number) =>
      `<html><head><title>Page ${i} title</title><meta name="description" content="about page ${i}">` +
      `<link rel="canonical" href="/canonical/${i}"></head><body><p>${`filler ${i} `.repeat(110_000)}</p>` +
      `<a href="/next/${i}">next page ${i}</a></body></html>`;
    gc();
    const before = process.memoryUsage().heapUsed;
    const kept: ParseResult[] = [];
    for (let i = 0; i < 40; i++) {
      kept.push(
        parse('https://mem.test/', page(i), undefined, { config: { 'textextractor.skip.after': 100 } }),
      );
    }
    gc();
    const retained = process.memoryUsage().heapUsed - before;
    expect(kept.every((r) => r.kind === 'parsed' && r.outlinks.length === 1)).toBe(true);
    // 40 pages are ~45 MB of one-byte strings; what is kept is a few KB each.
    expect(retained).toBeLessThan(8_000_000);
  });
});
