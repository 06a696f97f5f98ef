import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Metadata } from '../../../src/model/metadata.js';
import { createClient } from '../../../src/opensearch/client.js';
import { ensureIndices, planIndices } from '../../../src/opensearch/indices.js';
import { Spout, type SpoutItem, type SpoutOptions } from '../../../src/opensearch/spout/spout.js';
import { documentId, toStatusSource } from '../../../src/opensearch/status-doc.js';
import { ManualClock } from '../../../src/util/clock.js';
import { silentLogger } from '../../../src/util/log.js';
import { deleteIndices, testConfig, uniqueIndexNames } from '../../support/opensearch.js';

const names = uniqueIndexNames('spout');
const config = testConfig(names);
const { client } = createClient(config);
const NOW = Date.UTC(2025, 0, 10);
const MIN = 60_000;

const options: SpoutOptions = {
  index: names.status,
  form: 'collapse',
  maxBuckets: 10,
  maxUrlsPerBucket: 2,
  filterQueries: [],
  queryTimeoutSecs: -1,
  minDelayMs: 0,
  maxDelayMs: 20_000,
  resetFetchDateAfterMs: 120_000,
  purgatoryMs: 30_000,
};

// Hosts a, b, c with due URLs (a has the oldest), d with a future URL, e never (no date).
const DOCS: [string, number | null][] = [
  ['http://a.test/1', NOW - 300 * MIN],
  ['http://a.test/2', NOW - 200 * MIN],
  ['http://a.test/3', NOW - 100 * MIN],
  ['http://b.test/1', NOW - 250 * MIN],
  ['http://c.test/1', NOW - 50 * MIN],
  ['http://c.test/2', NOW - 40 * MIN],
  ['http://d.test/1', NOW + 60 * MIN],
  ['http://e.test/1', null],
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
          status: at === null ? 'ERROR' : 'FETCHED',
          metadata: Metadata.of({ depth: '1', 'a.b': 'x' }),
          nextFetchDate: at,
        },
        key,
      ),
    ];
  });
  await client.bulk({ body, refresh: true });
});

afterAll(async () => {
  await deleteIndices(names.status, names.content);
  await client.close();
});

async function drain(spout: Spout): Promise<SpoutItem[]> {
  const out: SpoutItem[] = [];
  for (;;) {
    const r = await spout.poll();
    if (typeof r === 'string') return out;
    out.push(r);
  }
}

describe.each(['collapse', 'aggregation', 'keys-first', 'per-key'] as const)(
  'the spout (%s query)',
  (form) => {
    it('emits due URLs only, spread round-robin over keys; with fewer keys than buckets they take the unused share', async () => {
      const spout = new Spout(
        client,
        { ...options, form },
        { clock: new ManualClock(NOW), log: silentLogger },
      );
      await spout.query();
      // The first query asks max.urls.per.bucket of each key (it cannot know how many keys are due).
      expect(spout.stats().buffered).toBe(5);
      const items = await drain(spout);
      // The next one splits the budget (10 x 2) among the 3 keys it found: a's third URL comes too.
      expect(items.map((i) => i.url)).toEqual([
        'http://a.test/1',
        'http://b.test/1',
        'http://c.test/1',
        'http://a.test/2',
        'http://c.test/2',
        'http://a.test/3',
      ]);
      expect(items[0]!.metadata.toJSON()).toEqual({ depth: ['1'], 'a.b': ['x'] });
      expect(items[0]!.status).toBe('FETCHED');
      expect(items[0]!.key).toBe('a.test');
    });

    it('keys with the oldest due URLs come first when there are more keys than buckets', async () => {
      const spout = new Spout(
        client,
        { ...options, form, maxBuckets: 2 },
        { clock: new ManualClock(NOW), log: silentLogger },
      );
      const items = await drain(spout);
      expect(new Set(items.map((i) => i.key))).toEqual(new Set(['a.test', 'b.test']));
    });

    it('never emits a URL in flight or in the purgatory; it comes back after the purgatory', async () => {
      const clock = new ManualClock(NOW);
      const spout = new Spout(client, { ...options, form }, { clock, log: silentLogger });
      const first = await drain(spout);
      expect(first).toHaveLength(6);
      // Still due (nothing was written), but in flight: a new query emits none of them again.
      expect(await drain(spout)).toEqual([]);
      for (const i of first) spout.settle(i.url);
      clock.advance(10_000);
      expect(await spout.poll()).toBe('empty');
      clock.advance(21_000);
      expect((await drain(spout)).length).toBe(6);
    });

    it('applies opensearch.status.filterQuery', async () => {
      const spout = new Spout(
        client,
        { ...options, form, filterQueries: ['-key:a.test'] },
        { clock: new ManualClock(NOW), log: silentLogger },
      );
      const items = await drain(spout);
      expect(items.some((i) => i.key === 'a.test')).toBe(false);
      expect(items.length).toBe(3);
    });
  },
);

describe('a URL settled while the index does not show its write yet', () => {
  it('is not emitted again when its purgatory time is over, however late the index refreshes', async () => {
    // An index that never refreshes on its own: a loaded cluster whose refreshes lag behind.
    const lagging = uniqueIndexNames('spout-lag');
    const lagConfig = testConfig(lagging);
    const [plan] = planIndices(lagConfig);
    plan!.body.settings.index.refresh_interval = '-1';
    await ensureIndices(client, [plan!]);
    try {
      const url = 'http://lag.test/1';
      const write = (status: 'DISCOVERED' | 'FETCHED', at: number) =>
        client.index({
          index: lagging.status,
          id: documentId(url),
          routing: 'lag.test',
          body: toStatusSource(
            { url, status, metadata: new Metadata(), nextFetchDate: at },
            'lag.test',
          ) as never,
        });
      await write('DISCOVERED', NOW - MIN);
      await client.indices.refresh({ index: lagging.status });
      const clock = new ManualClock(NOW);
      const spout = new Spout(
        client,
        { ...options, index: lagging.status, purgatoryMs: 2000 },
        { clock, log: silentLogger },
      );
      expect((await drain(spout)).map((i) => i.url)).toEqual([url]);
      // Fetched: its new state is acknowledged, then settled; no refresh has happened.
      await write('FETCHED', NOW + 1440 * MIN);
      spout.settle(url);
      clock.advance(60_000);
      expect(await drain(spout)).toEqual([]);
      expect(await spout.poll()).toBe('empty');
    } finally {
      await deleteIndices(lagging.status);
    }
  });
});

describe('the spout pacing', () => {
  it('waits spout.min.delay.queries between queries', async () => {
    const clock = new ManualClock(NOW - 1000 * MIN);
    const spout = new Spout(client, { ...options, minDelayMs: 2000 }, { clock, log: silentLogger });
    expect(await spout.poll()).toBe('empty');
    expect(await spout.poll()).toBe('wait');
    clock.advance(2000);
    expect(await spout.poll()).toBe('empty');
    expect(spout.stats().queries).toBe(2);
  });
});

describe('a failed spout query', () => {
  it('is "wait", not "empty", so --once does not take a refused query for the end of the crawl', async () => {
    const clock = new ManualClock(NOW);
    // A filter query OpenSearch cannot parse.
    const spout = new Spout(client, { ...options, filterQueries: ['key:('] }, { clock, log: silentLogger });
    expect(await spout.poll()).toBe('wait');
    expect(spout.lastQueryFailed).toBe(true);
    expect(spout.stats().queryMsP95).toBeGreaterThanOrEqual(0);
  });
});

describe('URLs the crawl offers straight to the fetcher (adopt)', () => {
  const offered = (url: string): SpoutItem => ({
    url,
    metadata: new Metadata(),
    status: 'DISCOVERED',
    key: new URL(url).hostname,
  });

  it('takes a new URL in flight once; never one in flight, buffered or in the purgatory', async () => {
    const clock = new ManualClock(NOW);
    const spout = new Spout(client, options, { clock, log: silentLogger });
    // Without a share of the shards every key is this spout's.
    expect(spout.adopt(offered('http://new.test/1'))).toBe(true);
    expect(spout.adopt(offered('http://new.test/1'))).toBe(false);
    // Adopted before a query: the query does not emit it again.
    expect(spout.adopt(offered('http://c.test/2'))).toBe(true);
    await spout.query();
    expect(spout.adopt(offered('http://a.test/1'))).toBe(false);
    const emitted = await drain(spout);
    expect(emitted.map((i) => i.url)).not.toContain('http://c.test/2');
    expect(emitted.map((i) => i.url)).toContain('http://a.test/1');
    spout.settle('http://a.test/1');
    expect(spout.adopt(offered('http://a.test/1'))).toBe(false);
    expect(spout.stats()).toMatchObject({ adopted: 2, inFlight: emitted.length + 1 });
    // Settled like any other: in the purgatory, then free again.
    spout.settle('http://new.test/1');
    expect(spout.adopt(offered('http://new.test/1'))).toBe(false);
    clock.advance(options.purgatoryMs + 1);
    expect(spout.adopt(offered('http://new.test/1'))).toBe(true);
  });

  it('with a share of the shards, only URLs of keys its own queries returned', async () => {
    const spout = new Spout(
      client,
      { ...options, shards: [0, 1] },
      { clock: new ManualClock(NOW), log: silentLogger },
    );
    expect(spout.adopt(offered('http://a.test/new'))).toBe(false);
    await spout.query();
    expect(spout.adopt(offered('http://a.test/new'))).toBe(true);
    expect(spout.adopt(offered('http://elsewhere.test/1'))).toBe(false);
  });

  it('none while filter queries decide what is emitted', async () => {
    const spout = new Spout(
      client,
      { ...options, filterQueries: ['-key:b.test'] },
      { clock: new ManualClock(NOW), log: silentLogger },
    );
    await spout.query();
    expect(spout.adopt(offered('http://a.test/new'))).toBe(false);
    expect(spout.adopt(offered('http://b.test/new'))).toBe(false);
  });
});

describe('a status index made without the sort on nextFetchDate', () => {
  it('is named in a warning when the spout runs the per-key query on it, with what to do', async () => {
    const unsorted = `${names.status}-unsorted`;
    await client.indices.create({ index: unsorted, body: { settings: { number_of_replicas: 0 } } });
    try {
      const lines: { msg: string; index?: string }[] = [];
      const log = pino({ level: 'warn' }, { write: (s: string) => void lines.push(JSON.parse(s)) });
      const spout = new Spout(
        client,
        { ...options, index: unsorted, form: 'per-key' },
        { clock: new ManualClock(NOW), log },
      );
      await spout.query();
      await vi.waitFor(() => expect(lines.length).toBeGreaterThan(0), { timeout: 30_000, interval: 50 });
      expect(lines[0]!.index).toBe(unsorted);
      expect(lines[0]!.msg).toContain(`status index ${unsorted} is not sorted by nextFetchDate, url`);
      expect(lines[0]!.msg).toContain('crawler init --recreate');
    } finally {
      await client.indices.delete({ index: unsorted });
    }
  });
});
