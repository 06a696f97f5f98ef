import { describe, expect, it } from 'vitest';
import { shareWords } from '../../../src/app/lease.js';
import { deadHere, type Holder, refusal, type Self } from '../../../src/opensearch/lease.js';

const holder = (over: Partial<Holder> = {}): Holder => ({
  token: 't1',
  host: 'crawl-1',
  boot: 'boot-a',
  pid: 4242,
  share: 'all shards',
  shards: [0, 1, 2, 3],
  since: Date.UTC(2026, 0, 2, 3, 4, 5),
  renewedAt: Date.UTC(2026, 0, 2, 4, 0, 0),
  expiresAt: Date.UTC(2026, 0, 2, 4, 0, 30),
  ...over,
});

describe('the lease on a share of the status shards', () => {
  it("a refusal names the holder's host, pid, share and since, and how to proceed", () => {
    const held = new Map([
      [1, holder()],
      [3, holder()],
    ]);
    const text = refusal(
      {
        index: 'crawler-leases',
        statusIndex: 'status',
        shards: [1, 3],
        share: 'instance 1 of 2',
        ttlMs: 30_000,
      },
      held,
      Date.UTC(2026, 0, 2, 4, 0, 7),
    );
    expect(text).toContain(
      'status index "status": this crawl\'s share (instance 1 of 2) overlaps one another crawl holds: ' +
        'shards 1,3 to pid 4242 on host crawl-1 (all shards) since 2026-01-02T03:04:05.000Z, renewed 7 s ago.',
    );
    expect(text).toContain('Stop that crawl first, or give each its own --instances M --instance I');
    expect(text).toContain('lets go 30 s after its last renewal (opensearch.lease.ttl)');
  });

  it('a holder of this machine (same host and boot) whose process is gone lets go at once; others do not', () => {
    const self: Self = { host: 'crawl-1', boot: 'boot-a', pid: 1, alive: (pid) => pid === 7 };
    expect(deadHere(holder(), self)).toBe(true);
    expect(deadHere(holder({ pid: 7 }), self)).toBe(false);
    expect(deadHere(holder({ host: 'crawl-2' }), self)).toBe(false);
    // Rebooted since (or a container of another host): its pids say nothing here.
    expect(deadHere(holder({ boot: 'boot-b' }), self)).toBe(false);
    expect(deadHere(holder({ boot: '' }), { ...self, boot: '' })).toBe(false);
  });

  it('describes a share in words', () => {
    expect(shareWords({ instances: 1, instance: 0 })).toBe('all shards');
    expect(shareWords({ instances: 2, instance: 1 })).toBe('instance 1 of 2');
    expect(shareWords({ instances: 2, instance: 0, workers: 3 })).toBe('instance 0 of 2, 3 workers');
  });
});
