import { availableParallelism } from 'node:os';
import { consoleSettings } from '../../console/server.js';
import type { ShareLease } from '../../opensearch/lease.js';
import { CrawlerError } from '../../util/errors.js';
import { checkCluster, checkCrawlSettings, injectSeeds, shardsFor, shareProblem } from '../compose.js';
import { shareWords, stopWhenLost, takeLease } from '../lease.js';
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
