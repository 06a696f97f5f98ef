import { duration, str } from '../define.js';

/** The lease a `crawler run` takes on its share of the status shards (src/opensearch/lease.ts). */
export const leaseKeys = {
  'opensearch.lease.index.name': str(
    'crawler-leases',
    'index of the leases: which process crawls which status shards (one small document per shard)',
  ),
  'opensearch.lease.ttl': duration(
    30_000,
    'a lease not renewed for this long expires (renewed every third of it; writes wait once it is two thirds old)',
  ),
} as const;
