import type { Client } from '@opensearch-project/opensearch';
import type { Config } from '../config/schema.js';
import { CrawlerError } from '../util/errors.js';
import type { Logger } from '../util/log.js';

/*
 * Shard arithmetic: which status shards a process reads when instances (--instances) and worker
 * processes (--workers) share the status index. Pure but for the two functions that ask the
 * cluster its shard count.
 */

/** How this process shares the status index: instance I of M, worker w of N on its machine. */
export interface Share {
  readonly instances: number;
  readonly instance: number;
  readonly workers: number;
  readonly worker: number;
}

/** 0..n-1. */
export const range = (n: number) => Array.from({ length: n }, (_, s) => s);

/** The status shards instance `i` of `m` reads: every shard s with s % m == i. */
export function shardsFor(total: number, instances: number, instance: number): number[] {
  return range(total).filter((s) => s % instances === instance);
}

/**
 * Why `share` cannot work on a status index of `total` shards (each part needs one), or undefined.
 * Worker w of instance I reads the shards s with s % (M x N) == I + M x w: a part of instance I's own
 * share (s % M == I), so the workers of all instances together read every shard exactly once.
 */
export function shareProblem(total: number, share: Share, statusIndex: string): string | undefined {
  const { instances, workers } = share;
  if (instances * workers <= total) return undefined;
  const fix = 'raise opensearch.status.shards and run crawler init --recreate';
  if (workers === 1) {
    return (
      `--instances ${instances} exceeds the ${total} shards of the status index "${statusIndex}": ` +
      `each instance needs at least one shard (${fix})`
    );
  }
  const parts = instances > 1 ? `--workers ${workers} x --instances ${instances}` : `--workers ${workers}`;
  return (
    `${parts} exceeds the ${total} shards of the status index "${statusIndex}": each worker needs at ` +
    `least one shard (${fix}, or use fewer workers)`
  );
}

/** The status shards of `share`, or undefined for all (one instance, one worker). */
export function shardsOfShare(total: number, share: Share): number[] | undefined {
  const parts = share.instances * share.workers;
  if (parts <= 1) return undefined;
  return shardsFor(total, parts, share.instance + share.instances * share.worker);
}

/** The number of primary shards of the status index. */
export async function statusShardCount(client: Client, config: Config): Promise<number> {
  const res = await client.indices.getSettings({ index: config['opensearch.status.index.name'] });
  const settings = Object.values(res.body)[0] as { settings: { index: { number_of_shards: string } } };
  return Number(settings.settings.index.number_of_shards);
}

/**
 * This process's status shards, or undefined for all (one instance, one worker). A share with more
 * parts than shards is a CrawlerError (TOO_MANY_WORKERS, TOO_MANY_INSTANCES).
 */
export async function chooseShards(
  client: Client,
  config: Config,
  log: Logger,
  share: Share,
): Promise<number[] | undefined> {
  if (share.instances * share.workers <= 1) return undefined;
  const statusIndex = config['opensearch.status.index.name'];
  const total = await statusShardCount(client, config);
  const problem = shareProblem(total, share, statusIndex);
  if (problem) throw new CrawlerError(share.workers > 1 ? 'TOO_MANY_WORKERS' : 'TOO_MANY_INSTANCES', problem);
  const shards = shardsOfShare(total, share)!;
  const { instances, instance, workers, worker } = share;
  const who = [
    ...(workers > 1 ? [`worker ${worker} of ${workers}`] : []),
    ...(instances > 1 ? [`instance ${instance} of ${instances}`] : []),
  ].join(', ');
  log.info(
    { instance, instances, ...(workers > 1 ? { worker, workers } : {}), shards },
    `${who} reads status shards ${shards.join(',')}`,
  );
  return shards;
}
