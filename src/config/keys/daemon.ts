import { bool, duration, int, intOr, list, num, oneOf, str } from '../define.js';

/** Keys of the daemon's OpenSearch stages: spout, status writer, indexer (opensearch-conf.yaml names). */
export const daemonKeys = {
  'partition.url.mode': oneOf(
    ['byHost', 'byDomain', 'byIP'],
    'byHost',
    "what the status documents' key (and routing) stands for",
  ),
  'opensearch.status.max.buckets': int(50, 'keys (hosts) per spout query', 1),
  'opensearch.status.max.urls.per.bucket': int(
    2,
    'due URLs per key per spout query; keys take the unused share when fewer than max.buckets are due',
    1,
  ),
  'opensearch.status.filterQuery': list([], 'query_string filters added to the spout query'),
  'opensearch.status.query.timeout': num(-1, 'seconds a spout query may take on the cluster; -1 = no limit'),
  'opensearch.status.query.form': oneOf(
    ['collapse', 'aggregation', 'keys-first', 'per-key'],
    'per-key',
    "spout query: collapse on key with inner hits, StormCrawler's terms + top_hits aggregation, keys-first (the aggregation over the keys a sorted page of the oldest due URLs names) or per-key (those keys' URLs by routed per-key queries: bounded in a status index sorted by nextFetchDate)",
  ),
  'spout.ttl.purgatory': num(
    30,
    'seconds a finished URL is kept from being emitted again (a written one: until a query shows its update)',
    0,
  ),
  'spout.min.delay.queries': int(2000, 'ms between two spout queries at least', 0),
  'spout.max.delay.queries': int(
    20000,
    'ms after which a query is sent even when the buffer is not empty',
    0,
  ),
  'spout.reset.fetchdate.after': num(
    120,
    'seconds a query date is reused before it is moved to now; -1 = never',
  ),
  'topology.workers': intOr(
    ['auto'],
    1,
    'worker processes of crawler run on this machine, each with its own share of the status shards; auto = the cores, less a quarter (at least one) for an OpenSearch node on this machine',
    1,
  ),
  'topology.join': bool(
    false,
    'crawler run joins the elastic crawl of its status index as one member of many (as --join): members share the status shards fairly, adopt those of a member that died and hand shards over to one that joins',
  ),
  'shutdown.deadline': duration(
    30_000,
    'after SIGINT/SIGTERM, how long fetches in flight and pending writes may take before they are given up',
  ),
  'opensearch.status.bulkActions': int(500, 'status updates per bulk request', 1),
  'opensearch.status.flushInterval': duration(5000, 'a status bulk is sent at least this often'),
  'opensearch.status.concurrentRequests': int(2, 'status bulk requests in flight', 1),
  'opensearch.indexer.bulkActions': int(100, 'content documents per bulk request', 1),
  'opensearch.indexer.flushInterval': duration(2000, 'a content bulk is sent at least this often'),
  'opensearch.indexer.concurrentRequests': int(1, 'content bulk requests in flight', 1),
  'opensearch.indexer.reconcile.interval': duration(
    3_600_000,
    'content documents whose URL is ERROR or REDIRECTION are removed at start-up and then this often; 0 = never',
  ),
  'opensearch.bulk.maxBytes': int(
    5_000_000,
    'a bulk request is sent when its body reaches this many bytes',
    1,
  ),
  'opensearch.bulk.maxAttempts': int(5, 'tries of an item the cluster rejects as temporary (429, 5xx)', 1),
  'indexer.md.filter': str('', 'key=value: only pages whose metadata holds it are indexed; empty = all'),
  'indexer.md.mapping': list(
    [
      'parse.title=title',
      'parse.keywords=keywords',
      'parse.description=description',
      'domain',
      'format',
      'feed.*',
    ],
    'metadata copied into content documents: key[=field], key[n], prefix*',
  ),
  'indexer.text.maxlength': int(-1, 'characters of text indexed at most; -1 = all', -1),
  'indexer.canonical.name': str('canonical', 'metadata key of the canonical URL'),
  'indexer.ignore.empty.fields': bool(false, 'leave out blank fields'),
} as const;
