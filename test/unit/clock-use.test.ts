import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root, tsFiles } from '../support/imports.js';

/*
 * One source of time (src/util/clock.ts): code reads a Clock it is handed, so that schedules, leases
 * and rates can be replayed in tests. Reading the machine's time directly is allowed only where
 * listed here, each with its reason.
 */
const ALLOWED: Readonly<Record<string, string>> = {
  'src/util/clock.ts': 'the system clock itself',
  'src/util/terminal.ts': "a log line's time when the logger gave none (formatting, not control flow)",
  'src/opensearch/fence.ts':
    "the lease's instant: the wall clock beside the system's monotonic one, compared across processes",
};
const DIRECT = /\bDate\.now\(\)|\bnew Date\(\)/g;

describe('time is read through the clock', () => {
  it('no file outside the allowed ones calls Date.now() or new Date() without an argument', () => {
    const found = tsFiles(join(root, 'src'))
      .map((f) => relative(root, f))
      .filter((f) => !(f in ALLOWED))
      .flatMap((f) =>
        readFileSync(join(root, f), 'utf8')
          .split('\n')
          .flatMap((line, i) => (line.match(DIRECT) ? [`${f}:${i + 1} ${line.trim()}`] : [])),
      );
    expect(found).toEqual([]);
  });

  it('finds a direct read where there is one (the allowed files have theirs)', () => {
    for (const f of Object.keys(ALLOWED)) expect(readFileSync(join(root, f), 'utf8')).toMatch(DIRECT);
  });
});
