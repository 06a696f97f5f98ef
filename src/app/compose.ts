import type { Client } from '@opensearch-project/opensearch';
import type { Config } from '../config/schema.js';
import { pageChecksFeature } from '../dedup/build.js';
import { robotsSource } from '../fetch/ports.js';
import { crawlMeters } from '../metrics/crawl.js';
import type { MetricsRegistry } from '../metrics/registry.js';
import { createStatusUpdater } from '../model/status-updater.js';
import type { TransitionRecord } from '../model/transition.js';
import type { WriteFence } from '../opensearch/fence.js';
import { ClusterOutage } from '../opensearch/outage.js';
import { ContentReconciler } from '../opensearch/reconcile.js';
import { Spout } from '../opensearch/spout/spout.js';
import { startParser } from '../parse/build.js';
import { createPageParser } from '../parse/stage.js';
import { Crawler } from '../pipeline/crawler.js';
import { buildHttp } from '../protocol/build.js';
import { HttpProtocol } from '../protocol/http/client.js';
import { checkAgentName } from '../protocol/http/user-agent.js';
import { RobotsService } from '../protocol/robots/fetch-robots.js';
import { type Rendering, renderFeature } from '../render/build.js';
import { tikaFeature } from '../tika/build.js';
import { loadCrawlFilters, loadURLFilters } from '../urlfilters/load.js';
import { type Clock, systemClock } from '../util/clock.js';
import { type Logger, silentLogger } from '../util/log.js';
import { warcFeature } from '../warc/build.js';
import { openCluster } from './cluster.js';
import { buildFeatures, Closers, checkFeatures, type Feature } from './feature.js';
import { gatedProtocol } from './fetch-gate.js';
import { shareWords, stopWhenLost, takeLease } from './lease.js';
import { crawlerOptions } from './options.js';
import { writeSeeds } from './seeds.js';
import { crawlSettings } from './settings.js';
import { chooseShards, range, statusShardCount } from './shards.js';
import { buildStores, featureStores } from './stores.js';

/*
 * The composition root: the one place that turns a validated configuration into running parts.
 * `crawler run`, `crawler demo` and the tests build through here. A crawl is a spine (the cluster
 * and this process's share of it, the URL filters, the HTTP protocol, the parser, the stores, the
 * spout and the crawl loop) and the features below, each built by its own folder.
 */

/**
 * The features of a crawl, in the order they are built: each its folder's `check` and `build`
 * (app/feature.ts). `checkCrawlSettings` and `buildCrawl` both go through this list, so adding a
 * feature is its folder and one line here.
 */
const FEATURES = {
  warc: warcFeature,
  render: renderFeature,
  checks: pageChecksFeature,
  documents: tikaFeature,
} satisfies Record<string, Feature>;

/** The settings of the spine, each checked by the function that builds its part. */
const SPINE_CHECKS: readonly ((config: Config) => unknown)[] = [
  (config) => checkAgentName(config['http.agent.name']),
  crawlerOptions,
  (config) => createStatusUpdater(config, systemClock),
  async (config) => {
    const filter = loadURLFilters(config, { logger: silentLogger });
    await createPageParser(config, { filter, clock: systemClock }).ready;
  },
  (config) => new HttpProtocol(config, { clock: systemClock }).close(),
];

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
  /** A member of an elastic crawl (app/member.ts): the status shards it holds now, and its fence. */
  readonly shards?: readonly number[];
  /** Asked before each fetch; false stops fetching (member.ts: its leases are lost or stale). */
  readonly fetchGate?: () => true | Promise<boolean>;
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
 * (before anything is fetched or written) and a CrawlerError for an unusable cluster or scale-out
 * setting; whatever it opened before failing is closed again.
 */
export async function buildCrawl(config: Config, options: CrawlOptions): Promise<Crawl> {
  const { log } = options;
  const clock = options.clock ?? systemClock;
  // Checked before anything else: a crawl without a name would be refused later anyway.
  checkAgentName(config['http.agent.name']);
  const closers = new Closers();
  try {
    const cluster = options.client
      ? { client: options.client, url: undefined }
      : await openCluster(config, log);
    const { client } = cluster;
    if (!options.client) closers.add(() => client.close());
    const share = {
      instances: options.instances ?? 1,
      instance: options.instance ?? 0,
      workers: options.workers ?? 1,
      worker: options.worker ?? 0,
    };
    const shards = options.shards ? [...options.shards] : await chooseShards(client, config, log, share);
    // One owner per share: taken before anything is written, released after everything is.
    const lease = options.lease
      ? await takeLease(client, config, log, {
          shards: shards ?? range(await statusShardCount(client, config)),
          share: shareWords(share),
        })
      : undefined;
    if (lease) closers.add(() => lease.release());
    // The spine's settings, then the features': all checked before anything is written.
    const filter = loadCrawlFilters(config, log);
    // Read once; each part gets its own.
    const settings = crawlSettings(config, shards);
    // The protocol keeps the heads of each exchange only when there is an archive to write them to.
    const http = buildHttp(config, { clock, capture: config['warc.enabled'], log });
    closers.add(() => http.close());
    const inline = createPageParser(config, { filter, clock, log });
    const outage = new ClusterOutage(clock, log);
    const meters = crawlMeters();
    const fence = lease ?? options.fence;
    const stores = buildStores({
      client,
      config,
      settings: settings.stores,
      clock,
      log,
      ...(options.onTransition ? { onTransition: options.onTransition } : {}),
      outage,
      meters,
      ...(fence ? { fence } : {}),
    });
    closers.add(() => stores.close());
    await inline.ready;
    const parsing = await startParser(config, inline, log);
    closers.add(() => parsing.close());
    const { parser } = parsing;
    const base = { clock, log, http, inline, parser, stores, ...featureStores(client, config, stores, log) };
    const features = await buildFeatures(FEATURES, config, base, closers);
    await writeSeeds(client, config, { stores, filter, log, clock }, options.seeds ?? []);
    const source = new Spout(
      client,
      { ...settings.spout, onQuery: meters.spoutQuery },
      { clock, log, outage },
    );
    const protocol = gatedProtocol(features.hand.protocol ?? http, options.fetchGate);
    const crawler = new Crawler(
      {
        source,
        stores,
        parser,
        robots: robotsSource(new RobotsService(config, { protocol: http, clock })),
        filter,
        transfer: stores.transfer,
        clock,
        log,
        filterDrops: () => filter.drops,
        health: outage,
        observe: meters.observe,
        ...features.hand,
        protocol,
      },
      settings.loop,
    );
    features.started(crawler);
    meters.attach(crawler, outage);
    if (lease) stopWhenLost(lease, () => crawler.requestStop(), log);
    // Content left behind by a deletion a crash lost: found at start-up and then periodically.
    const reconciler = new ContentReconciler(
      client,
      (id) => stores.deleter.remove(id),
      {
        ...settings.reconcile,
        ...(shards ? { shards } : {}),
        busy: (url) => crawler.holds(url),
      },
      { clock, log },
    );
    reconciler.start();
    // Stopped before the writers close (closers run in reverse), so its deletions are written.
    closers.add(() => reconciler.close());
    return {
      crawler,
      metrics: meters.registry,
      client,
      cluster: cluster.url,
      rendering: features.built.render.parts,
      userAgent: http.userAgent,
      leaseLost: () => lease?.lost,
      async close() {
        await closers.closeAll();
        // A disk error that stopped the WARC output ends the command with its message.
        features.throwIfFailed();
      },
    };
  } catch (e) {
    await closers.closeAll();
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
  for (const check of SPINE_CHECKS) await check(config);
  await checkFeatures(FEATURES, config);
}

// Where `crawler run --workers`'s supervisor finds what it checks and writes before its workers start.
export { checkCluster } from './cluster.js';
export { injectSeeds } from './seeds.js';
export { shardsFor, shareProblem } from './shards.js';
