import { describe, expect, it } from 'vitest';
import { crawlSettings, differingSettings, plan, quota } from '../../../src/app/fair-share.js';
import { buildConfig } from '../../../src/config/load.js';

const members = (...ids: string[]) => ids.map((member, i) => ({ member, since: i }));
const free = (n: number) =>
  Array.from({ length: n }, (_, shard) => ({ shard, member: undefined, expiresAt: 0 }));

describe('fair shares of the status shards', () => {
  it('shards / live members, the remainder to the oldest; never more in all than the shards', () => {
    const live = members('a', 'b', 'c', 'd');
    expect(live.map((m) => quota(10, live, m.member))).toEqual([3, 3, 2, 2]);
    expect(live.map((m) => quota(3, live, m.member))).toEqual([1, 1, 1, 0]);
    expect(quota(10, live, 'gone')).toBe(0);
  });

  it('a member over its share releases the excess, highest first, and takes nothing', () => {
    const p = plan(
      { total: 6, members: members('a', 'b', 'c'), leases: free(6) },
      { member: 'a', mine: [0, 1, 2, 3, 4, 5] },
      0,
    );
    expect(p).toEqual({ release: [5, 4, 3, 2], take: [] });
  });

  it('a member under its share takes free or expired shards only, never one another member holds', () => {
    const leases = [
      { shard: 0, member: 'a', expiresAt: 100 },
      { shard: 1, member: 'a', expiresAt: 100 },
      { shard: 2, member: 'b', expiresAt: 10 },
      { shard: 3, member: undefined, expiresAt: 0 },
    ];
    const p = plan({ total: 4, members: members('a', 'c'), leases }, { member: 'c', mine: [] }, 50);
    expect(p.release).toEqual([]);
    expect([...p.take].sort()).toEqual([2, 3]);
    expect(plan({ total: 4, members: members('a', 'c'), leases }, { member: 'c', mine: [] }, 5).take).toEqual(
      [3],
    );
  });
});

describe('the settings members must share', () => {
  it('names the keys that differ, and leaves out what may differ per machine (addresses, secrets)', () => {
    const a = crawlSettings(buildConfig([]).config);
    const b = crawlSettings(
      buildConfig([
        {
          source: 'test',
          entries: {
            'fetcher.server.delay': 3,
            'opensearch.addresses': 'http://10.0.0.9:9200',
            'opensearch.password': 'x',
            'topology.workers': 4,
          },
        },
      ]).config,
    );
    expect(differingSettings(a, b)).toEqual(['fetcher.server.delay']);
    expect(Object.keys(a)).not.toContain('opensearch.password');
    expect(Object.values(a).every((v) => /^[0-9a-f]{16}$/.test(v))).toBe(true);
  });
});
