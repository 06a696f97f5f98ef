import type { Client } from '@opensearch-project/opensearch';
import type { Config } from '../config/schema.js';
import { robotsSource } from '../fetch/ports.js';
import { type CrawlMeters, crawlMeters } from '../metrics/crawl.js';
import type { MetricsRegistry } from '../metrics/registry.js';
import { Metadata } from '../model/metadata.js';
import type { MetadataTransfer } from '../model/metadata-transfer.js';
import { createStatusUpdater } from '../model/status-updater.js';
import { TransitionLog, type TransitionRecord } from '../model/transition.js';
import { BulkWriter } from '../opensearch/bulk-writer.js';
import { connect } from '../opensearch/client.js';
import { ContentWriter } from '../opensearch/content-store.js';
import { ensureCrawlIndices } from '../opensearch/crawl-indices.js';
import { ContentDeleter } from '../opensearch/deleter.js';
import type { DueWriter } from '../opensearch/due.js';
import type { WriteFence } from '../opensearch/fence.js';
import { ClusterOutage } from '../opensearch/outage.js';
import { ContentReconciler } from '../opensearch/reconcile.js';
import { RenderDecisions } from '../opensearch/render-decisions.js';
import { Spout } from '../opensearch/spout/spout.js';
import { StatusWriter } from '../opensearch/status-store.js';
import { TransitionsIndex } from '../opensearch/transitions.js';
import { createPageParser } from '../parse/stage.js';
import type { PageParser } from '../parse/types.js';
import { ParserPool } from '../parse/worker/pool.js';
import { Crawler } from '../pipeline/crawler.js';
import { seedRejected, urlProblem } from '../pipeline/inject.js';
import { shareWords, stopWhenLost, takeLease } from '../pipeline/lease.js';
import { bulkOptions, crawlerOptions, indexerOptions, spoutOptions } from '../pipeline/options.js';
import { buildDueWriter, buildPageChecks } from '../pipeline/page-checks.js';
import type { Stores } from '../pipeline/ports.js';
import { knownSeedLine, knownSeedsNotDue, rejudgeSettingRefusals } from '../pipeline/seeds.js';
import { HttpProtocol } from '../protocol/http/client.js';
import { checkAgentName } from '../protocol/http/user-agent.js';
import { RobotsService } from '../protocol/robots/fetch-robots.js';
import { buildRendering, type Rendering } from '../render/build.js';
import { renderSettings } from '../render/settings.js';
import { buildDocuments, tikaOptions } from '../tika/build.js';
import { loadURLFilters } from '../urlfilters/load.js';
import { type Clock, systemClock } from '../util/clock.js';
import { CrawlerError } from '../util/errors.js';
import { type Logger, silentLogger, transitionLogger } from '../util/log.js';
import { shown } from '../util/shown.js';
import { openWarcOutput } from '../warc/output.js';
import { statusCodeFilter } from '../warc/records.js';

/*
 * The composition root: the one place that turns a validated configuration into running parts.
 * `crawler run`, `crawler demo`, `crawler inject` and the tests all build through here.
 */

/** The OpenSearch side of a crawl: the status rules and every writer, flushed and closed together. */
export interface StoreSet extends Stores {
  readonly status: StatusWriter;
  readonly content: ContentWriter;
  /** The metadata transfer of the status rules (what outlinks inherit). */
  readonly transfer: MetadataTransfer;
  readonly deleter: ContentDeleter;
  /** Makes near-duplicates and soft-404 suspects due (pipeline/page-checks.ts); none when off. */
  readonly due: DueWriter | undefined;
  /** Stops the writers' timers; after the last flush. */
  close(): void;
}

export function buildStores(
  client: Client,
  config: Config,
  clock: Clock,
  log: Logger,
  onTransition?: (record: TransitionRecord) => void,
  /** Shared with the spout: one view of an outage, logged once. */
  outage: ClusterOutage = new ClusterOutage(clock, log),
  /** Bulk request durations, for the metrics. */
  meters?: Pick<CrawlMeters, 'bulk'>,
  /** The crawl's lease: every write waits for it, and none is sent once it is lost (fence.ts). */
  fence?: WriteFence,
): StoreSet {
  const updater = createStatusUpdater(config, clock);
  const timed = (o: ReturnType<typeof bulkOptions>, index: 'status' | 'content' | 'transitions') => ({
    ...o,
    ...(meters ? { onRequest: meters.bulk(index) } : {}),
    ...(fence ? { fence } : {}),
  });
  const statusBulk = new BulkWriter(
    client,
    timed(bulkOptions(config, 'status'), 'status'),
    clock,
    log,
    outage,
  );
  const contentBulk = new BulkWriter(
    client,
    timed(bulkOptions(config, 'indexer'), 'content'),
    clock,
    log,
    outage,
  );
  const contentIndex = config['opensearch.indexer.index.name'];
  const due = buildDueWriter(client, config, clock, log, fence);
  // When a page's content goes, its near-duplicates become due: one of them takes its place.
  const released = config['dedup.mode'] === 'off' ? undefined : (url: string) => due?.deleted(url);
  const deleter = new ContentDeleter(client, contentBulk, contentIndex, log, {
    ...(released ? { onDelete: released } : {}),
    ...(fence ? { fence } : {}),
  });
  const transitionsName = config['status.transitions.index.name'];
  const transitionsBulk =
    transitionsName === ''
      ? undefined
      : new BulkWriter(client, timed(bulkOptions(config, 'indexer'), 'transitions'), clock, log, outage);
  const transitions = transitionsBulk && new TransitionsIndex(transitionsBulk, transitionsName, clock, log);
  const status = new StatusWriter({
    updater,
    bulk: statusBulk,
    index: config['opensearch.status.index.name'],
    partition: config['partition.url.mode'],
    transitions: TransitionLog.fromConfig(transitionLogger(log), config),
    deleter,
    log,
    recordTransition: (r) => {
      transitions?.record(r);
      onTransition?.(r);
    },
  });
  const content = new ContentWriter({
    bulk: contentBulk,
    index: contentIndex,
    options: indexerOptions(config),
    deleter,
    clock,
    log,
  });
  const bulks = [contentBulk, statusBulk, ...(transitionsBulk ? [transitionsBulk] : [])];
  return {
    status,
    content,
    transfer: updater.transfer,
    deleter,
    due,
    async flush() {
      // A stored page queues its FETCHED status and an ERROR a deletion: flush until nothing is left.
      do {
        for (const b of bulks) await b.flush();
        await deleter.flush();
        await due?.flush();
      } while (bulks.some((b) => b.pending > 0) || status.pending > 0);
    },
    sendNow() {
      for (const b of bulks) b.sendNow();
    },
    close() {
      for (const b of bulks) b.close();
      deleter.close();
      due?.close();
    },
  };
}

const range = (n: number) => Array.from({ length: n }, (_, s) => s);

/** The status shards instance `i` of `m` reads: every shard s with s % m == i. */
export function shardsFor(total: number, instances: number, instance: number): number[] {
  return Array.from({ length: total }, (_, s) => s).filter((s) => s % instances === instance);
}

async function shardCount(client: Client, index: string): Promise<number> {
  const res = await client.indices.getSettings({ index });
  const settings = Object.values(res.body)[0] as { settings: { index: { number_of_shards: string } } };
  return Number(settings.settings.index.number_of_shards);
}

/** How this process shares the status index: instance I of M, worker w of N on its machine. */
export interface Share {
  readonly instances: number;
  readonly instance: number;
  readonly workers: number;
  readonly worker: number;
}

/**
 * Why `share` cannot work on a status index of `total` shards (each part needs one), or undefined.
 * Worker w of instance I reads the shards s with s % (M x N) == I + M x w: a part of instance I's own
 * share (s % M == I), so the workers of all instances together read every shard exactly once.
 */
export function shareProblem(total: number, share: Share, statusIndex: string): string | undefined {
  const { instances, workers } = share;
  if (instances * workers <= total) return undefined;
  const fix = 'raise opensearch.status.shards and run crawler init --recreate';
  if (workers === 1) {
    return (
      `--instances ${instances} exceeds the ${total} shards of the status index "${statusIndex}": ` +
      `each instance needs at least one shard (${fix})`
    );
  }
  const parts = instances > 1 ? `--workers ${workers} x --instances ${instances}` : `--workers ${workers}`;
  return (
    `${parts} exceeds the ${total} shards of the status index "${statusIndex}": each worker needs at ` +
    `least one shard (${fix}, or use fewer workers)`
  );
}

/** The status shards of `share`, or undefined for all (one instance, one worker). */
export function shardsOfShare(total: number, share: Share): number[] | undefined {
  const parts = share.instances * share.workers;
  if (parts <= 1) return undefined;
  return shardsFor(total, parts, share.instance + share.instances * share.worker);
}

/** The number of primary shards of the status index. */
export async function statusShardCount(client: Client, config: Config): Promise<number> {
  return shardCount(client, config['opensearch.status.index.name']);
}

/** This process's status shards, or undefined for all (one instance, one worker). */
async function chooseShards(
  client: Client,
  config: Config,
  log: Logger,
  share: Share,
): Promise<number[] | undefined> {
  if (share.instances * share.workers <= 1) return undefined;
  const statusIndex = config['opensearch.status.index.name'];
  const total = await shardCount(client, statusIndex);
  const problem = shareProblem(total, share, statusIndex);
  if (problem) throw new CrawlerError(share.workers > 1 ? 'TOO_MANY_WORKERS' : 'TOO_MANY_INSTANCES', problem);
  const shards = shardsOfShare(total, share)!;
  const { instances, instance, workers, worker } = share;
  const who = [
    ...(workers > 1 ? [`worker ${worker} of ${workers}`] : []),
    ...(instances > 1 ? [`instance ${instance} of ${instances}`] : []),
  ].join(', ');
  log.info(
    { instance, instances, ...(workers > 1 ? { worker, workers } : {}), shards },
    `${who} reads status shards ${shards.join(',')}`,
  );
  return shards;
}

export interface CrawlOptions {
  readonly log: Logger;
  /**
   * The cluster to use. Without one, `buildCrawl` connects (starting the embedded node when nothing
   * is configured), creates missing indices, and closes the client in `close`.
   */
  readonly client?: Client;
  readonly clock?: Clock;
  /** Scale-out: this process reads the status shards s with s % instances == instance. */
  readonly instances?: number;
  readonly instance?: number;
  /** `crawler run --workers`: worker `worker` of `workers` reads a part of the instance's share. */
  readonly workers?: number;
  readonly worker?: number;
  /** Injected as DISCOVERED (through the URL filters) before the crawl starts. */
  readonly seeds?: readonly string[];
  /** `crawler run`: take the lease on this process's share of the status shards (see lease.ts). */
  readonly lease?: boolean;
  /** A worker of `run --workers`: the fence of its supervisor's lease (without a lease of its own). */
  readonly fence?: WriteFence;
  /** Sees every transition record once written (the demo's table). */
  readonly onTransition?: (record: TransitionRecord) => void;
}

export interface Crawl {
  readonly crawler: Crawler;
  /** The crawl's metrics (src/metrics): a stage adds one with a line; read by the series and /metrics. */
  readonly metrics: MetricsRegistry;
  /** The cluster connection, open until `close`. */
  readonly client: Client;
  /** The cluster's first address, for logs. */
  readonly cluster: string | undefined;
  /** The User-Agent sent with every request. */
  readonly userAgent: string;
  /** Rendering in a browser (src/render): its renderer when pages may be rendered. */
  readonly rendering: Rendering;
  /** Who took this crawl's lease on its status shards, once it is lost (then nothing is written). */
  leaseLost(): string | undefined;
  /**
   * Closes what `buildCrawl` opened (connections, parser threads, timers, the WARC file); once,
   * after the run. Throws the error that stopped the crawl, if one did (a WARC disk error).
   */
  close(): Promise<void>;
}

/**
 * Every part of a crawl, from the validated configuration. Throws a ConfigError for bad settings
 * (before anything is fetched) and a CrawlerError for an unusable cluster or scale-out setting;
 * whatever it opened before failing is closed again.
 */
export async function buildCrawl(config: Config, options: CrawlOptions): Promise<Crawl> {
  const { log } = options;
  const clock = options.clock ?? systemClock;
  // Checked before anything else: a crawl without a name would be refused later anyway.
  checkAgentName(config['http.agent.name']);
  const closers: (() => unknown)[] = [];
  const closeAll = async () => {
    for (const c of closers.reverse()) await c();
    closers.length = 0;
  };
  try {
    let client = options.client;
    let cluster: string | undefined;
    if (!client) {
      const conn = await connect(config, log);
      client = conn.client;
      cluster = conn.url;
      const owned = client;
      closers.push(() => owned.close());
      await ensureCrawlIndices(client, config, log);
    }
    const share = {
      instances: options.instances ?? 1,
      instance: options.instance ?? 0,
      workers: options.workers ?? 1,
      worker: options.worker ?? 0,
    };
    const shards = await chooseShards(client, config, log, share);
    // One owner per share: taken before anything is written, released after everything is.
    const lease = options.lease
      ? await takeLease(
          client,
          config,
          log,
          shards ?? range(await statusShardCount(client, config)),
          shareWords(share),
        )
      : undefined;
    if (lease) closers.push(() => lease.release());
    // Everything that validates settings comes before anything is written or started.
    // Which filter dropped which URL, at debug level (the counts are in the crawl summary).
    const dropLog = log.isLevelEnabled('debug')
      ? (name: string, url: string) => log.debug({ filter: name, url: shown(url) }, `URL dropped by ${name}`)
      : undefined;
    const filter = loadURLFilters(config, { logger: log, ...(dropLog ? { onDrop: dropLog } : {}) });
    const loopOptions = crawlerOptions(config);
    // WARC output: the .open files a killed run left are closed first; the protocol keeps the
    // heads only when there is an archive to write them to.
    const warc = await openWarcOutput(config, clock, log);
    const protocol = new HttpProtocol(config, { clock, capture: warc !== undefined });
    const protocolCloser = () => protocol.close();
    closers.push(protocolCloser);
    const proxies = protocol.proxyList;
    if (proxies.length > 0) {
      log.info(
        { proxies, rotation: proxies.length > 1 ? config['http.proxy.rotation'] : undefined },
        proxies.length === 1
          ? `every request goes through the proxy ${proxies[0]} (http.proxy.host)`
          : `requests go through ${proxies.length} proxies from http.proxy.file, ${config['http.proxy.rotation']}`,
      );
    }
    // Rendering (src/render) wraps the HTTP protocol; robots.txt never goes through it.
    const rendering = buildRendering(config, {
      http: protocol,
      decisions: () => new RenderDecisions(client, config, log),
      clock,
      log,
    });
    closers.push(() => rendering.close());
    const robots = robotsSource(new RobotsService(config, { protocol, clock }));
    const inline = createPageParser(config, { filter, clock, log });
    const outage = new ClusterOutage(clock, log);
    const meters = crawlMeters();
    const stores = buildStores(
      client,
      config,
      clock,
      log,
      options.onTransition,
      outage,
      meters,
      lease ?? options.fence,
    );
    closers.push(() => stores.close());
    await inject(client, config, stores, filter, options.seeds ?? [], log, clock);
    await inline.ready;
    // The inline parser is built even with parser threads: it checks the parse settings at once,
    // with the configuration's own error messages, before any thread starts.
    let parser: PageParser = inline;
    if (config['parser.threads'] > 0) {
      const pool = await ParserPool.start(config, config['parser.threads'], log);
      closers.push(() => pool.close());
      parser = pool;
    }
    const checks = buildPageChecks(client, config, {
      parser,
      due: stores.due,
      deleter: stores.deleter,
      clock,
      log,
    });
    if (checks) closers.push(() => checks.close());
    // Documents (PDF, Office...) through Tika; nothing starts before the first one.
    const documents = buildDocuments(config, inline, log, clock);
    if (documents) closers.push(() => documents.close());
    const source = new Spout(
      client,
      { ...spoutOptions(config, shards), onQuery: meters.spoutQuery },
      clock,
      log,
      outage,
    );
    const crawler = new Crawler(
      {
        source,
        stores,
        parser,
        protocol: rendering.protocol,
        robots,
        filter,
        transfer: stores.transfer,
        clock,
        log,
        filterDrops: () => filter.drops,
        ...(warc ? { archive: warc.archive } : {}),
        ...(checks ? { checks } : {}),
        health: outage,
        observe: meters.observe,
        ...(documents ? { documents: documents.stage } : {}),
      },
      loopOptions,
    );
    meters.attach(crawler, outage);
    if (lease) stopWhenLost(lease, () => crawler.requestStop(), log);
    // Content left behind by a deletion a crash lost: found at start-up and then periodically.
    const reconciler = new ContentReconciler(
      client,
      (id) => stores.deleter.remove(id),
      {
        statusIndex: config['opensearch.status.index.name'],
        contentIndex: config['opensearch.indexer.index.name'],
        ...(shards ? { shards } : {}),
        intervalMs: config['opensearch.indexer.reconcile.interval'],
        busy: (url) => crawler.holds(url),
      },
      clock,
      log,
    );
    reconciler.start();
    // Stopped before the writers close (closers run in reverse), so its deletions are written.
    closers.push(() => reconciler.close());
    if (warc) {
      // Closed after the protocol (reverse order of opening), once the last record is written.
      closers.splice(closers.indexOf(protocolCloser), 0, () => warc.close());
      warc.onFailure(() => crawler.requestStop());
    }
    return {
      crawler,
      metrics: meters.registry,
      client,
      cluster,
      rendering,
      userAgent: protocol.userAgent,
      leaseLost: () => lease?.lost,
      async close() {
        await closeAll();
        // A disk error that stopped the WARC output ends the command with its message.
        warc?.throwIfFailed();
      },
    };
  } catch (e) {
    await closeAll();
    throw e;
  }
}

/** The cluster as a supervisor of worker processes sees it before it starts them. */
export interface ClusterCheck {
  readonly client: Client;
  /** The cluster's first address, for logs. */
  readonly url: string | undefined;
  readonly statusShards: number;
}

/**
 * For `crawler run --workers`: connects (starting the embedded node when nothing is configured, so
 * that the workers do not race to), creates missing indices and reads the status shard count.
 * The caller closes the client.
 */
export async function checkCluster(config: Config, log: Logger): Promise<ClusterCheck> {
  checkAgentName(config['http.agent.name']);
  const { client, url } = await connect(config, log);
  try {
    await ensureCrawlIndices(client, config, log);
    return { client, url, statusShards: await statusShardCount(client, config) };
  } catch (e) {
    await client.close();
    throw e;
  }
}

/**
 * What `buildCrawl` checks of the settings before it starts anything, checked without starting
 * anything: for a supervisor of worker processes, so that a bad setting is one message (and exit 2)
 * before any worker starts, instead of workers that keep dying of it; and for `crawler config`, which
 * may show a configuration without an agent name yet (`nameRequired: false`).
 */
export async function checkCrawlSettings(
  given: Config,
  options: { nameRequired?: boolean } = {},
): Promise<void> {
  const unnamed = options.nameRequired === false && given['http.agent.name'].trim() === '';
  // Without a name yet, the other settings are checked under a stand-in.
  const config: Config = unnamed ? { ...given, 'http.agent.name': 'unnamed' } : given;
  checkAgentName(config['http.agent.name']);
  const filter = loadURLFilters(config, { logger: silentLogger });
  crawlerOptions(config);
  createStatusUpdater(config, systemClock);
  if (config['warc.enabled']) statusCodeFilter(config['warc.status.codes']);
  renderSettings(config);
  await createPageParser(config, { filter, clock: systemClock }).ready;
  tikaOptions(config);
  await new HttpProtocol(config, { clock: systemClock }).close();
}

/** `--seed` URLs written once, before worker processes start (each then finds its own). */
export async function injectSeeds(
  client: Client,
  config: Config,
  seeds: readonly string[],
  log: Logger,
): Promise<void> {
  if (seeds.length === 0) return;
  const filter = loadURLFilters(config, { logger: log });
  const stores = buildStores(client, config, systemClock, log);
  try {
    await inject(client, config, stores, filter, seeds, log, systemClock);
  } finally {
    stores.close();
  }
}

/** Seeds given on the command line: DISCOVERED through the URL filters, visible before the crawl. */
async function inject(
  client: Client,
  config: Config,
  stores: StoreSet,
  filter: ReturnType<typeof loadURLFilters>,
  seeds: readonly string[],
  log: Logger,
  clock: Clock,
): Promise<void> {
  if (seeds.length === 0) return;
  const written: string[] = [];
  for (const s of seeds) {
    const problem = urlProblem(s);
    const kept = problem === undefined ? filter.filter(null, new Metadata(), s) : null;
    if (kept === null) log.warn({ url: shown(s) }, `--seed ${problem ?? seedRejected(s)}; skipped`);
    else {
      await stores.status.write({ url: kept, status: 'DISCOVERED', metadata: new Metadata() });
      written.push(kept);
    }
  }
  await stores.flush();
  const index = config['opensearch.status.index.name'];
  await rejudgeSettingRefusals(client, index, written, clock.now(), log);
  await client.indices.refresh({ index });
  // A known seed keeps its status: say so for each one the crawl will not fetch now.
  const dueBy = clock.now() + crawlerOptions(config).onceLookAheadMs;
  for (const known of await knownSeedsNotDue(client, index, written, dueBy))
    log.warn({ url: shown(known.url), status: known.status }, knownSeedLine(known));
}
