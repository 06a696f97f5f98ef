import type { Config } from '../config/schema.js';
import { MemberMonitor } from '../console/member-monitor.js';
import { CrawlerError } from '../util/errors.js';
import type { Logger } from '../util/log.js';
import { embeddedLeftRunning, openCluster } from './cluster.js';
import { ElasticMember } from './member.js';
import type { Outcome } from './outcome.js';
import { StopSignals } from './signals.js';
import { outcomeLine } from './workers/aggregate.js';
import { GenerationTally } from './workers/generations.js';
import { sendToSupervisor, workerFromEnv } from './workers/messages.js';
import { superviseMembers } from './workers/supervisor.js';
import { SupervisorLink } from './workers/worker.js';

/*
 * `crawler run --join` (topology.join): this process is one member of the elastic crawl of its status
 * index (app/member.ts). SIGINT/SIGTERM: its fetches end, its writes are acknowledged, its shards are
 * handed over to the other members, and it leaves. With --workers N (topology.workers), a supervisor
 * runs N worker processes, each a member of its own (workers/supervisor.ts superviseMembers).
 */

export interface JoinOptions {
  readonly config: Config;
  readonly log: Logger;
  /** Command output: the one summary line. */
  readonly out: (line: string) => void;
  readonly seeds: readonly string[];
  /** Options that do not go with --join, by name, when given. */
  readonly conflicting: readonly string[];
  /** Member processes on this machine (--workers, else topology.workers). */
  readonly workers: number | 'auto';
  /** The command line's options a supervisor hands on to its workers (--conf, --set, --log-level). */
  readonly forward: readonly string[];
}

/** Refusals a restart does not mend: the worker says so before it exits (its supervisor stops). */
const REFUSALS: readonly string[] = ['SETTINGS_DIFFER', 'SHARE_LEASED'];

export async function runJoined(o: JoinOptions): Promise<Outcome> {
  const { config, log } = o;
  if (o.conflicting.length > 0) {
    throw new CrawlerError(
      'BAD_OPTION',
      `--join shares the status shards by membership: it does not go with ${o.conflicting.join(', ')} ` +
        '(start one --join process per machine, with --workers N for more processes; each takes its fair share)',
    );
  }
  // A worker of a supervisor is one member; a supervisor of N > 1 is none (its workers are).
  const asWorker = workerFromEnv(process.env);
  if (!asWorker && o.workers !== 1) {
    return superviseMembers({
      config,
      log,
      out: o.out,
      workers: o.workers,
      seeds: o.seeds,
      forward: o.forward,
    });
  }
  let member: ElasticMember | undefined;
  let stopAsked = false;
  const stopListening = new StopSignals().listenToDrain(log, (sig) => {
    stopAsked = true;
    log.info(`${sig}: finishing fetches in flight, writing everything and handing the shards over`);
    member?.requestStop();
  });
  // The supervisor holds its stop signal back until a worker says it listens.
  if (asWorker) sendToSupervisor({ type: 'listening' });
  const tally = new GenerationTally();
  const { client, url } = await openCluster(config, log);
  let monitor: MemberMonitor | undefined;
  let link: SupervisorLink | undefined;
  try {
    member = new ElasticMember(config, {
      log,
      client,
      seeds: o.seeds,
      ...(asWorker ? { worker: asWorker.worker } : {}),
      onGeneration: (crawl) => {
        tally.add(crawl.crawler, crawl.metrics);
        void monitor?.attach(crawl.metrics);
      },
      onTransition: (r) => monitor?.onTransition(r),
    });
    const self = member;
    // A worker's console, status line and metrics series are its supervisor's (from its reports).
    if (!asWorker) monitor = new MemberMonitor(config, log, { id: self.id, rows: () => self.rows() });
    try {
      await member.join();
    } catch (e) {
      if (asWorker && e instanceof CrawlerError && REFUSALS.includes(e.code)) await tellRefused(e.message);
      throw e;
    }
    if (asWorker) sendToSupervisor({ type: 'member', member: self.id });
    await monitor?.start(client);
    if (asWorker && process.send) {
      link = new SupervisorLink(
        {
          snapshot: () => tally.snapshot(),
          summary: () => tally.summary(),
          requestStop: () => self.requestStop(),
          // --once does not go with --join: never asked.
          stillFinished: async () => false,
        },
        undefined,
        tally.metrics,
      );
    }
    if (stopAsked) member.requestStop();
    await member.run();
  } finally {
    stopListening();
    await link?.close();
    await monitor?.stop();
    await client.close();
  }
  const summary = tally.summary();
  // A worker's summary went to its supervisor, which prints one line for all.
  if (!asWorker) o.out(outcomeLine(summary));
  const left = url && !asWorker ? embeddedLeftRunning(config, url) : undefined;
  if (left) log.info(left);
  // As a lone `crawler run`: updates given up at the shutdown deadline make it exit 1.
  return (summary.notWritten ?? 0) > 0 ? 'incomplete' : 'ok';
}

/** A worker refused: says why, then closes its channel (an open one would keep the process alive). */
async function tellRefused(message: string): Promise<void> {
  await sendToSupervisor({ type: 'refused', message });
  if (process.connected) process.disconnect();
}
