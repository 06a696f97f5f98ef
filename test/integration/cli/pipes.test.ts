import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli, spawnCrawler } from '../../support/child.js';
import { initIndices } from '../../support/crawl.js';
import { deleteIndices } from '../../support/opensearch.js';

let names: { status: string; content: string };
let conf: string;

beforeAll(async () => {
  buildCli();
  ({ names, conf } = await initIndices('pipes'));
}, 120_000);

afterAll(() => deleteIndices(names.status, names.content));

describe('output piped to a reader that goes away (crawler ... | head -1)', () => {
  it.each([['config'], ['stats'], ['reset-errors', '--dry-run']])(
    'crawler %s with a closed stdout ends quietly with exit 0',
    async (...args) => {
      const child = spawnCrawler([...args, '--conf', conf]);
      // The reader is gone before the command writes its first line: every write meets EPIPE.
      child.proc.stdout!.destroy();
      expect(await child.exited).toBe(0);
      const stderr = child.stderr.join('\n');
      expect(stderr).not.toMatch(/EPIPE/);
      expect(stderr).not.toMatch(/\n\s+at /);
    },
    60_000,
  );
});
