import { CrawlerError } from '../../util/errors.js';

/**
 * `topology.workers: auto` (or `--workers auto`): the available cores, less a quarter of them (at
 * least one) when OpenSearch runs on this machine, at most this instance's share of the status
 * shards, at least one. `reason` says how it was reached, for the start-up line.
 */
export function autoWorkers(o: {
  readonly cores: number;
  readonly localCluster: boolean;
  /** Status shards / instances: one shard per worker at least. */
  readonly maxByShards: number;
}): { readonly workers: number; readonly reason: string } {
  const reserved = o.localCluster ? Math.max(1, Math.floor(o.cores / 4)) : 0;
  const byCores = Math.max(1, o.cores - reserved);
  const workers = Math.max(1, Math.min(byCores, o.maxByShards));
  const cores = `${o.cores} cores${reserved > 0 ? `, ${reserved} left to the OpenSearch node on this machine` : ''}`;
  const reason =
    byCores > o.maxByShards
      ? `${cores}; limited by the status shards (raise opensearch.status.shards and run crawler init --recreate for more)`
      : cores;
  return { workers, reason };
}

/** True when every address of the cluster is on this machine (loopback). */
export function isLocalCluster(addresses: readonly string[]): boolean {
  if (addresses.length === 0) return true;
  return addresses.every((a) => {
    let host: string;
    try {
      host = new URL(a).hostname;
    } catch {
      return false;
    }
    return host === 'localhost' || host === '[::1]' || host === '::1' || /^127\./.test(host);
  });
}

/** `--workers N|auto`: N a whole number of at least 1. */
export function parseWorkersOption(value: string): number | 'auto' {
  const v = value.trim().toLowerCase();
  if (v === 'auto') return 'auto';
  const n = Number(v);
  if (v === '' || !Number.isInteger(n) || n < 1) {
    throw new CrawlerError(
      'BAD_OPTION',
      `--workers must be a whole number of at least 1 or "auto", got "${value}"`,
    );
  }
  return n;
}
