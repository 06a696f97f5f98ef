import type { Client } from '@opensearch-project/opensearch';
import type { Config } from '../config/schema.js';
import { ShareLease } from '../opensearch/lease.js';
import type { Logger } from '../util/log.js';

/** How a process shares the status index, in words for its lease (and for others' refusals). */
export function shareWords(share: {
  readonly instances: number;
  readonly instance: number;
  readonly workers?: number;
  readonly worker?: number;
}): string {
  const parts = [
    ...(share.instances > 1 ? [`instance ${share.instance} of ${share.instances}`] : []),
    ...((share.workers ?? 1) > 1 ? [`${share.workers} workers`] : []),
  ];
  return parts.length > 0 ? parts.join(', ') : 'all shards';
}

/**
 * `crawler run` (and the supervisor of `run --workers`): the lease on the status shards it reads,
 * taken before anything is written; throws a CrawlerError naming the holder when another process
 * holds any of them.
 */
export function takeLease(
  client: Client,
  config: Config,
  log: Logger,
  wanted: { readonly shards: readonly number[]; readonly share: string },
): Promise<ShareLease> {
  const { shards, share } = wanted;
  return ShareLease.acquire(
    client,
    {
      index: config['opensearch.lease.index.name'],
      statusIndex: config['opensearch.status.index.name'],
      shards,
      share,
      ttlMs: config['opensearch.lease.ttl'],
    },
    log,
  );
}

/**
 * A lease found taken by another crawl stops this one: two owners of a share is what it prevents.
 * Its writes were fenced already (nothing more reaches the cluster); this says so in one line. A loss
 * found before this is called (during start-up) is heard at once.
 */
export function stopWhenLost(lease: ShareLease, stop: () => void, log: Logger): void {
  lease.onLost((by) => {
    log.warn(
      `the lease on this crawl's status shards was taken by ${by} (this process did not renew it within ` +
        'opensearch.lease.ttl): stopping without writing anything more, so that two crawls do not ' +
        'fetch the same hosts (the URLs in flight keep their previous state and come back when due)',
    );
    stop();
  });
}
