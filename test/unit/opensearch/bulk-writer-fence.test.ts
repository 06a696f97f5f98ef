import type { Client } from '@opensearch-project/opensearch';
import { describe, expect, it } from 'vitest';
import { BulkWriter } from '../../../src/opensearch/bulk-writer.js';
import type { WriteFence } from '../../../src/opensearch/fence.js';
import { ageOf } from '../../../src/opensearch/fence.js';
import { systemClock } from '../../../src/util/clock.js';
import { silentLogger } from '../../../src/util/log.js';

// The bulk writer's own decisions, answered by a stand-in for `_bulk`: which item is retried how
// often, and what the fence lets through. (Its exchanges with a real node: test/integration.)

/** A `_bulk` that rejects each item with `status` its first `rejections` times, then takes it. */
function stubBulk(status: number, rejections: number) {
  const seen = new Map<string, number>();
  const requests: string[] = [];
  const client = {
    async bulk({ body: bytes }: { body: Buffer }) {
      // The writer sends its NDJSON as UTF-8 bytes.
      const body = bytes.toString('utf8');
      requests.push(body);
      // Action lines only: an index or create line is followed by its document.
      const lines = body
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, { _id: string }>);
      const actions = lines.filter(
        (_, i) => i === 0 || !('index' in lines[i - 1]! || 'create' in lines[i - 1]!),
      );
      const items = actions.map((a) => {
        const [op, meta] = Object.entries(a)[0]!;
        const n = seen.get(meta._id) ?? 0;
        seen.set(meta._id, n + 1);
        return n < rejections
          ? { [op]: { status, error: { type: 'rejected_execution_exception', reason: 'busy' } } }
          : { [op]: { status: 200, _version: 1 } };
      });
      return { body: { items } };
    },
  };
  return { client: client as unknown as Client, requests };
}

const writer = (client: Client, fence?: WriteFence) =>
  new BulkWriter(
    client,
    {
      maxActions: 1,
      maxBytes: 1_000_000,
      flushIntervalMs: 1,
      concurrency: 1,
      maxPending: 100,
      maxAttempts: 2,
      backoffMs: { base: 1, max: 2 },
      ...(fence ? { fence } : {}),
    },
    { clock: systemClock, log: silentLogger },
  );

describe('the bulk writer: retries and the fence', () => {
  it('an action marked untilWritten is retried past maxAttempts; another is given up after them', async () => {
    const { client } = stubBulk(429, 5);
    const w = writer(client);
    const kept = await w.add({ op: 'delete', index: 'content', id: 'a', untilWritten: true });
    const given = await w.add({ op: 'delete', index: 'content', id: 'b' });
    expect(kept).toMatchObject({ ok: true, status: 200 });
    expect(given).toMatchObject({ ok: false, status: 429 });
    w.close();
  });

  it('sends nothing while the fence waits, and once it admits; drops everything, unsent, when it refuses', async () => {
    const { client, requests } = stubBulk(200, 0);
    let open!: (v: boolean) => void;
    let pass: true | Promise<boolean> = new Promise<boolean>((resolve) => {
      open = resolve;
    });
    let asked!: () => void;
    const wasAsked = new Promise<void>((resolve) => {
      asked = resolve;
    });
    const w = writer(client, {
      admit: () => {
        asked();
        return pass;
      },
    });
    const first = w.add({ op: 'index', index: 'status', id: 'a', doc: {} });
    await wasAsked;
    expect(requests).toHaveLength(0);
    open(true);
    pass = true;
    expect(await first).toMatchObject({ ok: true });
    expect(requests).toHaveLength(1);

    pass = Promise.resolve(false);
    const dropped = await w.add({ op: 'index', index: 'status', id: 'b', doc: {} });
    expect(dropped).toMatchObject({ ok: false, closed: true });
    expect(dropped.ok === false && dropped.error).toMatch(/lease .* was lost/);
    expect(requests).toHaveLength(1);
    // Closed for good: later actions are not written either.
    expect(await w.add({ op: 'index', index: 'status', id: 'c', doc: {} })).toMatchObject({ closed: true });
  });

  it("a lease's age is the larger of the wall clock's and the monotonic clock's", () => {
    expect(ageOf({ wall: 1000, mono: 500 }, { wall: 9000, mono: 600 })).toBe(8000);
    expect(ageOf({ wall: 9000, mono: 500 }, { wall: 1000, mono: 4500 })).toBe(4000);
  });
});
