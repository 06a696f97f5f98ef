import type { Client } from '@opensearch-project/opensearch';
import type { Config } from '../config/schema.js';
import type { Archive } from '../fetch/archive.js';
import type { FetcherOptions } from '../fetch/fetcher.js';
import { robotsSource } from '../fetch/ports.js';
import { loadURLFilters } from '../filters/load.js';
import { createStatusUpdater, type StatusUpdater } from '../model/status-updater.js';
import { TransitionLog, type TransitionRecord } from '../model/transition.js';
import { BulkWriter, type BulkWriterOptions } from '../opensearch/bulk-writer.js';
import { ContentDeleter } from '../opensearch/deleter.js';
import { Spout } from '../opensearch/spout.js';
import { TransitionsIndex } from '../opensearch/transitions.js';
import { HttpProtocol } from '../protocol/http/client.js';
import { RobotsService } from '../protocol/robots/fetch-robots.js';
import type { Clock } from '../util/clock.js';
import { ConfigError } from '../util/errors.js';
import type { Logger } from '../util/log.js';
import type { CrawlerOptions, CrawlerParts } from './crawler.js';
import type { PageParser } from './ports.js';
import { StatusWriter } from './status-writer.js';

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
  };
}

/** The status-writing half of the pipeline; `inject` needs only this. */
export interface StatusSide {
  readonly updater: StatusUpdater;
  readonly statusBulk: BulkWriter;
  readonly contentBulk: BulkWriter;
  readonly deleter: ContentDeleter;
  readonly writer: StatusWriter;
  /** Every bulk writer, to flush and close together. */
  readonly bulks: readonly BulkWriter[];
  /** Writes everything pending (deletions included) and stops the writers' timers. */
  flushAndClose(): Promise<void>;
}

export function buildStatusSide(
  client: Client,
  config: Config,
  clock: Clock,
  log: Logger,
  settled: (url: string, written: boolean) => void = () => {},
  onTransition?: (record: TransitionRecord) => void,
): StatusSide {
  const updater = createStatusUpdater(config, clock);
  const statusBulk = new BulkWriter(client, bulkOptions(config, 'status'), clock, log);
  const contentBulk = new BulkWriter(client, bulkOptions(config, 'indexer'), clock, log);
  const deleter = new ContentDeleter(client, contentBulk, config['opensearch.indexer.index.name'], log);
  const transitionsName = config['status.transitions.index.name'];
  const transitionsBulk =
    transitionsName === '' ? undefined : new BulkWriter(client, bulkOptions(config, 'indexer'), clock, log);
  const transitions = transitionsBulk && new TransitionsIndex(transitionsBulk, transitionsName, clock, log);
  const writer = new StatusWriter({
    updater,
    bulk: statusBulk,
    index: config['opensearch.status.index.name'],
    partition: config['partition.url.mode'],
    transitions: TransitionLog.fromConfig(log.child({ component: 'transitions' }), config),
    deleter,
    log,
    settled,
    recordTransition: (r) => {
      transitions?.record(r);
      onTransition?.(r);
    },
  });
  const bulks = [contentBulk, statusBulk, ...(transitionsBulk ? [transitionsBulk] : [])];
  const flushAndClose = async () => {
    for (const b of bulks) await b.flush();
    await deleter.flush();
    for (const b of bulks) b.close();
    deleter.close();
  };
  return { updater, statusBulk, contentBulk, deleter, writer, bulks, flushAndClose };
}

/** The URL filter chain from urlfilters.config.file, as a function of (source, metadata, url). */
export function buildFilter(config: Config, log: Logger) {
  const chain = loadURLFilters(config, { logger: log });
  return {
    chain,
    filter: (source: URL | null, md: Parameters<typeof chain.filter>[1], url: string) =>
      chain.filter(source, md, url),
  };
}

export interface BuildOptions {
  readonly shards?: readonly number[];
  readonly parser: PageParser;
  /** Sees every transition record once written (the demo's table). */
  readonly onTransition?: (record: TransitionRecord) => void;
  /** WARC output (src/warc): the fetcher archives every answer; the protocol captures the heads. */
  readonly archive?: Archive;
}

/** Every part of `crawler run`, from the validated config. Throws ConfigError for bad settings. */
export function buildCrawler(
  client: Client,
  config: Config,
  clock: Clock,
  log: Logger,
  options: BuildOptions,
): { parts: CrawlerParts; crawlerOptions: CrawlerOptions; protocol: HttpProtocol } {
  // WARC output: the protocol keeps the heads only when there is an archive to write them to.
  const protocol = new HttpProtocol(config, { clock, capture: options.archive !== undefined });
  const robotsService = new RobotsService(config, { protocol, clock });
  const robots = robotsSource(robotsService);
  const spout = new Spout(
    client,
    {
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
      shards: options.shards,
    },
    clock,
    log,
  );
  const side = buildStatusSide(client, config, clock, log, (url) => spout.settle(url), options.onTransition);
  const { filter } = buildFilter(config, log);
  const parts: CrawlerParts = {
    client,
    statusIndex: config['opensearch.status.index.name'],
    spout,
    statusWriter: side.writer,
    indexer: {
      bulk: side.contentBulk,
      index: config['opensearch.indexer.index.name'],
      options: {
        textMaxLength: config['indexer.text.maxlength'],
        mdMapping: config['indexer.md.mapping'],
        canonicalKey: config['indexer.canonical.name'],
        mdFilter: config['indexer.md.filter'],
        ignoreEmptyFields: config['indexer.ignore.empty.fields'],
      },
      deleter: side.deleter,
      clock,
      log,
    },
    parser: options.parser,
    protocol,
    robots,
    archive: options.archive, // WARC output
    filter: (source, md, target) => filter(source, md, target),
    transfer: side.updater.transfer,
    bulks: side.bulks,
    deleter: side.deleter,
    clock,
    log,
  };
  const threads = config['fetcher.threads.number'];
  return {
    parts,
    protocol,
    crawlerOptions: {
      fetcher: fetcherOptions(config),
      // Two pages per parser thread keep each busy while the event loop hands over the next.
      parseConcurrency: Math.max(1, config['parser.threads'] * 2),
      parseBacklog: Math.max(16, Math.ceil(threads / 2)),
      progressIntervalMs: 10_000,
      onceLookAheadMs: { SECOND: 1000, MINUTE: 60_000, HOUR: 3_600_000 }[
        config['status.updater.unit.round.date']
      ],
    },
  };
}
