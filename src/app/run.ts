import type { Config } from '../config/schema.js';
import { CrawlMonitor } from '../console/crawl-monitor.js';
import type { Logger } from '../util/log.js';
import { embeddedLeftRunning } from './cluster.js';
import { buildCrawl, type Crawl } from './compose.js';
import { runJoined } from './join.js';
import type { Outcome } from './outcome.js';
import { StopSignals } from './signals.js';
import { outcomeLine } from './workers/aggregate.js';
import { RelayedFence } from './workers/lease-relay.js';
import { sendToSupervisor, workerFromEnv } from './workers/messages.js';
import { supervise } from './workers/supervisor.js';
import { SupervisorLink } from './workers/worker.js';

/*
 * `crawler run`: one crawl process, a supervisor of worker processes (--workers), a worker of such a
 * supervisor (told so by its environment), or a member of the elastic crawl (--join). cli/ read the
 * command line into a RunRequest; this decides which and runs it.
 */

export interface RunRequest {
  readonly config: Config;
  readonly log: Logger;
  readonly out: (line: string) => void;
  readonly once: boolean;
  readonly seeds: readonly string[];
  readonly instances: number;
  readonly instance: number;
  /** Processes on this machine (--workers, else topology.workers). */
  readonly workers: number | 'auto';
  /** --join or topology.join. */
  readonly join: boolean;
  /** Options given that do not go with --join, by name. */
  readonly conflicting: readonly string[];
  /** The command line's options a supervisor hands on to its workers (--conf, --set, --log-level). */
  readonly forward: readonly string[];
}

/** After the drain deadline, closing connections and threads gets this long at most. */
const CLOSE_MS = 5000;

/**
 * Closes the crawl's resources, but does not wait beyond `ms`: a connection to a cluster that went
 * away must not keep a stopped daemon from exiting.
 */
async function closeWithin(crawl: Crawl, ms: number, log: Logger): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), ms);
    timer.unref();
  });
  const outcome = await Promise.race([crawl.close().then(() => 'closed' as const), late]);
  clearTimeout(timer);
  if (outcome === 'late')
    log.warn(`connections still open after ${ms / 1000} s; exiting anyway (within 10 s at most)`);
}

export async function runCrawl(r: RunRequest): Promise<Outcome> {
  const { config: cfg, log, out, once, seeds, instances, instance } = r;
  if (r.join) {
    return runJoined({
      config: cfg,
      log,
      out,
      seeds,
      conflicting: r.conflicting,
      workers: r.workers,
      forward: r.forward,
    });
  }
  // A worker of a supervisor: its part of the share comes from the environment the supervisor set.
  const asWorker = workerFromEnv(process.env);
  const workers = asWorker ? 1 : r.workers;
  if (workers !== 1) {
    const outcome = await supervise({
      config: cfg,
      log,
      out,
      workers,
      instances,
      instance,
      once,
      seeds,
      forward: r.forward,
    });
    const left = embeddedLeftRunning(cfg);
    if (left) log.info(left);
    return outcome;
  }
  // Listening from here, not from when the crawl is built: building it talks to OpenSearch and
  // may take seconds on a busy machine, and a SIGTERM nobody listens to kills the process (a
  // worker so killed made its supervisor exit 1). A stop before the crawl exists stops it at once.
  let crawler: Crawl['crawler'] | undefined;
  let stopAsked = false;
  const stopListening = new StopSignals().listenToDrain(log, (sig) => {
    stopAsked = true;
    if (!crawler) {
      log.info(
        `${sig}: stopping as soon as the crawl is set up, before any fetch (send it again to exit at once)`,
      );
      return;
    }
    log.info(`${sig}: finishing fetches in flight and writing everything (send it again to exit at once)`);
    crawler.requestStop();
  });
  // A worker writes under its supervisor's lease, as the supervisor's messages tell it (the first
  // answers 'listening').
  const fence = asWorker ? new RelayedFence(cfg['opensearch.lease.ttl']) : undefined;
  // The supervisor holds its stop signal back until a worker says it listens.
  if (asWorker) sendToSupervisor({ type: 'listening' });
  // The metrics series, the console and the live status line (a worker's supervisor has them).
  const monitor = asWorker ? undefined : new CrawlMonitor(cfg, log, { instance, instances });
  let crawl: Crawl;
  try {
    crawl = await buildCrawl(cfg, {
      ...(fence ? { fence } : {}),
      log,
      instances,
      instance,
      ...(asWorker ? { workers: asWorker.workers, worker: asWorker.worker } : {}),
      seeds,
      ...(monitor ? { onTransition: monitor.onTransition } : {}),
      // A worker crawls under its supervisor's lease.
      lease: !asWorker,
    });
  } catch (e) {
    stopListening();
    fence?.close();
    throw e;
  }
  crawler = crawl.crawler;
  if (stopAsked) crawler.requestStop();
  const link = asWorker && process.send ? new SupervisorLink(crawler, undefined, crawl.metrics) : undefined;
  log.info(
    {
      cluster: crawl.cluster,
      statusIndex: cfg['opensearch.status.index.name'],
      userAgent: crawl.userAgent,
      once,
    },
    'crawling',
  );
  try {
    await monitor?.start(crawl);
    await crawler.run({
      once,
      drainDeadlineMs: cfg['shutdown.deadline'],
      ...(link ? link.runOptions(once) : {}),
    });
  } finally {
    stopListening();
    // The supervisor gets the summary before the connections close (which may take a while).
    await link?.close();
    await monitor?.stop();
    await closeWithin(crawl, CLOSE_MS, log);
    fence?.close();
  }
  const summary = crawler.summary();
  // A worker's summary goes to the supervisor, which prints one line for all.
  if (!asWorker) out(outcomeLine(summary));
  const left = !asWorker && crawl.cluster ? embeddedLeftRunning(cfg, crawl.cluster) : undefined;
  if (left) log.info(left);
  // Another crawl owns the share now: this one stopped without writing (its line said so).
  if (crawl.leaseLost() !== undefined) return 'failed';
  return crawler.metrics.abandoned > 0 ? 'incomplete' : 'ok';
}
