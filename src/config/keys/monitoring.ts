import { duration, int, str } from '../define.js';

/**
 * Monitoring (src/metrics, src/console): the metrics series in OpenSearch, the live console and its
 * Prometheus endpoint. StormCrawler's names where it has one (opensearch.metrics.index.name).
 */
export const monitoringKeys = {
  'metrics.interval': duration(
    10_000,
    'each process writes its counters (per-interval deltas) and gauges to the metrics index this often; 0 = not written',
  ),
  'opensearch.metrics.index.name': str(
    'metrics',
    'base name of the daily metrics indices (NAME-yyyy-MM-dd, UTC), read through the pattern NAME*',
  ),
  'metrics.retention.days': int(
    7,
    'daily metrics indices older than this many days are deleted by the crawler; 0 = kept',
    0,
  ),
  'console.host': str(
    '127.0.0.1',
    'address the live console (and its /metrics) listens on; one other than loopback needs console.token',
  ),
  'console.port': int(
    8099,
    'port of the live console, its JSON API and /metrics (crawler run; the supervisor under --workers); 0 = off',
    0,
  ),
  'console.token': str(
    '',
    'token every console request needs (cookie from ?token=, or Authorization: Bearer); empty = random, printed once at start-up',
  ),
} as const;
