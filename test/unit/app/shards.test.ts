import { describe, expect, it } from 'vitest';
import { shardsFor, shardsOfShare, shareProblem } from '../../../src/app/shards.js';

// How instances and their workers split the status shards: each shard read by exactly one process,
// and a worker's shards always within its instance's share (so --workers changes nothing between
// instances).

describe('shares of the status shards', () => {
  it('every shard is read by exactly one worker of one instance, within that instance’s share', () => {
    for (const total of [1, 2, 4, 5, 10, 16]) {
      for (let instances = 1; instances <= total; instances++) {
        for (let workers = 1; instances * workers <= total; workers++) {
          const readers = new Map<number, string[]>();
          for (let instance = 0; instance < instances; instance++) {
            const own = shardsFor(total, instances, instance);
            for (let worker = 0; worker < workers; worker++) {
              const share = { instances, instance, workers, worker };
              expect(shareProblem(total, share, 'status')).toBeUndefined();
              const shards = shardsOfShare(total, share) ?? shardsFor(total, 1, 0);
              expect(shards.length).toBeGreaterThan(0);
              for (const s of shards) {
                expect(own).toContain(s);
                readers.set(s, [...(readers.get(s) ?? []), `${instance}/${worker}`]);
              }
            }
          }
          expect([...readers.keys()].sort((a, b) => a - b)).toEqual(shardsFor(total, 1, 0));
          expect([...readers.values()].filter((r) => r.length !== 1)).toEqual([]);
        }
      }
    }
  });

  it('one instance with one worker reads every shard (no preference)', () => {
    expect(shardsOfShare(4, { instances: 1, instance: 0, workers: 1, worker: 0 })).toBeUndefined();
    expect(shardsOfShare(4, { instances: 1, instance: 0, workers: 2, worker: 1 })).toEqual([1, 3]);
    expect(shardsOfShare(8, { instances: 2, instance: 1, workers: 2, worker: 1 })).toEqual([3, 7]);
  });

  it('more parts than shards is refused with the key to raise and the command to run', () => {
    const share = (instances: number, workers: number) => ({ instances, instance: 0, workers, worker: 0 });
    expect(shareProblem(4, share(5, 1), 'status')).toBe(
      '--instances 5 exceeds the 4 shards of the status index "status": each instance needs at least one ' +
        'shard (raise opensearch.status.shards and run crawler init --recreate)',
    );
    expect(shareProblem(4, share(1, 8), 'status')).toBe(
      '--workers 8 exceeds the 4 shards of the status index "status": each worker needs at least one ' +
        'shard (raise opensearch.status.shards and run crawler init --recreate, or use fewer workers)',
    );
    expect(shareProblem(4, share(2, 3), 'status')).toMatch(
      /^--workers 3 x --instances 2 exceeds the 4 shards/,
    );
  });
});
