import type { Config } from '../config/schema.js';
import type { FetcherOptions } from '../fetch/fetcher-ports.js';
import type { BulkWriterOptions } from '../opensearch/bulk-writer.js';
import type { IndexerOptions } from '../opensearch/content-doc.js';
import type { SpoutOptions } from '../opensearch/spout/spout.js';
import type { CrawlerOptions } from '../pipeline/crawler.js';
import { ConfigError } from '../util/errors.js';

/*
 * The configuration, read once into each component's options. Units change here (seconds to ms,
 * -1 kept as "none") so that the components never see a config key.
 */

export function bulkOptions(config: Config, type: 'status' | 'indexer'): BulkWriterOptions {
  const actions = config[`opensearch.${type}.bulkActions`];
  return {
    maxActions: actions,
    maxBytes: config['opensearch.bulk.maxBytes'],
    flushIntervalMs: config[`opensearch.${type}.flushInterval`],
    concurrency: config[`opensearch.${type}.concurrentRequests`],
    // Room for a few bulks of each request in flight: enough to keep OpenSearch busy, small enough
    // to bound memory during an outage.
    maxPending: actions * (config[`opensearch.${type}.concurrentRequests`] + 2),
    maxAttempts: config['opensearch.bulk.maxAttempts'],
    backoffMs: { base: 200, max: 10_000 },
    // Half the client's request timeout: a bulk touching a red shard is answered before it times out.
    shardWaitMs: Math.max(1000, Math.floor(config['opensearch.connect.timeout'] / 2)),
  };
}

export function fetcherOptions(config: Config): FetcherOptions {
  const maxThreadsRules = config.patterned
    .filter((e) => e.key.startsWith('fetcher.maxThreads.'))
    .map((e) => {
      const source = e.key.slice('fetcher.maxThreads.'.length);
      try {
        return { regex: new RegExp(source), threads: Number(e.value) };
      } catch (err) {
        throw new ConfigError([`${e.key}: "${source}" is not a valid regular expression (${String(err)})`]);
      }
    });
  return {
    queue: {
      delayMs: config['fetcher.server.delay'] * 1000,
      minDelayMs: config['fetcher.server.min.delay'] * 1000,
      threadsPerQueue: config['fetcher.threads.per.queue'],
      maxThreadsRules,
    },
    mode: config['fetcher.queue.mode'],
    threads: config['fetcher.threads.number'],
    maxUrlsInQueues: config['fetcher.max.urls.in.queues'],
    queueTimeoutMs: config['fetcher.timeout.queue'] < 0 ? -1 : config['fetcher.timeout.queue'] * 1000,
    crawlDelay: {
      serverDelayMs: config['fetcher.server.delay'] * 1000,
      maxCrawlDelayMs: config['fetcher.max.crawl.delay'] < 0 ? -1 : config['fetcher.max.crawl.delay'] * 1000,
      forceMax: config['fetcher.max.crawl.delay.force'],
      forceServerDelay: config['fetcher.server.delay.force'],
    },
    prefix: config['protocol.md.prefix'],
    redirectionsAllowed: config['redirections.allowed'],
    sitemapDiscovery: config['sitemap.discovery'],
    hosts: {
      factor: config['fetcher.backoff.factor'],
      maxDelayMs: config['fetcher.backoff.max.delay'] * 1000,
      maxRetryAfterMs: config['fetcher.max.retry.after'] * 1000,
      downAfter: config['fetcher.host.down.after'],
      downBackoffMs: config['fetcher.host.down.backoff'] * 1000,
      downMaxBackoffMs: config['fetcher.host.down.max.backoff'] * 1000,
    },
  };
}

export function spoutOptions(config: Config, shards?: readonly number[]): SpoutOptions {
  return {
    index: config['opensearch.status.index.name'],
    form: config['opensearch.status.query.form'],
    maxBuckets: config['opensearch.status.max.buckets'],
    maxUrlsPerBucket: config['opensearch.status.max.urls.per.bucket'],
    filterQueries: config['opensearch.status.filterQuery'],
    queryTimeoutSecs: config['opensearch.status.query.timeout'],
    minDelayMs: config['spout.min.delay.queries'],
    maxDelayMs: config['spout.max.delay.queries'],
    resetFetchDateAfterMs:
      config['spout.reset.fetchdate.after'] < 0 ? -1 : config['spout.reset.fetchdate.after'] * 1000,
    purgatoryMs: config['spout.ttl.purgatory'] * 1000,
    shards,
  };
}

export function indexerOptions(config: Config): IndexerOptions {
  return {
    crawl: config['opensearch.status.index.name'],
    textMaxLength: config['indexer.text.maxlength'],
    mdMapping: config['indexer.md.mapping'],
    canonicalKey: config['indexer.canonical.name'],
    mdFilter: config['indexer.md.filter'],
    ignoreEmptyFields: config['indexer.ignore.empty.fields'],
    dedupMode: config['dedup.mode'],
  };
}

/** How often a crawl (and a supervisor of workers) logs its progress line. */
export const PROGRESS_INTERVAL_MS = 10_000;

/**
 * How far ahead `--once` looks for due URLs: one unit of status.updater.unit.round.date, the
 * rounding of the dates the status rules write.
 */
export function onceLookAheadMs(config: Config): number {
  return { SECOND: 1000, MINUTE: 60_000, HOUR: 3_600_000 }[config['status.updater.unit.round.date']];
}

export function crawlerOptions(config: Config): CrawlerOptions {
  return {
    fetcher: fetcherOptions(config),
    // Two pages per parser thread keep each busy while the event loop hands over the next.
    parseConcurrency: Math.max(1, config['parser.threads'] * 2),
    inlineParse: config['parser.threads'] === 0,
    parseBacklog: Math.max(16, Math.ceil(config['fetcher.threads.number'] / 2)),
    progressIntervalMs: PROGRESS_INTERVAL_MS,
    onceLookAheadMs: onceLookAheadMs(config),
  };
}
