/** What a stop signal (SIGINT, SIGTERM) means, counted by `StopSignals`. */
export type StopSignal = 'first' | 'repeat' | 'again';

/** A signal within this long of the first is the same request (see StopSignals). */
export const SIGNAL_REPEAT_MS = 1000;

/**
 * Counts the stop signals a command receives. The first asks for a drain; one that comes within a
 * second of it is a repeat of the same request and counts once: Ctrl-C on a terminal signals the
 * whole process group, and a wrapper in that group (npx, npm run) passes the same signal on again.
 * A signal after that second is the operator's second: exit at once.
 */
export class StopSignals {
  private firstAt: number | undefined;

  constructor(
    private readonly now: () => number = Date.now,
    private readonly repeatMs = SIGNAL_REPEAT_MS,
  ) {}

  /**
   * Listens for SIGINT and SIGTERM until the returned function is called; that function keeps the
   * listener for what is left of the repeat window, so that the copy a wrapper passes on a little
   * later does not kill a process whose crawl ended at once (a signal nobody listens to would).
   */
  listen(onSignal: (signal: NodeJS.Signals, which: StopSignal) => void): () => void {
    const listener = (signal: NodeJS.Signals) => {
      const which = this.take();
      if (which !== 'repeat') onSignal(signal, which);
    };
    process.on('SIGINT', listener);
    process.on('SIGTERM', listener);
    const off = () => {
      process.off('SIGINT', listener);
      process.off('SIGTERM', listener);
    };
    return () => {
      const left = this.firstAt === undefined ? 0 : this.firstAt + this.repeatMs - this.now();
      if (left > 0) setTimeout(off, left).unref();
      else off();
    };
  }

  /**
   * `listen` for a command that drains on the first signal: `onFirst` asks for the drain, and the
   * operator's second signal exits at once (130) with one line saying so.
   */
  listenToDrain(log: { warn(msg: string): void }, onFirst: (signal: NodeJS.Signals) => void): () => void {
    return this.listen((signal, which) => {
      if (which === 'again') {
        log.warn(`${signal} again: exiting at once`);
        process.exit(130);
      }
      onFirst(signal);
    });
  }

  take(): StopSignal {
    const now = this.now();
    if (this.firstAt === undefined) {
      this.firstAt = now;
      return 'first';
    }
    return now - this.firstAt < this.repeatMs ? 'repeat' : 'again';
  }
}
