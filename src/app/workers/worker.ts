import { type TransitionEntry, transitionEntry } from '../../console/state.js';
import { processFamilies } from '../../metrics/prometheus.js';
import type { MetricsRegistry } from '../../metrics/registry.js';
import type { WorkerReport } from '../../metrics/workers.js';
import type { TransitionRecord } from '../../model/transition.js';
import type { Crawler, RunOptions } from '../../pipeline/crawler.js';
import { onErrorLogged } from '../../util/log.js';
import type { FromWorker, ToWorker } from './messages.js';

/** What the link needs of the crawl loop. */
export type LinkedCrawl = Pick<Crawler, 'snapshot' | 'summary' | 'stillFinished' | 'requestStop'>;

/** How often a worker reports its counters to the supervisor. */
const REPORT_MS = 1000;
/** Its process metrics (prom-client's defaults) go with every this many reports. */
const PROCESS_EVERY = 5;
/** Transitions kept for the next report at most: the latest, as many as the console's tail shows. */
const TRANSITIONS_MAX = 30;

/** The part of a Node.js process a worker talks through (its IPC channel to the supervisor). */
export interface Channel {
  readonly connected: boolean;
  send?(message: FromWorker, callback?: (error: Error | null) => void): boolean;
  disconnect?(): void;
  on(event: 'message', listener: (message: ToWorker) => void): unknown;
  on(event: 'disconnect', listener: () => void): unknown;
  off(event: 'message', listener: (message: ToWorker) => void): unknown;
  off(event: 'disconnect', listener: () => void): unknown;
}

/**
 * A worker's side of `crawler run --workers`: reports its counters and its latest transitions every
 * second, and each error it logs as it logs it; with --once reports idle and busy and answers the
 * supervisor's checks (see OnceCoordinator); a `finish`, or a supervisor that went away (the channel
 * closed), stops the crawl as a signal does. Its crawl writes no progress lines: the supervisor
 * writes one for all its workers from their reports.
 */
export class SupervisorLink {
  private readonly timer: NodeJS.Timeout;
  private reports = 0;
  /** Transitions since the last report (the latest TRANSITIONS_MAX). */
  private transitions: TransitionEntry[] = [];

  constructor(
    private readonly crawler: LinkedCrawl,
    private readonly channel: Channel = process as unknown as Channel,
    /** The crawl's metrics, reported with the counters (the supervisor serves and writes them). */
    private readonly metrics?: Pick<MetricsRegistry, 'collect'>,
  ) {
    this.timer = setInterval(() => {
      this.send({ type: 'progress', snapshot: crawler.snapshot() });
      this.sendTransitions();
      if (this.metrics)
        void this.report(this.reports++ % PROCESS_EVERY === 0).then((m) =>
          this.send({ type: 'metrics', metrics: m }),
        );
    }, REPORT_MS);
    this.timer.unref();
    channel.on('message', this.onMessage);
    channel.on('disconnect', this.onDisconnect);
    onErrorLogged((message) => this.send({ type: 'error', message }));
    // A supervisor gone while this worker was starting: its 'disconnect' has fired already.
    if (!channel.connected) this.onDisconnect();
  }

  /**
   * What `crawler.run` needs: no progress lines, its transitions reported here, and with --once the
   * loop reports idle here instead of ending.
   */
  runOptions(once: boolean): Pick<RunOptions, 'idle' | 'progressLines' | 'onTransition'> {
    return {
      progressLines: false,
      onTransition: this.onTransition,
      ...(once ? { idle: (idle: boolean) => this.send({ type: idle ? 'idle' : 'busy' }) } : {}),
    };
  }

  /** After the crawl: its summary, then the channel closes (an open channel keeps a process alive). */
  async close(): Promise<void> {
    clearInterval(this.timer);
    onErrorLogged(undefined);
    this.channel.off('message', this.onMessage);
    this.channel.off('disconnect', this.onDisconnect);
    this.sendTransitions();
    const summary = this.crawler.summary();
    const metrics = this.metrics ? await this.report(true) : undefined;
    await new Promise<void>((resolve) => {
      const m = {
        type: 'summary' as const,
        summary,
        snapshot: this.crawler.snapshot(),
        ...(metrics ? { metrics } : {}),
      };
      if (!this.send(m, () => resolve())) resolve();
    });
    if (this.channel.connected) this.channel.disconnect?.();
  }

  private readonly onMessage = (message: ToWorker) => {
    if (message.type === 'finish') this.crawler.requestStop();
    else if (message.type === 'check') {
      this.crawler.stillFinished().then(
        (finished) => this.send({ type: 'checked', round: message.round, finished }),
        () => this.send({ type: 'checked', round: message.round, finished: false }),
      );
    }
  };

  private readonly onDisconnect = () => this.crawler.requestStop();

  private readonly onTransition = (record: TransitionRecord) => {
    if (this.transitions.length >= TRANSITIONS_MAX) this.transitions.shift();
    this.transitions.push(transitionEntry(record));
  };

  private sendTransitions(): void {
    if (this.transitions.length === 0) return;
    this.send({ type: 'transitions', entries: this.transitions });
    this.transitions = [];
  }

  private async report(withProcess: boolean): Promise<WorkerReport> {
    const crawl = await this.metrics!.collect();
    return withProcess ? { crawl, process: await processFamilies() } : { crawl };
  }

  /** False when it could not be sent (the supervisor is gone); `done` is then never called. */
  private send(message: FromWorker, done?: () => void): boolean {
    if (!this.channel.connected || !this.channel.send) return false;
    try {
      this.channel.send(message, done && (() => done()));
      return true;
    } catch {
      return false;
    }
  }
}
