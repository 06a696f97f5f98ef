import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Metadata } from '../../../src/model/metadata.js';
import { createClient } from '../../../src/opensearch/client.js';
import { ensureIndices, planIndices } from '../../../src/opensearch/indices.js';
import { indexSortWarning } from '../../../src/opensearch/spout/per-key.js';
import { hitsOf, type SpoutQueryParams } from '../../../src/opensearch/spout/query.js';
import { selectDue } from '../../../src/opensearch/spout/select.js';
import { documentId, toStatusSource } from '../../../src/opensearch/status-doc.js';
import { deleteIndices, testConfig, uniqueIndexNames } from '../../support/opensearch.js';

// keys-first against the aggregation it stands for, on the same index: the same keys, the same URLs.
const names = uniqueIndexNames('spout-select');
const config = testConfig(names);
const { client } = createClient(config);
const NOW = Date.UTC(2025, 0, 10);
const MIN = 60_000;

/** `count` due URLs of a host, one minute apart from `from` on. */
function urls(host: string, count: number, from: number): [string, number][] {
  return Array.from({ length: count }, (_, i) => [`http://${host}/${i}`, from + i * MIN]);
}

// big.test holds the 500 oldest due URLs; then 30 hosts with a few each; late.test is not due;
// mixed.test has one due URL, two not due yet and one ERROR (no nextFetchDate: never due).
const DOCS: [string, number | null][] = [
  ...urls('big.test', 500, NOW - 2000 * MIN),
  ...Array.from({ length: 30 }, (_, h) => urls(`h${h}.test`, 3, NOW - 1000 * MIN + h * 7 * MIN)).flat(),
  ...urls('late.test', 5, NOW + 60 * MIN),
  ['http://mixed.test/0', NOW - 10 * MIN],
  ['http://mixed.test/1', NOW + MIN],
  ['http://mixed.test/2', NOW + 2 * MIN],
  ['http://mixed.test/error', null],
];

beforeAll(async () => {
  await ensureIndices(client, planIndices(config));
  const body = DOCS.flatMap(([url, at]) => {
    const key = new URL(url).hostname;
    return [
      { index: { _index: names.status, _id: documentId(url), routing: key } },
      toStatusSource(
        {
          url,
          status: at === null ? 'ERROR' : 'DISCOVERED',
          metadata: Metadata.of({ depth: '1' }),
          nextFetchDate: at,
        },
        key,
      ),
    ];
  });
  const res = await client.bulk({ body, refresh: true });
  expect(res.body.errors).toBe(false);
});

afterAll(async () => {
  await deleteIndices(names.status, names.content);
  await client.close();
});

const params = (maxBuckets: number, filterQueries: string[] = []): SpoutQueryParams => ({
  queryDate: new Date(NOW).toISOString(),
  maxBuckets,
  maxUrlsPerBucket: 3,
  filterQueries,
  timeoutSecs: -1,
});

async function urlsOf(form: 'aggregation' | 'keys-first' | 'per-key', p: SpoutQueryParams) {
  const res = await selectDue(client, form, p, { index: names.status });
  const buckets = hitsOf(form, res.body).map((b) => b.map((h) => (h._source as { url: string }).url));
  return { buckets, searches: res.answers.length };
}

describe('the keys-first spout query', () => {
  it('finds the keys of the oldest due URLs from a page of them, then their URLs: as the aggregation does', async () => {
    // Without big.test, the first page (10 x 20 URLs) names more than 10 keys.
    const p = params(10, ['-key:big.test']);
    const keysFirst = await urlsOf('keys-first', p);
    const aggregation = await urlsOf('aggregation', p);
    expect(keysFirst.searches).toBe(2);
    expect(keysFirst.buckets).toEqual(aggregation.buckets);
    expect(keysFirst.buckets.map((b) => b[0])).toEqual(
      Array.from({ length: 10 }, (_, h) => `http://h${h}.test/0`),
    );
    expect(keysFirst.buckets[0]).toEqual(['http://h0.test/0', 'http://h0.test/1', 'http://h0.test/2']);
  });

  it('reads a larger page when one host holds the oldest ones, and the aggregation alone when even that is all one host', async () => {
    // 2 x 20 URLs, then 400: all big.test's; so the aggregation over every due URL answers.
    const fallback = await urlsOf('keys-first', params(2));
    expect(fallback.searches).toBe(3);
    expect(fallback.buckets).toEqual((await urlsOf('aggregation', params(2))).buckets);
    expect(fallback.buckets.map((b) => b[0])).toEqual(['http://big.test/0', 'http://h0.test/0']);
    // 20 x 20 URLs: all big.test's; the page of 4,000 holds every due URL (590), so every due key.
    const grown = await urlsOf('keys-first', params(20));
    expect(grown.searches).toBe(3);
    expect(grown.buckets).toEqual((await urlsOf('aggregation', params(20))).buckets);
    expect(grown.buckets).toHaveLength(20);
  });

  it('answers no buckets when nothing is due', async () => {
    const early = { ...params(10), queryDate: new Date(NOW - 5000 * MIN).toISOString() };
    const none = await urlsOf('keys-first', early);
    expect(none).toEqual({ buckets: [], searches: 1 });
  });
});

describe('the per-key spout query', () => {
  it('chooses the keys of the oldest due URLs from a page of them, then reads each key by a routed query: as the aggregation does', async () => {
    const p = params(10, ['-key:big.test']);
    const perKey = await urlsOf('per-key', p);
    // One page (10 x 5 URLs) named more than 10 keys; then one _msearch of 10 per-key answers.
    expect(perKey.searches).toBe(1 + 10);
    expect(perKey.buckets).toEqual((await urlsOf('aggregation', p)).buckets);
    expect(perKey.buckets.map((b) => b[0])).toEqual(
      Array.from({ length: 10 }, (_, h) => `http://h${h}.test/0`),
    );
    // max.urls.per.bucket (3) of each key, its oldest first.
    expect(perKey.buckets[0]).toEqual(['http://h0.test/0', 'http://h0.test/1', 'http://h0.test/2']);
  });

  it('finds several hosts when one holds every one of the oldest URLs: the next page leaves its URLs out', async () => {
    // 2 x 5 URLs: all big.test's; the page without big.test names h0.test.
    const two = await urlsOf('per-key', params(2));
    expect(two.buckets).toEqual((await urlsOf('aggregation', params(2))).buckets);
    expect(two.buckets.map((b) => b[0])).toEqual(['http://big.test/0', 'http://h0.test/0']);
    expect(two.searches).toBe(2 + 2);
    // 20 keys asked: big.test, then 19 of the 30 small hosts, in the order of their oldest due URL.
    const twenty = await urlsOf('per-key', params(20));
    expect(twenty.buckets).toEqual((await urlsOf('aggregation', params(20))).buckets);
    expect(twenty.buckets).toHaveLength(20);
    expect(twenty.buckets.every((b) => b.length === 3)).toBe(true);
  });

  it('emits due URLs only: none when nothing is due, and never a URL due after the query date', async () => {
    const early = { ...params(10), queryDate: new Date(NOW - 5000 * MIN).toISOString() };
    expect(await urlsOf('per-key', early)).toEqual({ buckets: [], searches: 1 });
    const all = await urlsOf('per-key', params(50));
    const emitted = all.buckets.flat();
    expect(emitted.some((u) => u.startsWith('http://late.test/'))).toBe(false);
    // 32 due keys, 3 URLs each at most: big.test's 3 oldest, every small host's 3, and mixed.test's
    // one due URL (its key query, sorted by date with no date range, also finds the two not due
    // yet and the ERROR without a date: dropped).
    expect(all.buckets).toHaveLength(32);
    expect(all.buckets.at(-1)).toEqual(['http://mixed.test/0']);
    expect(emitted).toHaveLength(31 * 3 + 1);
    expect(new Set(emitted).size).toBe(emitted.length);
    expect(all.buckets).toEqual((await urlsOf('aggregation', params(50))).buckets);
  });
});

describe('the status index sort', () => {
  it('is in the index the crawl makes; an index made without it is named in a warning', async () => {
    expect(await indexSortWarning(client, names.status)).toBeUndefined();
    const unsorted = `${names.status}-unsorted`;
    await client.indices.create({ index: unsorted, body: { settings: { number_of_replicas: 0 } } });
    try {
      const why = await indexSortWarning(client, unsorted);
      expect(why).toContain(`status index ${unsorted} is not sorted by nextFetchDate, url`);
    } finally {
      await client.indices.delete({ index: unsorted });
    }
  });
});
