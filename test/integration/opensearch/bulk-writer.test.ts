import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildConfig } from '../../../src/config/load.js';
import { BulkWriter, type BulkWriterOptions } from '../../../src/opensearch/bulk-writer.js';
import { createClient } from '../../../src/opensearch/client.js';
import { ensureIndices, planIndices } from '../../../src/opensearch/indices.js';
import { systemClock } from '../../../src/util/clock.js';
import { silentLogger } from '../../../src/util/log.js';
import { deleteIndices, opensearchUrl, testConfig, uniqueIndexNames } from '../../support/opensearch.js';
import { TcpProxy } from '../../support/tcp-proxy.js';

const names = uniqueIndexNames('bulk');
const config = testConfig(names);
const { client } = createClient(config);
const options: BulkWriterOptions = {
  maxActions: 100,
  maxBytes: 1_000_000,
  flushIntervalMs: 50,
  concurrency: 2,
  maxPending: 1000,
  maxAttempts: 3,
  backoffMs: { base: 50, max: 500 },
};

beforeAll(async () => {
  await ensureIndices(client, planIndices(config));
});

afterAll(async () => {
  await deleteIndices(names.status, names.content);
  await client.close();
});

/** A client of the node through a TCP proxy, which a test can cut and restore. */
async function throughProxy() {
  const target = new URL(opensearchUrl());
  const proxy = new TcpProxy({ host: target.hostname, port: Number(target.port) });
  const url = await proxy.start();
  const proxied = createClient(
    buildConfig([
      { source: 'test', entries: { 'opensearch.addresses': url, 'opensearch.connect.timeout': 2000 } },
    ]).config,
  ).client;
  return { proxy, proxied };
}

const doc = (url: string, status = 'DISCOVERED') => ({ url, status, key: 'a.test', metadata: {} });

describe('bulk writer on a real node', () => {
  it('sendNow sends the buffer long before the flush interval; while requests are out, once one returns', async () => {
    const w = new BulkWriter(
      client,
      { ...options, flushIntervalMs: 600_000, concurrency: 1 },
      { clock: systemClock, log: silentLogger },
    );
    const action = (id: string) => ({
      op: 'index' as const,
      index: names.status,
      id,
      routing: 'a.test',
      doc: doc(`http://a.test/${id}`),
    });
    const first = w.add(action('now-1'));
    w.sendNow();
    // One request is out (concurrency 1): the next action waits for it instead of a request of its own.
    const second = w.add(action('now-2'));
    w.sendNow();
    expect(await first).toMatchObject({ ok: true });
    expect(w.pending).toBe(1);
    expect(await second).toMatchObject({ ok: true });
    w.close();
  });

  it('settles each item: index ok, create on an existing id is ok (409), delete of a missing id is ok', async () => {
    const w = new BulkWriter(client, options, { clock: systemClock, log: silentLogger });
    const index = w.add({
      op: 'index',
      index: names.status,
      id: 'a',
      routing: 'a.test',
      doc: doc('http://a.test/', 'FETCHED'),
    });
    const create = w.add({
      op: 'create',
      index: names.status,
      id: 'a',
      routing: 'a.test',
      doc: doc('http://a.test/'),
    });
    const del = w.add({ op: 'delete', index: names.content, id: 'nothing' });
    // Same bulk: index first, then the create conflicts with it.
    expect(await index).toMatchObject({ ok: true, status: 201 });
    expect(await create).toMatchObject({ ok: true, status: 409 });
    expect(await del).toMatchObject({ ok: true, result: 'not_found' });
    const stored = await client.get({ index: names.status, id: 'a', routing: 'a.test' });
    expect((stored.body._source as { status: string }).status).toBe('FETCHED');
    w.close();
  });

  it('a document the mapping rejects fails for good (400), the others of the bulk succeed', async () => {
    const w = new BulkWriter(client, options, { clock: systemClock, log: silentLogger });
    const bad = w.add({
      op: 'index',
      index: names.status,
      id: 'bad',
      doc: { ...doc('http://a.test/bad'), nextFetchDate: 'not a date' },
    });
    const good = w.add({ op: 'index', index: names.status, id: 'good', doc: doc('http://a.test/good') });
    expect(await bad).toMatchObject({ ok: false, status: 400 });
    expect(await good).toMatchObject({ ok: true });
    w.close();
  });

  it('flushes by count and makes callers wait when full (backpressure)', async () => {
    const w = new BulkWriter(
      client,
      { ...options, maxActions: 10, flushIntervalMs: 60_000, maxPending: 20 },
      { clock: systemClock, log: silentLogger },
    );
    const settled: Promise<{ ok: boolean }>[] = [];
    let maxSeen = 0;
    for (let i = 0; i < 50; i++) {
      await w.ready();
      settled.push(w.add({ op: 'index', index: names.status, id: `n${i}`, doc: doc(`http://a.test/${i}`) }));
      maxSeen = Math.max(maxSeen, w.pending);
    }
    // 50 actions went through a writer that never held more than 20, flushed by count alone.
    expect(maxSeen).toBeLessThanOrEqual(20);
    await w.flush();
    expect((await Promise.all(settled)).every((r) => r.ok)).toBe(true);
    expect(w.pending).toBe(0);
    w.close();
  });

  it('an outage pauses the writes and loses nothing', async () => {
    const { proxy, proxied } = await throughProxy();
    const w = new BulkWriter(
      proxied,
      { ...options, maxPending: 5 },
      { clock: systemClock, log: silentLogger },
    );
    proxy.cut();
    const results: Promise<unknown>[] = [];
    for (let i = 0; i < 5; i++) {
      results.push(w.add({ op: 'index', index: names.status, id: `o${i}`, doc: doc(`http://o.test/${i}`) }));
    }
    // The sixth waits for room: the writer is full of unsettled actions.
    let sixthAccepted = false;
    const sixth = w
      .add({ op: 'index', index: names.status, id: 'o5', doc: doc('http://o.test/5') })
      .then((r) => {
        sixthAccepted = true;
        return r;
      });
    // The writer notices the outage, then retries into it at least once more.
    await vi.waitFor(() => expect(w.inOutage).toBe(true), { timeout: 10_000 });
    const refusedBefore = proxy.refused;
    await vi.waitFor(() => expect(proxy.refused).toBeGreaterThan(refusedBefore), { timeout: 10_000 });
    expect(w.inOutage).toBe(true);
    expect(sixthAccepted).toBe(false);
    proxy.restore();
    const all = await Promise.all([...results, sixth]);
    expect(all.every((r) => (r as { ok: boolean }).ok)).toBe(true);
    expect(w.inOutage).toBe(false);
    w.close();
    await proxied.close();
    await proxy.close();
  });

  it('close during an outage settles every action not acknowledged as not written, and stops retrying', async () => {
    const { proxy, proxied } = await throughProxy();
    let requests = 0;
    proxied.on('request', () => requests++);
    const w = new BulkWriter(
      proxied,
      { ...options, maxPending: 5, flushIntervalMs: 10 },
      { clock: systemClock, log: silentLogger },
    );
    proxy.cut();
    const results = Array.from({ length: 5 }, (_, i) =>
      w.add({ op: 'index', index: names.status, id: `c${i}`, doc: doc(`http://c.test/${i}`) }),
    );
    // One waiting for room, one flush waiting for everything: both must end too.
    const waiting = w.ready();
    const flushed = w.flush();
    await new Promise((r) => setTimeout(r, 1000));
    expect(w.inOutage).toBe(true);
    w.close();
    const all = await Promise.all(results);
    expect(all).toEqual(all.map(() => expect.objectContaining({ ok: false, closed: true })));
    await waiting;
    await flushed;
    expect(w.pending).toBe(0);
    expect(
      await w.add({ op: 'index', index: names.status, id: 'late', doc: doc('http://c.test/late') }),
    ).toMatchObject({
      ok: false,
      closed: true,
    });
    // No retry after close: the request count stays where it was.
    const after = requests;
    await new Promise((r) => setTimeout(r, 1500));
    expect(requests).toBe(after);
    await proxied.close();
    await proxy.close();
  });
});
