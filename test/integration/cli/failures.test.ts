import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawler, writeConf } from '../../support/crawl.js';
import { deleteIndices, opensearchUrl, uniqueIndexNames } from '../../support/opensearch.js';

const names = uniqueIndexNames('failures');
let conf: string;

beforeAll(async () => {
  conf = writeConf({
    'opensearch.addresses': opensearchUrl(),
    'opensearch.status.index.name': names.status,
    'opensearch.indexer.index.name': names.content,
    'opensearch.status.shards': 1,
    'opensearch.indexer.shards': 1,
  });
  expect((await crawler('init', '--conf', conf)).code).toBe(0);
}, 120_000);

afterAll(() => deleteIndices(names.status, names.content));

const missing = 'test-failures-nonexistent';

/** One line on stderr, no stack trace. */
function oneLine(err: readonly string[]): string {
  expect(err).toHaveLength(1);
  expect(err[0]).not.toMatch(/\n|\bat .*\(.*:\d+:\d+\)|unexpected failure/);
  return err[0]!;
}

describe('expected failures are one line, with what to do, and exit 3', () => {
  it.each([['stats'], ['url', 'http://example.com/'], ['reset-errors', '--dry-run'], ['reset-errors']])(
    'crawler %s on a missing status index names it and says to run crawler init',
    async (...args) => {
      const r = await crawler(...args, '--conf', conf, '--set', `opensearch.status.index.name=${missing}`);
      expect(r.code).toBe(3);
      const line = oneLine(r.err);
      expect(line).toContain(`the index "${missing}" does not exist`);
      expect(line).toContain('crawler init');
    },
  );

  it.each([[[]], [['--dry-run']]])(
    'reset-errors --query with a query OpenSearch cannot parse quotes its reason (%s)',
    async (extra) => {
      const r = await crawler('reset-errors', '--query', 'status:(', ...extra, '--conf', conf);
      expect(r.code).toBe(3);
      const line = oneLine(r.err);
      expect(line).toMatch(/^crawler reset-errors: OpenSearch refused the request \(HTTP 400/);
      expect(line).toContain('Failed to parse query [status:(]');
      expect(line).toContain('Encountered "<EOF>" at line 1, column 8.');
    },
  );

  it('a cluster that cannot be reached is one line naming it', async () => {
    const r = await crawler('stats', '--conf', conf, '--set', 'opensearch.addresses=http://127.0.0.1:1');
    expect(r.code).toBe(3);
    expect(oneLine(r.err)).toMatch(/cannot reach OpenSearch at http:\/\/127\.0\.0\.1:1/);
  });
});
