import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Metadata } from '../../../src/model/metadata.js';
import { createClient } from '../../../src/opensearch/client.js';
import { ensureIndices, planIndices } from '../../../src/opensearch/indices.js';
import {
  type FetchDemand,
  Spout,
  type SpoutItem,
  type SpoutOptions,
} from '../../../src/opensearch/spout/spout.js';
import { documentId, toStatusSource } from '../../../src/opensearch/status-doc.js';
import { ManualClock } from '../../../src/util/clock.js';
import { silentLogger } from '../../../src/util/log.js';
import { deleteIndices, testConfig, uniqueIndexNames } from '../../support/opensearch.js';

// The spout's timing against a real OpenSearch whose status index refreshes only when the test says
// so: a settled URL comes back as soon as its acknowledged update is searchable (and never before,
// nor while in flight), a deferral's URL comes back once its date came, and a key with few
// neighbours takes the unused share of a query's budget.

// Two status indices: one refreshed only when a test asks, one with the default interval (1 s).
const names = uniqueIndexNames('frontier');
const config = testConfig(names);
const timed = uniqueIndexNames('frontier-timed');
const timedConfig = testConfig(timed);
// One of its own for --once, where any other due URL would answer the question.
const held = uniqueIndexNames('frontier-held');
const { client } = createClient(config);
const NOW = Date.UTC(2025, 0, 10);
const MIN = 60_000;

const options: SpoutOptions = {
  index: names.status,
  // The default form (the in-flight and purgatory rules hold for every form).
  form: config['opensearch.status.query.form'],
  maxBuckets: 10,
  maxUrlsPerBucket: 2,
  filterQueries: [],
  queryTimeoutSecs: -1,
  minDelayMs: 0,
  maxDelayMs: 20_000,
  resetFetchDateAfterMs: 120_000,
  purgatoryMs: 30_000,
};

/** Writes a status document (no refresh); resolves with its new version. */
async function put(
  url: string,
  at: number | null,
  md: Record<string, string> = {},
  index = names.status,
): Promise<number> {
  const key = new URL(url).hostname;
  const res = await client.index({
    index,
    id: documentId(url),
    routing: key,
    body: toStatusSource(
      { url, status: 'DISCOVERED', metadata: Metadata.of(md), nextFetchDate: at },
      key,
    ) as never,
  });
  return res.body._version as number;
}

const refresh = (index = names.status) => client.indices.refresh({ index });

/** Polls until the spout has nothing to hand out; `each` sees every URL it emitted. */
async function drain(spout: Spout, each: (item: SpoutItem) => void = () => {}): Promise<SpoutItem[]> {
  const out: SpoutItem[] = [];
  for (;;) {
    const r = await spout.poll();
    if (typeof r === 'string') return out;
    each(r);
    out.push(r);
  }
}

/** A fetch side with nothing waiting and room for everything, unless told otherwise. */
function demand(over: Partial<FetchDemand> = {}): FetchDemand {
  return {
    waiting: () => 0,
    pace: () => Number.POSITIVE_INFINITY,
    room: () => Number.POSITIVE_INFINITY,
    ...over,
  };
}

beforeAll(async () => {
  await ensureIndices(client, planIndices(config));
  await ensureIndices(client, planIndices(timedConfig));
  await ensureIndices(client, planIndices(testConfig(held)));
  // Refreshes happen when the test asks for them, so "not searchable yet" lasts as long as it must.
  await client.indices.putSettings({ index: names.status, body: { index: { refresh_interval: '-1' } } });
});

afterAll(async () => {
  await deleteIndices(names.status, names.content, timed.status, timed.content, held.status, held.content);
  await client.close();
});

describe('a settled URL and the purgatory', () => {
  it('is emitted again once the refresh made its acknowledged update visible, and never while the update is unacknowledged', async () => {
    const url = 'http://settle.test/page';
    await put(url, NOW - 10 * MIN);
    await refresh();
    // The clock stands still: whatever happens below owes nothing to spout.ttl.purgatory running out.
    const spout = new Spout(client, options, { clock: new ManualClock(NOW), log: silentLogger });
    expect((await drain(spout)).map((i) => i.url)).toEqual([url]);
    // Its update (a deferral that has already expired: due in the past) is written and even
    // searchable, but not acknowledged to the spout: the URL is in flight, never emitted.
    await put(url, NOW - MIN, { 'defer.cause': 'host.retry-after' });
    await refresh();
    expect(await drain(spout)).toEqual([]);
    // The acknowledged update (a later version) is not searchable yet: the index shows the one before.
    const version = await put(url, NOW - MIN, { 'defer.cause': 'host.retry-after', round: '2' });
    expect(spout.settle(url, { version, nextFetchDate: NOW - MIN, key: 'settle.test' })).toBe(true);
    expect(await drain(spout)).toEqual([]);
    expect(await drain(spout)).toEqual([]);
    // Refreshed: the next query shows it, and the URL is due by its new state.
    await refresh();
    const again = await drain(spout);
    expect(again.map((i) => i.url)).toEqual([url]);
    expect(again[0]!.metadata.getFirstValue('round')).toBe('2');
  });

  it('past its purgatory time with no refresh since, its old state is not emitted: the spout refreshes first', async () => {
    const url = 'http://late.test/page';
    await put(url, NOW - 10 * MIN);
    await refresh();
    const clock = new ManualClock(NOW);
    const spout = new Spout(client, options, { clock, log: silentLogger });
    expect((await drain(spout)).map((i) => i.url)).toContain(url);
    // Fetched: due again tomorrow; the index has not refreshed on its own (a cluster lagging behind).
    const version = await put(url, NOW + 1440 * MIN);
    spout.settle(url, { version, nextFetchDate: NOW + 1440 * MIN, key: 'late.test' });
    clock.advance(options.purgatoryMs + 60_000);
    expect((await drain(spout)).map((i) => i.url)).not.toContain(url);
    expect(spout.stats().inPurgatory).toBe(0);
  });

  it('a URL given up unchanged (nothing written) stays out for spout.ttl.purgatory', async () => {
    const url = 'http://giveup.test/page';
    await put(url, NOW - 10 * MIN);
    await refresh();
    const clock = new ManualClock(NOW);
    const spout = new Spout(client, options, { clock, log: silentLogger });
    expect((await drain(spout)).map((i) => i.url)).toContain(url);
    spout.settle(url);
    clock.advance(options.purgatoryMs - 1);
    expect((await drain(spout)).map((i) => i.url)).not.toContain(url);
    clock.advance(1);
    expect((await drain(spout)).map((i) => i.url)).toContain(url);
  });
});

describe('--once and a URL held in the purgatory', () => {
  it('is not exhausted while a due URL given up unchanged waits its purgatory time; it is emitted after it', async () => {
    const url = 'http://held.test/page';
    await put(url, NOW - 10 * MIN, {}, held.status);
    await refresh(held.status);
    const clock = new ManualClock(NOW);
    const spout = new Spout(client, { ...options, index: held.status }, { clock, log: silentLogger });
    expect((await drain(spout)).map((i) => i.url)).toEqual([url]);
    // Given up unchanged (its status write failed, say): still due, so the crawl is not over.
    spout.settle(url);
    expect(await spout.isExhausted(0)).toBe(false);
    expect(await drain(spout)).toEqual([]);
    clock.advance(options.purgatoryMs);
    expect(await spout.isExhausted(0)).toBe(false);
    expect((await drain(spout)).map((i) => i.url)).toEqual([url]);
  });
});

describe('a URL settled with a date a few seconds ahead (a deferral)', () => {
  it('is queried for by its key once that date came, without waiting for the next timed query', async () => {
    const url = 'http://deferred.test/page';
    await put(url, NOW - 10 * MIN, {}, timed.status);
    await refresh(timed.status);
    const clock = new ManualClock(NOW);
    // Timed queries a minute apart: only the deferral's wake-up can bring the URL back sooner.
    const spout = new Spout(
      client,
      { ...options, index: timed.status, minDelayMs: 60_000 },
      { clock, log: silentLogger },
    );
    let buffered = 0;
    spout.serve(demand(), () => buffered++);
    expect((await drain(spout)).map((i) => i.url)).toContain(url);
    const version = await put(url, NOW + 5000, { 'defer.cause': 'host.retry-after' }, timed.status);
    await refresh(timed.status);
    spout.settle(url, { version, nextFetchDate: NOW + 5000, key: 'deferred.test' });
    const queries = spout.stats().queries;
    clock.advance(4000);
    expect(await drain(spout)).toEqual([]);
    clock.advance(1000);
    expect(await spout.poll()).toBe('wait');
    await vi.waitFor(() => expect(buffered).toBe(1), { timeout: 10_000 });
    expect((await drain(spout)).map((i) => i.url)).toEqual([url]);
    expect(spout.stats()).toMatchObject({ queries, keyQueries: 1 });
  });
});

describe('few keys due', () => {
  const HOST = 'http://few.test';
  const urls = Array.from({ length: 40 }, (_, i) => `${HOST}/p${String(i).padStart(2, '0')}`);

  beforeAll(async () => {
    const body = urls.flatMap((url, i) => [
      { index: { _index: timed.status, _id: documentId(url), routing: 'few.test' } },
      toStatusSource(
        { url, status: 'DISCOVERED', metadata: new Metadata(), nextFetchDate: NOW - 100 * MIN + i },
        'few.test',
      ),
    ]);
    await client.bulk({ body, refresh: true });
  });

  /** A spout that reads only few.test. */
  function fewSpout(d: FetchDemand) {
    const spout = new Spout(
      client,
      { ...options, index: timed.status, filterQueries: ['key:few.test'] },
      { clock: new ManualClock(NOW), log: silentLogger },
    );
    spout.serve(d, () => {});
    return spout;
  }

  it('a key alone takes the whole budget (max.buckets x max.urls.per.bucket), oldest first', async () => {
    const spout = fewSpout(demand());
    await spout.query();
    await vi.waitFor(() => expect(spout.stats().buffered).toBe(20), { timeout: 10_000 });
    expect(spout.stats().keyQueries).toBe(1);
    expect((await drain(spout)).slice(0, 20).map((i) => i.url)).toEqual(urls.slice(0, 20));
  });

  it('no more than its host can fetch before the next query at its politeness', async () => {
    const spout = fewSpout(demand({ pace: () => 6 }));
    await spout.query();
    await vi.waitFor(() => expect(spout.stats().keyQueries).toBe(1), { timeout: 10_000 });
    await vi.waitFor(() => expect(spout.stats().buffered).toBe(6), { timeout: 10_000 });
  });

  it('no more than the fetch queues have room for, beyond the max.urls.per.bucket a query always gives', async () => {
    const spout = fewSpout(demand({ room: () => 0 }));
    await spout.query();
    expect(spout.stats().buffered).toBe(2);
    expect(spout.stats().keyQueries).toBe(0);
  });

  it('a key whose fetch queue runs short gets a query of its own, from where the last one ended', async () => {
    // What the fetch side holds: every URL emitted, until the test says some were fetched.
    let waiting = 0;
    const spout = fewSpout(demand({ waiting: () => waiting }));
    await spout.query();
    await vi.waitFor(() => expect(spout.stats().buffered).toBe(20), { timeout: 10_000 });
    const first = await drain(spout, () => waiting++);
    expect(first).toHaveLength(20);
    // All 20 wait in the host's queue: nothing to ask for.
    spout.short('few.test');
    expect(spout.stats().keyQueries).toBe(1);
    // Half of them fetched: the next 10 of the key, after the 20 in flight.
    waiting = 10;
    spout.short('few.test');
    await vi.waitFor(() => expect(spout.stats().buffered).toBe(10), { timeout: 10_000 });
    const next = await drain(spout, () => waiting++);
    expect(next.map((i) => i.url)).toEqual(urls.slice(20, 30));
  });
});
