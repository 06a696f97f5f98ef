import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/run.js';
import { deleteIndices, opensearchUrl, uniqueIndexNames } from '../../support/opensearch.js';

const names = uniqueIndexNames('cli-init');

async function crawler(...args: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(
    [
      ...args,
      '--log-level',
      'silent',
      '--set',
      `opensearch.addresses=${opensearchUrl()}`,
      '--set',
      `opensearch.status.index.name=${names.status}`,
      '--set',
      `opensearch.indexer.index.name=${names.content}`,
    ],
    { out: (l) => out.push(l), err: (l) => err.push(l) },
  );
  return { code, out, err };
}

afterAll(() => deleteIndices(names.status, names.content));

describe('crawler init', () => {
  it('creates the two indices, and a second run changes nothing and says so', async () => {
    const first = await crawler('init');
    expect(first.code).toBe(0);
    expect(first.out[0]).toMatch(new RegExp(`^status index "${names.status}" at .*: created$`));
    expect(first.out[1]).toMatch(new RegExp(`^content index "${names.content}" at .*: created$`));

    const second = await crawler('init');
    expect(second.code).toBe(0);
    expect(second.out).toContain('nothing to do: both indices exist');
  });

  it('--recreate without --yes refuses', async () => {
    const r = await crawler('init', '--recreate');
    expect(r.code).toBe(2);
    expect(r.out[0]).toMatch(/add --yes to confirm/);
  });

  it('an unreachable cluster gives one line naming the URL and the fix', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await main(
      ['init', '--log-level', 'silent', '--set', 'opensearch.addresses=http://127.0.0.1:1'],
      {
        out: (l) => out.push(l),
        err: (l) => err.push(l),
      },
    );
    expect(code).toBe(3);
    expect(err).toHaveLength(1);
    expect(err[0]).toMatch(
      /^crawler init: cannot reach OpenSearch at http:\/\/127\.0\.0\.1:1: .*OPENSEARCH_URL/,
    );
  });
});
