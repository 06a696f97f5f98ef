import { type ChildProcess, spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { checkCluster, checkCrawlSettings, injectSeeds, shardsFor, shareProblem } from '../../app/compose.js';
import type { Config } from '../../config/schema.js';
import { consoleSettings } from '../../console/server.js';
import { SupervisorMonitor } from '../../console/supervisor-monitor.js';
import type { ShareLease } from '../../opensearch/lease.js';
import { shareWords, stopWhenLost, takeLease } from '../../pipeline/lease.js';
import { crawlerOptions } from '../../pipeline/options.js';
import { userAgent } from '../../protocol/http/user-agent.js';
import { CrawlerError } from '../../util/errors.js';
import { droppedLogLines, type Logger, writeLogLine } from '../../util/log.js';
import { EXIT } from '../exit.js';
import { type StopSignal, StopSignals } from '../signals.js';
import { Aggregate, outcomeLine } from './aggregate.js';
import { autoWorkers, isLocalCluster } from './count.js';
import { leaseMessage } from './lease-relay.js';
import { type FromWorker, type ToWorker, WORKER_ENV } from './messages.js';
import { OnceCoordinator, type OnceStep } from './once.js';
import { RESTARTS, type RestartOptions, RestartPolicy } from './restart.js';

/** The CLI the workers run: the same build as this one. */
const MAIN = fileURLToPath(new URL('../main.js', import.meta.url));
/** After a "no" to a --once check from workers that stay idle, ask again this much later. */
const RECHECK_MS = 1000;

export interface SuperviseOptions {
  readonly config: Config;
  readonly log: Logger;
  /** Command output: the one summary line. */
  readonly out: (line: string) => void;
  readonly workers: number | 'auto';
  readonly instances: number;
  readonly instance: number;
  readonly once: boolean;
  readonly seeds: readonly string[];
  /** --conf, --set and --log-level as given, so the workers read the same configuration. */
  readonly forward: readonly string[];
  readonly restarts?: RestartOptions;
}

/**
 * `crawler run --workers N`: checks the cluster and the share of the status shards once, writes the
 * seeds once, then runs N worker processes of this CLI, each a `crawler run` of its own part of the
 * share (see compose.ts shareProblem), and supervises them. Resolves to the exit code.
 */
export async function supervise(o: SuperviseOptions): Promise<number> {
  const { config, log } = o;
  await checkCrawlSettings(config);
  consoleSettings(config);
  const cluster = await checkCluster(config, log);
  let workers: number;
  let lease: ShareLease | undefined;
  try {
    const statusIndex = config['opensearch.status.index.name'];
    if (o.workers === 'auto') {
      const auto = autoWorkers({
        cores: availableParallelism(),
        localCluster: isLocalCluster(config['opensearch.addresses']),
        maxByShards: Math.floor(cluster.statusShards / o.instances),
      });
      workers = auto.workers;
      log.info(
        { workers },
        `topology.workers auto: ${workers} worker${workers === 1 ? '' : 's'} (${auto.reason})`,
      );
    } else workers = o.workers;
    const problem = shareProblem(cluster.statusShards, { ...o, workers, worker: 0 }, statusIndex);
    if (problem) throw new CrawlerError('TOO_MANY_WORKERS', problem);
    // The lease on the instance's share is the supervisor's: a worker started again needs none.
    const shards = shardsFor(cluster.statusShards, o.instances, o.instance);
    lease = await takeLease(cluster.client, config, log, shards, shareWords({ ...o, workers }));
    await injectSeeds(cluster.client, config, o.seeds, log);
  } catch (e) {
    await lease?.release();
    await cluster.client.close();
    throw e;
  }
  const supervisor = new Supervisor(o, workers, cluster.url, lease);
  stopWhenLost(lease, () => supervisor.abandon(), log);
  try {
    const code = await supervisor.run();
    return lease.lost !== undefined ? EXIT.failed : code;
  } finally {
    await lease.release();
    await cluster.client.close();
  }
}

/** One worker's place: its current process, or the timer that will start the next one. */
interface Slot {
  readonly worker: number;
  readonly policy: RestartPolicy;
  proc: ChildProcess | undefined;
  /** Its process listens for stop signals (until then a signal would kill it, so it is held back). */
  listening: boolean;
  startedAt: number;
  restartTimer: NodeJS.Timeout | undefined;
  /** Ended for good: a clean exit, or an exit after the run was stopped. */
  done: boolean;
  /** The exit code of its last process (null: killed by a signal). */
  code: number | null;
  /** Its last error line, for the message if it keeps dying. */
  lastError: string | undefined;
}

/**
 * Runs the worker processes until all have ended: forwards SIGINT/SIGTERM (each worker drains as a
 * lone `crawler run` does; a second signal exits at once), restarts a worker that dies, with a
 * doubling delay, and stops the run when one keeps dying (RestartPolicy); passes each worker's log
 * lines on tagged with its number; logs one progress line and one summary for all of them; and with
 * --once ends them together (OnceCoordinator).
 */
class Supervisor {
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

  constructor(
    private readonly o: SuperviseOptions,
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
    });
  }

  async run(): Promise<number> {
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
    this.aggregate.startRate(Date.now());
    const progress = setInterval(() => {
      const { fields, msg } = this.aggregate.progressLine(Date.now());
      log.info(fields, msg);
    }, crawlerOptions(config).progressIntervalMs);
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
    const codes = this.slots.map((s) => s.code);
    if (codes.includes(130)) return 130;
    return codes.every((c) => c === 0) && !summary.notWritten ? EXIT.ok : EXIT.incomplete;
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
    const args = [
      ...process.execArgv,
      MAIN,
      'run',
      ...(o.once ? ['--once'] : []),
      '--instances',
      String(o.instances),
      '--instance',
      String(o.instance),
      ...o.forward,
    ];
    const child = spawn(process.execPath, args, {
      env: { ...process.env, LOG_FORMAT: 'json', [WORKER_ENV]: `${w}/${this.workers}` },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      // Its own process group: a Ctrl-C on the terminal reaches the supervisor only, which passes
      // it on once, instead of every worker seeing it next to the supervisor's copy.
      detached: true,
    });
    slot.proc = child;
    slot.listening = false;
    const restart = slot.startedAt > 0;
    slot.startedAt = Date.now();
    slot.lastError = undefined;
    const pid = child.pid ?? -1;
    this.aggregate.started(pid, w);
    this.monitor.started(pid, w, restart);
    this.o.log.info({ workerPid: pid }, `worker ${w} of ${this.workers} started (pid ${pid})`);
    createInterface({ input: child.stderr! }).on('line', (line) => this.workerLine(slot, line));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line) this.o.log.info({ worker: w }, line);
    });
    child.on('message', (m: FromWorker) => this.message(slot, pid, m));
    let ended = false;
    const end = (code: number | null, signal: NodeJS.Signals | null) => {
      if (ended) return;
      ended = true;
      this.exited(slot, pid, code, signal);
    };
    child.on('error', (e) => {
      slot.lastError = e.message;
      // A process that could not be started sends no 'close' of its own.
      if (child.pid === undefined) end(1, null);
    });
    child.on('close', end);
  }

  /** A worker's stderr line, passed on with its number; its progress lines are summed instead. */
  private workerLine(slot: Slot, line: string): void {
    if (line === '') return;
    if (!line.startsWith('{')) {
      // Not JSON: a one-line failure at start-up ("crawler run: ...").
      slot.lastError = line;
      this.o.log.error({ worker: slot.worker }, line);
      return;
    }
    if (line.includes('"msg":"progress')) return;
    if (line.includes('"event":"transition"')) this.monitor.transitionLine(line);
    if (/"level":(50|60)/.test(line)) {
      const msg = /"msg":"((?:[^"\\]|\\.)*)"/.exec(line)?.[1];
      if (msg) slot.lastError = msg;
    }
    writeLogLine(
      this.o.log,
      `{"worker":${slot.worker},${line.slice(1)}`,
      line.includes('"component":"transitions"'),
    );
  }

  private message(slot: Slot, pid: number, m: FromWorker): void {
    const once = this.once;
    switch (m.type) {
      case 'lease-ask':
        // Answered at once (the worker may just have missed a message) and again once renewed.
        if (this.lease) {
          this.sendTo(slot, leaseMessage(this.lease));
          void this.lease.renewNow();
        }
        return;
      case 'listening':
        slot.listening = true;
        if (this.lease) this.sendTo(slot, leaseMessage(this.lease));
        // A stop asked while it was starting: it gets the signal now.
        if (this.workersSignalled) this.signalWorker(slot, this.stopSignal);
        return;
      case 'progress':
        this.aggregate.progress(pid, m.snapshot);
        return;
      case 'metrics':
        this.monitor.report(pid, m.metrics);
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
    for (const s of this.slots) this.sendTo(s, m);
  }

  private sendTo(slot: Slot, m: ToWorker): void {
    if (!slot.proc?.connected) return;
    try {
      slot.proc.send(m);
    } catch {
      // It is exiting; its 'close' follows.
    }
  }

  private exited(slot: Slot, pid: number, code: number | null, signal: NodeJS.Signals | null): void {
    const { log } = this.o;
    const w = slot.worker;
    this.aggregate.exited(pid);
    this.monitor.exited(pid);
    slot.proc = undefined;
    slot.code = code;
    const ranMs = Date.now() - slot.startedAt;
    if (code === 0 || this.stopping) {
      slot.done = true;
      if (!this.stopping) {
        log.info({ workerPid: pid }, `worker ${w} ended (pid ${pid}); it is not started again`);
        this.step(this.once?.endedOnItsOwn(w));
      }
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
      for (const s of this.slots) if (s.listening) this.signalWorker(s, sig);
    }
    this.workersSignalled = true;
    this.checkDone();
  }

  /** The second signal: every worker exits at once, listening or not. */
  private kill(sig: NodeJS.Signals): void {
    for (const s of this.slots) this.signalWorker(s, sig);
  }

  private signalWorker(slot: Slot, sig: NodeJS.Signals): void {
    try {
      slot.proc?.kill(sig);
    } catch {
      // Already gone.
    }
  }

  private checkDone(): void {
    if (this.slots.every((s) => s.done && !s.proc)) this.allDone();
  }
}
