import { availableParallelism } from 'node:os';
import { consoleSettings } from '../../console/server.js';
import type { ShareLease } from '../../opensearch/lease.js';
import { systemClock } from '../../util/clock.js';
import { CrawlerError } from '../../util/errors.js';
import { checkCluster, checkCrawlSettings, injectSeeds, shardsFor, shareProblem } from '../compose.js';
import { shareWords, stopWhenLost, takeLease } from '../lease.js';
import { memberRows } from '../members.js';
import type { Outcome } from '../outcome.js';
import { autoWorkers, isLocalCluster } from './count.js';
import { type PoolOptions, WorkerPool } from './pool.js';

export interface SuperviseOptions extends PoolOptions {
  readonly workers: number | 'auto';
  readonly seeds: readonly string[];
}

/**
 * `crawler run --workers N`: checks the cluster and the share of the status shards once, writes the
 * seeds once, then runs N worker processes of this CLI, each a `crawler run` of its own part of the
 * share (see compose.ts shareProblem), and supervises them. Resolves to how it ended.
 */
export async function supervise(o: SuperviseOptions): Promise<Outcome> {
  const { config, log } = o;
  await checkCrawlSettings(config);
  consoleSettings(config);
  const cluster = await checkCluster(config, log);
  let workers: number;
  let lease: ShareLease | undefined;
  try {
    const statusIndex = config['opensearch.status.index.name'];
    if (o.workers === 'auto') {
      const auto = autoWorkers({
        cores: availableParallelism(),
        localCluster: isLocalCluster(config['opensearch.addresses']),
        maxByShards: Math.floor(cluster.statusShards / o.instances),
      });
      workers = auto.workers;
      log.info(
        { workers },
        `topology.workers auto: ${workers} worker${workers === 1 ? '' : 's'} (${auto.reason})`,
      );
    } else workers = o.workers;
    const problem = shareProblem(cluster.statusShards, { ...o, workers, worker: 0 }, statusIndex);
    if (problem) throw new CrawlerError('TOO_MANY_WORKERS', problem);
    // The lease on the instance's share is the supervisor's: a worker started again needs none.
    const shards = shardsFor(cluster.statusShards, o.instances, o.instance);
    lease = await takeLease(cluster.client, config, log, { shards, share: shareWords({ ...o, workers }) });
    await injectSeeds(cluster.client, config, o.seeds, log);
  } catch (e) {
    await lease?.release();
    await cluster.client.close();
    throw e;
  }
  const supervisor = new WorkerPool(o, workers, cluster.url, lease);
  stopWhenLost(lease, () => supervisor.abandon(), log);
  try {
    const outcome = await supervisor.run();
    return lease.lost !== undefined ? 'failed' : outcome;
  } finally {
    await lease.release();
    await cluster.client.close();
  }
}

/** `crawler run --join --workers N`: what the supervisor of N members needs. */
export type MembersOptions = Pick<
  SuperviseOptions,
  'config' | 'log' | 'out' | 'forward' | 'workers' | 'seeds' | 'clock'
>;

/**
 * `crawler run --join --workers N`: N worker processes, each a member of the elastic crawl of its own
 * (its member document, heartbeat, fair share of the status shards through their leases, handovers),
 * named after this machine and its worker number (app/member.ts memberName). The supervisor checks
 * the cluster once, writes the seeds once and holds no lease: a worker that dies loses its shards
 * when their leases expire, as any member does, and the one started in its place joins anew.
 * SIGINT/SIGTERM reach each worker once: each hands its shards over and leaves.
 */
export async function superviseMembers(o: MembersOptions): Promise<Outcome> {
  const { config, log } = o;
  await checkCrawlSettings(config);
  consoleSettings(config);
  const cluster = await checkCluster(config, log);
  let workers: number;
  try {
    const shards = cluster.statusShards;
    if (o.workers === 'auto') {
      const auto = autoWorkers({
        cores: availableParallelism(),
        localCluster: isLocalCluster(config['opensearch.addresses']),
        maxByShards: shards,
      });
      workers = auto.workers;
      log.info(
        { workers },
        `topology.workers auto: ${workers} member${workers === 1 ? '' : 's'} (${auto.reason})`,
      );
    } else workers = o.workers;
    if (workers > shards) {
      throw new CrawlerError(
        'TOO_MANY_WORKERS',
        `--workers ${workers} with --join: more members on this machine than the ${shards} status shards of ` +
          `"${config['opensearch.status.index.name']}" (a member holds one shard at least to crawl; raise ` +
          'opensearch.status.shards and run crawler init --recreate, or start fewer workers)',
      );
    }
    await injectSeeds(cluster.client, config, o.seeds, log);
  } finally {
    await cluster.client.close();
  }
  const pool = new WorkerPool(
    {
      ...o,
      instances: 1,
      instance: 0,
      once: false,
      join: { members: (client) => memberRows(client, config, (o.clock ?? systemClock).now()) },
    },
    workers,
    cluster.url,
  );
  return pool.run();
}
