import { bool, int, intOr, list, str } from '../define.js';

/** Connection and index keys of the OpenSearch backend (StormCrawler's opensearch-conf.yaml names). */
export const opensearchKeys = {
  'opensearch.addresses': list(
    ['http://127.0.0.1:9200'],
    'cluster addresses; a list or one string split on ";" or ","; OPENSEARCH_URL overrides',
    / *[;,] */,
  ),
  'opensearch.user': str('', 'basic auth user (OPENSEARCH_USERNAME overrides); empty = no auth'),
  'opensearch.password': str('', 'basic auth password (OPENSEARCH_PASSWORD overrides)'),
  'opensearch.disable.tls.validation': bool(
    false,
    'trust any certificate and host name (self-signed dev clusters)',
  ),
  'opensearch.connect.timeout': int(10_000, 'milliseconds to wait for a connection and a response', 1),
  'opensearch.sniff': bool(
    false,
    'ask the cluster for its nodes at start, every 5 minutes and after a connection fault, and use them all',
  ),
  'opensearch.embedded': bool(
    true,
    'when no address was configured and nothing answers on 127.0.0.1:9200, start scripts/opensearch',
  ),
  'opensearch.status.index.name': str('status', 'name of the URL status index'),
  'opensearch.status.shards': int(
    4,
    'primary shards of the status index (bounds the number of instances)',
    1,
  ),
  'opensearch.status.replicas': intOr(
    ['auto'],
    'auto',
    'replicas of the status index; auto = 0 on one data node, 1 when the cluster has more',
    0,
  ),
  'opensearch.indexer.index.name': str('content', 'name of the page content index'),
  'opensearch.indexer.shards': int(2, 'primary shards of the content index', 1),
  'opensearch.indexer.replicas': intOr(
    ['auto'],
    'auto',
    'replicas of the content index; auto = 0 on one data node, 1 when the cluster has more',
    0,
  ),
  'opensearch.hosts.index.name': str(
    'hosts',
    'name of the per-host index (render decisions, soft-404 probes; document id = host)',
  ),
} as const;
