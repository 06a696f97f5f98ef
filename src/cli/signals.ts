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

  take(): StopSignal {
    const now = this.now();
    if (this.firstAt === undefined) {
      this.firstAt = now;
      return 'first';
    }
    return now - this.firstAt < this.repeatMs ? 'repeat' : 'again';
  }
}
