import type { Client } from '@opensearch-project/opensearch';
import { combine, processFamilies } from '../metrics/prometheus.js';
import { Registry } from '../metrics/registry.js';
import { WorkerMetrics, type WorkerReport } from '../metrics/workers.js';
import { type ConnectionConfig, createClient } from '../opensearch/client.js';
import type { MemberRow } from '../opensearch/member-rows.js';
import { systemClock } from '../util/clock.js';
import { type Logger, liveStatus } from '../util/log.js';
import { Monitor, type MonitorConfig, originOf } from './monitor.js';
import type { TransitionEntry } from './state.js';
import { Tail } from './state.js';

/**
 * The monitor of `crawler run --workers`: the supervisor serves the console and /metrics for all its
 * workers (their counters summed, and kept across a worker's restart) and writes the metrics series
 * for each of them, from what they report over their IPC channel. The supervisor calls the
 * `started` .. `exited` methods as its workers come and go.
 */
export class SupervisorMonitor {
  private readonly workers: WorkerMetrics;
  private readonly own = new Registry();
  private readonly tail = new Tail<TransitionEntry>(30);
  private readonly restarts: { inc(worker: string): void };
  private restartCount = 0;
  private monitor: Monitor | undefined;
  /** `run --join --workers N`: each worker process's member name, by pid (its series carry it). */
  private readonly memberNames = new Map<number, string>();
  private closeClient: (() => Promise<void>) | undefined;

  constructor(
    private readonly config: MonitorConfig & ConnectionConfig,
    private readonly log: Logger,
    private readonly share: {
      readonly instance: number;
      readonly instances: number;
      readonly workers: number;
      /** `run --join --workers N`: the members of the elastic crawl, for the console. */
      readonly members?: (client: Client) => Promise<MemberRow[]>;
    },
  ) {
    this.workers = new WorkerMetrics(config['metrics.interval'] > 0);
    this.restarts = this.own.counter({
      name: 'crawler_worker_restarts_total',
      help: 'worker processes started again after one died, by worker',
      label: { name: 'worker', values: Array.from({ length: share.workers }, (_, w) => String(w)) },
    });
    this.own.gauge(
      { name: 'crawler_workers_running', help: 'worker processes running' },
      () => this.workers.running,
    );
  }

  started(pid: number, worker: number, restart: boolean): void {
    this.workers.started(pid, worker, systemClock.now());
    if (restart) {
      this.restarts.inc(String(worker));
      this.restartCount++;
    }
  }

  report(pid: number, metrics: WorkerReport | undefined): void {
    if (metrics) this.workers.report(pid, metrics);
  }

  exited(pid: number): void {
    this.workers.exited(pid);
  }

  /** A worker joined the elastic crawl as `member`: its metrics series name it from now on. */
  member(pid: number, member: string): void {
    this.memberNames.set(pid, member);
  }

  /** Transitions a worker reported (its latest), for the console's tail. */
  transitions(entries: readonly TransitionEntry[]): void {
    for (const e of entries) this.tail.push(e);
  }

  async start(): Promise<void> {
    const { instance, instances, workers: of, members } = this.share;
    const { client } = createClient(this.config);
    this.closeClient = () => client.close();
    const since = systemClock.now();
    const own = this.own;
    this.monitor = new Monitor({
      config: this.config,
      log: this.log,
      clock: systemClock,
      client,
      registry: own,
      instance,
      live: liveStatus(this.log),
      source: {
        crawl: async () => combine(await own.collect(), ...this.workers.families()),
        all: async () => [await own.collect(), await processFamilies(), ...this.workers.families()],
        readings: {
          readings: async () => [
            ...this.workers.readings((w, pid) => originOf(instance, instances, w, this.memberNames.get(pid))),
            {
              key: 'supervisor',
              families: await own.collect(),
              origin: originOf(instance, instances, undefined),
              since,
            },
          ],
        },
        transitions: () => this.tail.all,
        workers: () => ({ running: this.workers.running, of, restarts: this.restartCount }),
        ...(members ? { members: () => members(client) } : {}),
      },
    });
    await this.monitor.start();
  }

  /** After every worker ended: their last intervals written, the console closed. */
  async stop(): Promise<void> {
    await this.monitor?.stop();
    await this.closeClient?.();
  }
}
