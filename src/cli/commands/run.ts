import { embeddedLeftRunning } from '../../app/cluster.js';
import { buildCrawl, type Crawl } from '../../app/compose.js';
import { seedsRefused } from '../../app/seeds.js';
import { CrawlMonitor } from '../../console/crawl-monitor.js';
import { checkAgentName } from '../../protocol/http/user-agent.js';
import { CrawlerError } from '../../util/errors.js';
import type { Logger } from '../../util/log.js';
import { type Command, InputError } from '../command.js';
import { EXIT } from '../exit.js';
import { runJoined } from '../join.js';
import { StopSignals } from '../signals.js';
import { outcomeLine } from '../workers/aggregate.js';
import { parseWorkersOption } from '../workers/count.js';
import { RelayedFence } from '../workers/lease-relay.js';
import { sendToSupervisor, workerFromEnv } from '../workers/messages.js';
import { supervise } from '../workers/supervisor.js';
import { SupervisorLink } from '../workers/worker.js';

function intOption(value: unknown, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0)
    throw new CrawlerError('BAD_OPTION', `--${name} must be a whole number, got "${value}"`);
  return n;
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

export const runCommand: Command = {
  usage: 'crawler run [--once] [--seed URL]... [--workers N|auto] [--instances M --instance I] [options]',
  options: {
    once: { type: 'boolean', description: 'stop when nothing is due and nothing is in flight' },
    seed: {
      type: 'string',
      multiple: true,
      arg: 'URL',
      description: 'inject this URL before crawling (repeatable)',
    },
    instances: {
      type: 'string',
      arg: 'M',
      description: 'crawler instances sharing the status index (env CRAWLER_INSTANCES)',
    },
    instance: { type: 'string', arg: 'I', description: 'this instance, 0..M-1 (env CRAWLER_INSTANCE)' },
    workers: {
      type: 'string',
      arg: 'N|auto',
      description: 'crawler processes on this machine, each its part of the shards (topology.workers)',
    },
    join: {
      type: 'boolean',
      description: 'join the elastic crawl of the status index as one member of many (topology.join)',
    },
  },
  details:
    'Start-up checks the configuration (http.agent.name is required), the cluster and the indices\n' +
    '(created when missing). With M instances, instance I reads only the status shards s with\n' +
    's % M == I; URLs are routed by host, so each host is crawled by one instance. M may not exceed\n' +
    'the number of status shards (opensearch.status.shards).\n' +
    'With --workers N (or topology.workers), one Node.js process using about one core, a supervisor\n' +
    'starts N worker processes on this machine, each crawling its own part of the share (each host by\n' +
    'one worker); N x M may not exceed opensearch.status.shards (raise it and run crawler init\n' +
    '--recreate). "auto" is the available cores less a quarter of them (at least one) for an OpenSearch\n' +
    'node on this machine (an address on localhost), and at most the shards of the share. The\n' +
    'supervisor passes on signals, starts a worker that dies again (after 1 s, doubling; one that\n' +
    'still dies after 5 restarts, each within a minute of its start, stops the run, exit 3), logs one\n' +
    'progress line and one summary for all, and tags each worker\'s log lines with "worker". --once\n' +
    'ends when every worker has nothing left.\n' +
    'SIGINT/SIGTERM: stop taking URLs, finish fetches in flight and write everything, within\n' +
    'shutdown.deadline (30 s); exit 0. Past the deadline (OpenSearch down, say) what is left is given\n' +
    'up: one line says how many status updates were not written (those URLs keep their previous\n' +
    'state and come back when due) and the exit code is 1. A second signal exits at once (130); one\n' +
    'within a second of the first (Ctrl-C through npx, which passes it on again) counts once.\n' +
    'With --join (or topology.join), the process is one member of the elastic crawl of its status\n' +
    'index: start one on each machine, in any number, at any time. Each holds its fair share of the\n' +
    'status shards (shards / live members) through the leases; a member that stops heartbeating loses\n' +
    'its shards after opensearch.lease.ttl and the others adopt them; one that joins is handed shards\n' +
    'once their fetches ended and writes were acknowledged, and fetches their hosts no sooner than\n' +
    "their delays (a robots.txt Crawl-delay included) after the giver's last fetch. Members must run\n" +
    'the same crawl settings (a joiner that differs is refused, naming the keys). SIGTERM hands the\n' +
    'shards over and leaves. Its console lists the members, their shards, rates and heartbeats.\n' +
    'A plain crawler run (without --join) still refuses to start while members hold the shards.',
  async run({ values, config, log, out }) {
    const cfg = config();
    // Checked before the options: a crawl without a name is refused whatever else is given.
    checkAgentName(cfg['http.agent.name']);
    const instancesGiven = values.instances ?? process.env.CRAWLER_INSTANCES;
    const instanceGiven = values.instance ?? process.env.CRAWLER_INSTANCE;
    if (instanceGiven !== undefined && instancesGiven === undefined) {
      throw new CrawlerError(
        'BAD_OPTION',
        `--instance ${instanceGiven} needs --instances M (or CRAWLER_INSTANCES): how many instances share the status index`,
      );
    }
    const instances = intOption(instancesGiven, 'instances', 1);
    const instance = intOption(instanceGiven, 'instance', 0);
    if (instances < 1) {
      throw new CrawlerError('BAD_OPTION', `--instances must be at least 1, got ${instances}`);
    }
    if (instance >= instances) {
      throw new CrawlerError(
        'BAD_OPTION',
        `--instance must be between 0 and ${instances - 1}, got ${instance}`,
      );
    }
    const once = values.once === true;
    const seeds = (values.seed as string[] | undefined) ?? [];
    // A seed that cannot be crawled stops the command before anything is done.
    const bad = seedsRefused(cfg, seeds);
    if (bad.length > 0) throw new InputError(bad.join('; '));
    if (values.join === true || cfg['topology.join']) {
      const conflicting = [
        ...(once ? ['--once'] : []),
        ...(instancesGiven !== undefined ? ['--instances'] : []),
        ...(values.workers !== undefined ? ['--workers'] : []),
      ];
      return runJoined({ config: cfg, log, seeds, conflicting });
    }
    // A worker of a supervisor: its part of the share comes from the environment the supervisor set.
    const asWorker = workerFromEnv(process.env);
    const workers = asWorker
      ? 1
      : values.workers !== undefined
        ? parseWorkersOption(String(values.workers))
        : cfg['topology.workers'];
    if (workers !== 1) {
      const forward = [
        ...((values.conf as string[] | undefined) ?? []).flatMap((c) => ['--conf', c]),
        ...((values.set as string[] | undefined) ?? []).flatMap((x) => ['--set', x]),
        ...(values['log-level'] !== undefined ? ['--log-level', String(values['log-level'])] : []),
      ];
      const code = await supervise({
        config: cfg,
        log,
        out,
        workers,
        instances,
        instance,
        once,
        seeds,
        forward,
      });
      const left = embeddedLeftRunning(cfg);
      if (left) log.info(left);
      return code;
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
    if (crawl.leaseLost() !== undefined) return EXIT.failed;
    return crawler.metrics.abandoned > 0 ? EXIT.incomplete : EXIT.ok;
  },
};
