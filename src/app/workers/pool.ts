import type { Client } from '@opensearch-project/opensearch';
import type { Config } from '../../config/schema.js';
import { SupervisorMonitor } from '../../console/supervisor-monitor.js';
import type { ShareLease } from '../../opensearch/lease.js';
import type { MemberRow } from '../../opensearch/member-rows.js';
import { userAgent } from '../../protocol/http/user-agent.js';
import { type Clock, systemClock } from '../../util/clock.js';
import { CrawlerError } from '../../util/errors.js';
import { droppedLogLines, type Logger } from '../../util/log.js';
import { PROGRESS_INTERVAL_MS } from '../options.js';
import { type Outcome, outcomeOfWorkerExit } from '../outcome.js';
import { type StopSignal, StopSignals } from '../signals.js';
import { Aggregate, outcomeLine } from './aggregate.js';
import { leaseMessage } from './lease-relay.js';
import type { FromWorker, ToWorker } from './messages.js';
import { OnceCoordinator, type OnceStep } from './once.js';
import { RESTARTS, type RestartOptions, RestartPolicy } from './restart.js';
import { type Slot, sendTo, signalWorker, spawnWorker } from './slot.js';

/** What the pool of workers runs with (`supervise` decides how many, and writes the seeds). */
export interface PoolOptions {
  readonly config: Config;
  readonly log: Logger;
  /** Command output: the one summary line. */
  readonly out: (line: string) => void;
  readonly instances: number;
  readonly instance: number;
  readonly once: boolean;
  /** --conf, --set and --log-level as given, so the workers read the same configuration. */
  readonly forward: readonly string[];
  readonly restarts?: RestartOptions;
  /**
   * `--join`: each worker is a member of the elastic crawl (no share of its own, no lease of the
   * supervisor's); the console also lists the crawl's members, read with this.
   */
  readonly join?: { readonly members: (client: Client) => Promise<MemberRow[]> };
  /** The supervisor's time: rates, run lengths (the system clock by default). */
  readonly clock?: Clock;
}

/** After a "no" to a --once check from workers that stay idle, ask again this much later. */
const RECHECK_MS = 1000;

/**
 * Runs the worker processes until all have ended: forwards SIGINT/SIGTERM (each worker drains as a
 * lone `crawler run` does; a second signal exits at once), restarts a worker that dies, with a
 * doubling delay, and stops the run when one keeps dying (RestartPolicy); acts on what each worker
 * reports over its IPC channel (messages.ts), never on its log lines, which pass on to the operator
 * (slot.ts); logs one progress line and one summary for all of them; and with --once ends them
 * together (OnceCoordinator).
 */
export class WorkerPool {
  private readonly slots: Slot[];
  private readonly aggregate = new Aggregate();
  private readonly once: OnceCoordinator | undefined;
  /** The metrics series, the console and the live status line, for all the workers. */
  private readonly monitor: SupervisorMonitor;
  private stopping = false;
  /** The workers were sent a stop signal: another one would make them exit at once. */
  private workersSignalled = false;
  /** That signal, for a worker that starts listening after it was sent. */
  private stopSignal: NodeJS.Signals = 'SIGTERM';
  private restarts = 0;
  private givenUp: string | undefined;
  private allDone!: () => void;
  private readonly done = new Promise<void>((resolve) => {
    this.allDone = resolve;
  });

  private now(): number {
    return (this.o.clock ?? systemClock).now();
  }

  constructor(
    private readonly o: PoolOptions,
    private readonly workers: number,
    private readonly cluster: string | undefined,
    /** The lease the workers write under: each hears when it was confirmed (lease-relay.ts). */
    private readonly lease?: ShareLease,
  ) {
    lease?.onConfirmed(() => this.sendAll(leaseMessage(lease)));
    const restarts = o.restarts ?? RESTARTS;
    this.slots = Array.from({ length: workers }, (_, worker) => ({
      worker,
      policy: new RestartPolicy(restarts),
      proc: undefined,
      listening: false,
      startedAt: 0,
      restartTimer: undefined,
      done: false,
      code: null,
      lastError: undefined,
    }));
    this.once = o.once ? new OnceCoordinator(workers) : undefined;
    this.monitor = new SupervisorMonitor(o.config, o.log, {
      instance: o.instance,
      instances: o.instances,
      workers,
      ...(o.join ? { members: o.join.members } : {}),
    });
  }

  async run(): Promise<Outcome> {
    const { config, log, out } = this.o;
    const stopListening = new StopSignals().listen((sig, which) => this.signal(sig, which));
    log.info(
      {
        cluster: this.cluster,
        statusIndex: config['opensearch.status.index.name'],
        userAgent: userAgent(config),
        once: this.o.once,
        workers: this.workers,
      },
      'crawling',
    );
    this.aggregate.startRate(this.now());
    const progress = setInterval(() => {
      const { fields, msg } = this.aggregate.progressLine(this.now());
      log.info(fields, msg);
    }, PROGRESS_INTERVAL_MS);
    progress.unref();
    try {
      await this.monitor.start();
      for (const slot of this.slots) this.start(slot);
      await this.done;
    } finally {
      clearInterval(progress);
      stopListening();
      await this.monitor.stop();
    }
    const usage = process.resourceUsage();
    const summary = this.aggregate.summary(
      {
        cpuUserMs: Math.round(usage.userCPUTime / 1000),
        cpuSystemMs: Math.round(usage.systemCPUTime / 1000),
        maxRssMb: Math.round(usage.maxRSS / 1024),
        logLinesDropped: droppedLogLines(),
      },
      this.workers,
      this.restarts,
    );
    log.info(summary, 'crawl stopped');
    out(outcomeLine(summary, this.workers));
    if (this.givenUp) throw new CrawlerError('WORKER_KEEPS_DYING', this.givenUp);
    return outcomeOfWorkerExit(
      this.slots.map((s) => s.code),
      Boolean(summary.notWritten),
    );
  }

  /** Stops the run as a first SIGTERM would: every worker drains and exits. */
  stop(): void {
    this.stopAll('SIGTERM');
  }

  /**
   * The lease was lost: every worker is killed (SIGKILL) rather than drained, so that none writes
   * another update to shards another crawl owns now; what they held keeps its previous state.
   */
  abandon(): void {
    this.stopAll('SIGTERM');
    this.kill('SIGKILL');
  }

  private start(slot: Slot): void {
    const { o } = this;
    const w = slot.worker;
    const args = o.join
      ? ['--join', ...o.forward]
      : [
          ...(o.once ? ['--once'] : []),
          '--instances',
          String(o.instances),
          '--instance',
          String(o.instance),
          ...o.forward,
        ];
    let pid = -1;
    const child = spawnWorker(slot, {
      args,
      workers: this.workers,
      log: o.log,
      message: (m) => this.message(slot, pid, m),
      ended: (code, signal) => this.exited(slot, pid, code, signal),
    });
    pid = child.pid ?? -1;
    const restart = slot.startedAt > 0;
    slot.startedAt = this.now();
    this.aggregate.started(pid, w);
    this.monitor.started(pid, w, restart);
    o.log.info({ workerPid: pid }, `worker ${w} of ${this.workers} started (pid ${pid})`);
  }

  private message(slot: Slot, pid: number, m: FromWorker): void {
    const once = this.once;
    switch (m.type) {
      case 'lease-ask':
        // Answered at once (the worker may just have missed a message) and again once renewed.
        if (this.lease) {
          sendTo(slot, leaseMessage(this.lease));
          void this.lease.renewNow();
        }
        return;
      case 'listening':
        slot.listening = true;
        if (this.lease) sendTo(slot, leaseMessage(this.lease));
        // A stop asked while it was starting: it gets the signal now.
        if (this.workersSignalled) signalWorker(slot, this.stopSignal);
        return;
      case 'progress':
        this.aggregate.progress(pid, m.snapshot);
        return;
      case 'metrics':
        this.monitor.report(pid, m.metrics);
        return;
      case 'transitions':
        this.monitor.transitions(m.entries);
        return;
      case 'error':
        slot.lastError = m.message;
        return;
      case 'refused':
        slot.refused = m.message;
        return;
      case 'member':
        this.monitor.member(pid, m.member);
        return;
      case 'summary':
        this.aggregate.ended(pid, m.summary, m.snapshot);
        this.monitor.report(pid, m.metrics);
        return;
      case 'idle':
        this.step(once?.reportIdle(slot.worker));
        return;
      case 'busy':
        once?.reportBusy(slot.worker);
        return;
      case 'checked':
        this.step(once?.checked(slot.worker, m.round, m.finished));
        return;
    }
  }

  /** --once: what the coordinator asks for. */
  private step(next: OnceStep): void {
    const once = this.once;
    if (!once || !next || this.stopping) return;
    if (next === 'check') {
      const round = once.startRound();
      this.sendAll({ type: 'check', round });
    } else if (next === 'later') {
      setTimeout(() => {
        if (!this.stopping && once.allIdle()) this.step('check');
      }, RECHECK_MS).unref();
    } else {
      this.o.log.info('every worker is finished: nothing is due and nothing is in flight');
      this.stopping = true;
      this.sendAll({ type: 'finish' });
    }
  }

  private sendAll(m: ToWorker): void {
    for (const s of this.slots) sendTo(s, m);
  }

  private exited(slot: Slot, pid: number, code: number | null, signal: NodeJS.Signals | null): void {
    const { log } = this.o;
    const w = slot.worker;
    this.aggregate.exited(pid);
    this.monitor.exited(pid);
    slot.proc = undefined;
    slot.code = code;
    const ranMs = this.now() - slot.startedAt;
    if (code === 0 || this.stopping) {
      slot.done = true;
      if (!this.stopping) {
        log.info({ workerPid: pid }, `worker ${w} ended (pid ${pid}); it is not started again`);
        this.step(this.once?.endedOnItsOwn(w));
      }
      this.checkDone();
      return;
    }
    if (slot.refused) {
      this.givenUp = `worker ${w} was refused as a member of the crawl: ${slot.refused}; the other workers were stopped`;
      slot.done = true;
      this.stopAll('SIGTERM');
      this.checkDone();
      return;
    }
    this.once?.replaced(w);
    const what = signal ? `was killed by ${signal}` : `exited with code ${code}`;
    const after = slot.policy.died(ranMs);
    if (after.restart) {
      this.restarts++;
      log.warn(
        { workerPid: pid, code, signal, restartInMs: after.delayMs },
        `worker ${w} ${what} after ${(ranMs / 1000).toFixed(1)} s; starting it again in ` +
          `${after.delayMs / 1000} s (restart ${after.attempt} in a row)`,
      );
      slot.restartTimer = setTimeout(() => {
        slot.restartTimer = undefined;
        if (this.stopping) {
          slot.done = true;
          this.checkDone();
        } else this.start(slot);
      }, after.delayMs);
      return;
    }
    const stable = (this.o.restarts ?? RESTARTS).stableMs / 1000;
    this.givenUp =
      `worker ${w} keeps dying: it ${what}, and again after each of ${after.deaths - 1} restarts within ` +
      `${stable} s of their start` +
      `${slot.lastError ? ` (last error: ${slot.lastError})` : ''}; the other workers were stopped`;
    log.error({ workerPid: pid, code, signal }, this.givenUp);
    slot.done = true;
    this.stopAll('SIGTERM');
    this.checkDone();
  }

  private signal(sig: NodeJS.Signals, which: StopSignal): void {
    const { log } = this.o;
    if (which === 'again') {
      log.warn(`${sig} again: the workers exit at once`);
      this.kill(sig);
      process.exit(130);
    }
    log.info(
      `${sig}: stopping the ${this.workers} workers; each finishes its fetches in flight and writes ` +
        'everything (send it again to exit at once)',
    );
    this.stopAll(sig);
  }

  /**
   * No more restarts; every live worker gets the signal once and drains. Only the first stop
   * signals them: a worker takes a second signal as "exit at once", which is the operator's second
   * signal alone (after a worker that kept dying stopped the others, a Ctrl-C must not cut them).
   */
  private stopAll(sig: NodeJS.Signals): void {
    this.stopping = true;
    for (const s of this.slots) {
      if (s.restartTimer) {
        clearTimeout(s.restartTimer);
        s.restartTimer = undefined;
        s.done = true;
      }
    }
    if (!this.workersSignalled) {
      this.stopSignal = sig;
      for (const s of this.slots) if (s.listening) signalWorker(s, sig);
    }
    this.workersSignalled = true;
    this.checkDone();
  }

  /** The second signal: every worker exits at once, listening or not. */
  private kill(sig: NodeJS.Signals): void {
    for (const s of this.slots) signalWorker(s, sig);
  }

  private checkDone(): void {
    if (this.slots.every((s) => s.done && !s.proc)) this.allDone();
  }
}
