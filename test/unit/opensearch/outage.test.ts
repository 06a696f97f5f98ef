import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { buildConfig, parseSet } from '../../../src/config/load.js';
import { sniffFor } from '../../../src/opensearch/client.js';
import { planIndices, replicaSettings } from '../../../src/opensearch/indices.js';
import { ClusterOutage, shardUnavailable } from '../../../src/opensearch/outage.js';
import { unavailableShards } from '../../../src/opensearch/spout/answers.js';
import type { Clock } from '../../../src/util/clock.js';
import { ConfigError } from '../../../src/util/errors.js';

function setup() {
  let now = 0;
  const clock = { now: () => now } as Clock;
  const lines: { msg: string; seconds?: number }[] = [];
  const log = pino({ level: 'info' }, { write: (l: string) => void lines.push(JSON.parse(l)) });
  return { outage: new ClusterOutage(clock, log), lines, advance: (ms: number) => (now += ms) };
}

describe('an outage of shards', () => {
  it('is one line when the first part sees it and one when the last part has its shards back', () => {
    const { outage, lines, advance } = setup();
    const status = {};
    const content = {};
    const spout = {};
    outage.shardsUnavailable(content, 'bulk write', 'unavailable_shards_exception: [content][0]');
    outage.shardsUnavailable(status, 'bulk write', 'unavailable_shards_exception: [status][1]');
    outage.shardsUnavailable(spout, 'spout query', '1 of 4 shards not searched');
    advance(30_000);
    outage.shardsAvailable(content);
    outage.shardsAvailable(spout);
    expect(outage.shardsUnavailableMs()).toBe(30_000);
    outage.shardsUnavailable(content, 'bulk write', 'again');
    advance(12_000);
    outage.shardsAvailable(content);
    outage.shardsAvailable(status);
    expect(lines.map((l) => l.msg)).toEqual([
      'OpenSearch shards unavailable (a node holding them left the cluster, a primary is failing over, or no cluster manager is elected): pausing what needs them and retrying; nothing is lost',
      'OpenSearch shards available again after 42 s: writes and queries resumed',
    ]);
    expect(outage.shardsUnavailableMs()).toBeUndefined();
  });

  it('a part that saw no trouble does not end it, and answers of a healthy shard do not make it flap', () => {
    const { outage, lines } = setup();
    const troubled = {};
    const healthy = {};
    outage.shardsUnavailable(troubled, 'bulk write', 'x');
    for (let i = 0; i < 5; i++) outage.shardsAvailable(healthy);
    expect(lines).toHaveLength(1);
    expect(outage.shardsUnavailableMs()).toBe(0);
  });

  it('is apart from the cluster being unreachable: each has its own two lines', () => {
    const { outage, lines, advance } = setup();
    const part = {};
    outage.down('bulk write', new Error('ECONNREFUSED'));
    outage.shardsUnavailable(part, 'bulk write', 'x');
    advance(5000);
    outage.up();
    expect(outage.isDown).toBe(false);
    expect(outage.shardsUnavailableMs()).toBe(5000);
    outage.shardsAvailable(part);
    expect(lines.map((l) => l.msg.split(':')[0])).toEqual([
      'OpenSearch cannot be reached',
      'OpenSearch shards unavailable (a node holding them left the cluster, a primary is failing over, or no cluster manager is elected)',
      'OpenSearch is back after 5 s',
      'OpenSearch shards available again after 5 s',
    ]);
  });
});

describe('what counts as a shard being unavailable', () => {
  it('a 503 or an error type of a shard or node that is not there; not a bad request or a read-only block', () => {
    expect(shardUnavailable(503, 'unavailable_shards_exception')).toBe(true);
    expect(shardUnavailable(503, 'search_phase_execution_exception')).toBe(true);
    expect(shardUnavailable(503, 'cluster_block_exception')).toBe(true);
    expect(shardUnavailable(500, 'node_not_connected_exception')).toBe(true);
    expect(shardUnavailable(500, 'no_shard_available_action_exception')).toBe(true);
    expect(shardUnavailable(400, 'mapper_parsing_exception')).toBe(false);
    expect(shardUnavailable(403, 'cluster_block_exception')).toBe(false);
    expect(shardUnavailable(429, 'es_rejected_execution_exception')).toBe(false);
    expect(shardUnavailable(500, undefined)).toBe(false);
  });

  it('a search answer missing shards for want of a copy: unavailable ones, and red ones that are in neither count', () => {
    expect(
      unavailableShards({ _shards: { total: 4, successful: 4, skipped: 0, failed: 0 } }),
    ).toBeUndefined();
    expect(
      unavailableShards({ _shards: { total: 4, successful: 3, skipped: 1, failed: 0 } }),
    ).toBeUndefined();
    expect(unavailableShards({ _shards: { total: 3, successful: 2, skipped: 0, failed: 0 } })).toBe(
      '1 of 3 shards not searched (no active copy)',
    );
    expect(
      unavailableShards({
        _shards: {
          total: 2,
          successful: 1,
          failed: 1,
          failures: [{ reason: { type: 'node_not_connected_exception', reason: '[node-2] not connected' } }],
        },
      }),
    ).toBe('1 of 2 shards not searched: node_not_connected_exception: [node-2] not connected');
    // A shard that failed for another reason is not an outage (the spout's partial answer covers it).
    expect(
      unavailableShards({
        _shards: {
          total: 2,
          successful: 1,
          failed: 1,
          failures: [
            { status: 429, reason: { type: 'es_rejected_execution_exception', reason: 'queue full' } },
          ],
        },
      }),
    ).toBeUndefined();
    expect(unavailableShards({ hits: { hits: [] } })).toBeUndefined();
  });
});

describe('cluster settings', () => {
  it('replicas "auto" is auto_expand_replicas 0-1; a number is that many, without auto-expansion', () => {
    expect(replicaSettings('auto')).toEqual({ auto_expand_replicas: '0-1' });
    expect(replicaSettings(2)).toEqual({ number_of_replicas: 2, auto_expand_replicas: false });
    const plans = planIndices(buildConfig([parseSet('opensearch.indexer.replicas=0')]).config);
    const index = (role: string) => plans.find((p) => p.role === role)!.body.settings.index;
    expect(index('status')).toMatchObject({ auto_expand_replicas: '0-1' });
    expect(index('status').number_of_replicas).toBeUndefined();
    expect(index('content')).toMatchObject({ number_of_replicas: 0, auto_expand_replicas: false });
  });

  it('replicas other than a number or "auto" are refused with the key named', () => {
    expect(() => buildConfig([parseSet('opensearch.status.replicas=some')])).toThrow(ConfigError);
    expect(() => buildConfig([parseSet('opensearch.status.replicas=some')])).toThrow(
      /opensearch\.status\.replicas.*an integer >= 0 or "auto"/,
    );
  });

  it('opensearch.<type>.sniff falls back to opensearch.sniff, and takes booleans only', () => {
    expect(sniffFor(buildConfig([]).config, 'status')).toBe(false);
    const global = buildConfig([parseSet('opensearch.sniff=true')]).config;
    expect(sniffFor(global, 'indexer')).toBe(true);
    const typed = buildConfig([
      parseSet('opensearch.sniff=true'),
      parseSet('opensearch.indexer.sniff=false'),
    ]).config;
    expect(sniffFor(typed, 'indexer')).toBe(false);
    expect(sniffFor(typed, 'status')).toBe(true);
    expect(() => buildConfig([parseSet('opensearch.status.sniff=maybe')])).toThrow(/a boolean/);
  });
});
