import type { Metadata } from '../metadata.js';
import type { Status } from '../status.js';

/** When a URL is due again, and why. */
export interface Schedule {
  /** Milliseconds since the epoch, or null for never: the status document gets no nextFetchDate. */
  readonly nextFetchDate: number | null;
  /**
   * What decided, for the transition log: a config key (`fetchInterval.default`,
   * `fetchInterval.FETCHED.isFeed=true`), the metadata key `scheduler.delay.mins`, or a short phrase
   * such as `DISCOVERED: due now` or `adaptive: unchanged`.
   */
  readonly rule: string;
  /** A per-URL value that was ignored because it was invalid; the transition log shows it. */
  readonly problem?: string;
}

/**
 * Decides when a URL is fetched next. `scheduler.class` chooses one of the two built-ins
 * (DefaultScheduler, AdaptiveScheduler); it is a closed list, not a plug-in point, because a
 * scheduler's keys are part of the status documents' contract (see `ownKeys`).
 *
 * Lifecycle contract:
 * - Built once at start-up by `createScheduler(config, clock)`. Invalid configuration is rejected
 *   there (a ConfigError naming the key) and nowhere else.
 * - `schedule` is called by the StatusUpdater exactly once per status update that is stored, after
 *   the error counting and the clearing of `error.*`, and before the persist filter: it sees every
 *   key of the event, persisted or not. It is not called for updates stored "as is" nor for
 *   DISCOVERED updates skipped by the cache.
 * - It reads the time from the Clock it was built with, nothing else.
 * - It may write the keys named in `ownKeys` into `metadata` (bookkeeping it needs back at the next
 *   fetch); the updater persists those keys whatever `metadata.persist` says. It writes nothing else.
 * - It never throws: a bad per-URL value (a non-integer `scheduler.delay.mins`, say) is ignored and
 *   reported in `Schedule.problem`.
 * - The updater rounds `nextFetchDate` afterwards (`status.updater.unit.round.date`); the scheduler
 *   returns the exact time.
 */
export interface Scheduler {
  readonly ownKeys: readonly string[];
  schedule(status: Status, metadata: Metadata): Schedule;
}

export const MINUTE_MS = 60_000;

/** `minutes` after `now`, where -1 means never (any other negative value lies in the past). */
export function after(now: number, minutes: number, rule: string, problem?: string): Schedule {
  const nextFetchDate = minutes === -1 ? null : now + Math.round(minutes * MINUTE_MS);
  return problem === undefined ? { nextFetchDate, rule } : { nextFetchDate, rule, problem };
}
