import type { Client } from '@opensearch-project/opensearch';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildConfig } from '../../../src/config/load.js';
import { createClient } from '../../../src/opensearch/client.js';
import { type LeaseRequest, leaseId, ShareLease } from '../../../src/opensearch/lease.js';
import { until } from '../../support/child.js';
import { testClient } from '../../support/crawl.js';
import { deleteIndices, opensearchUrl, uniqueIndexNames } from '../../support/opensearch.js';
import { TcpProxy } from '../../support/tcp-proxy.js';

// The lease object against the real node: what it takes when part of it fails, what it tells a
// listener that comes late, and how it waits when it cannot renew.

const LEASES = uniqueIndexNames('lease-unit').status.replace(/-status$/, '');
let client: Client;

beforeAll(() => {
  client = testClient();
});

afterAll(async () => {
  await client.close();
  await deleteIndices(LEASES);
});

/** A logger whose lines the test reads (level and message). */
function capture() {
  const lines: { level: number; msg: string }[] = [];
  const log = pino({ level: 'debug' }, { write: (l: string) => lines.push(JSON.parse(l)) });
  return { log, warnings: () => lines.filter((l) => l.level >= 40).map((l) => l.msg) };
}

const request = (statusIndex: string, ttlMs: number): LeaseRequest => ({
  index: LEASES,
  statusIndex,
  shards: [0, 1, 2],
  share: 'all shards',
  ttlMs,
});

async function leaseDocs(statusIndex: string): Promise<Record<string, unknown>[]> {
  await client.indices.refresh({ index: LEASES });
  const res = await client.search({
    index: LEASES,
    body: { size: 10, query: { term: { statusIndex } } } as never,
  });
  return res.body.hits.hits.map((h) => h._source as Record<string, unknown>);
}

async function steal(statusIndex: string, shards: readonly number[]): Promise<void> {
  const now = Date.now();
  for (const shard of shards) {
    await client.index({
      index: LEASES,
      id: leaseId(statusIndex, shard),
      refresh: true,
      body: {
        statusIndex,
        shard,
        token: 'thief',
        host: 'thief-host',
        boot: 'other',
        pid: 99,
        share: 'all shards',
        shards: [...shards],
        since: now,
        renewedAt: now,
        expiresAt: now + 600_000,
      },
    });
  }
}

describe('the lease on a share of the status shards', () => {
  it('take() releases the shards it took when another part of it fails', async () => {
    const statusIndex = 'take-fails-status';
    // The lease index, with its mapping (a lease taken and released).
    await ShareLease.acquire(client, request('warm-up-status', 60_000), capture().log).then((l) =>
      l.release(),
    );
    // Shards 0 and 1 are free; shard 2's document holds an expiry the take script cannot compare
    // (a string, which the date field accepts): its part of the bulk fails.
    await client.index({
      index: LEASES,
      id: leaseId(statusIndex, 2),
      refresh: true,
      body: { statusIndex, shard: 2, token: 'odd', expiresAt: '1234' },
    });
    const attempt = await ShareLease.acquire(client, request(statusIndex, 60_000), capture().log).then(
      () => 'taken',
      (e: Error) => e.message,
    );
    expect(attempt).toMatch(/^OpenSearch refused the lease on the status shards/);
    // Nothing of this process left behind: only the odd document remains.
    expect((await leaseDocs(statusIndex)).map((d) => d.token)).toEqual(['odd']);
  });

  it('a loss found before a listener attached is told to it at once, and admits no write', async () => {
    const statusIndex = 'late-listener-status';
    const lease = await ShareLease.acquire(client, request(statusIndex, 1500), capture().log);
    try {
      expect(lease.admit()).toBe(true);
      await steal(statusIndex, [0, 1, 2]);
      // Two thirds of the TTL later a write asks for a renewal, which finds the lease taken.
      await until(() => lease.admit() !== true, 10_000, 'the lease to need a renewal');
      expect(await lease.admit()).toBe(false);
      expect(lease.lost).toBe('pid 99 on host thief-host');
      const heard: string[] = [];
      lease.onLost((by) => heard.push(by));
      expect(heard).toEqual(['pid 99 on host thief-host']);
    } finally {
      await lease.release();
    }
    // Released: the thief's documents stay.
    expect((await leaseDocs(statusIndex)).every((d) => d.token === 'thief')).toBe(true);
  });

  it('writes wait while renewals fail (one warning), and go again once one succeeds', async () => {
    const statusIndex = 'renew-fails-status';
    const target = new URL(opensearchUrl());
    const proxy = new TcpProxy({ host: target.hostname, port: Number(target.port) });
    const url = await proxy.start();
    const proxied = createClient(
      buildConfig([
        {
          source: 'test',
          entries: {
            'opensearch.addresses': url,
            'opensearch.connect.timeout': 1000,
          },
        },
      ]).config,
    ).client;
    const { log, warnings } = capture();
    const lease = await ShareLease.acquire(proxied, request(statusIndex, 3000), log);
    try {
      proxy.cut();
      await until(() => warnings().length > 0, 20_000, 'a renewal to fail');
      expect(warnings()).toEqual([
        expect.stringMatching(/^could not renew the lease on this crawl's status shards .* writes wait once/),
      ]);
      await until(() => lease.admit() !== true, 10_000, 'writes to wait');
      const admitted = lease.admit();
      expect(admitted).not.toBe(true);
      proxy.restore();
      expect(await admitted).toBe(true);
      expect(lease.lost).toBeUndefined();
      expect(warnings()).toHaveLength(1);
    } finally {
      await lease.release();
      await proxied.close();
      await proxy.close();
    }
  }, 60_000);
});
