import { MD } from '../keys.js';
import type { Metadata } from '../metadata.js';
import type { Status } from '../status.js';
import type { Schedule, Scheduler } from './scheduler.js';

/**
 * A near-duplicate (FETCHED with `duplicate.of`) is fetched `factor` times less often than the
 * scheduler says (`dedup.fetch.interval.factor`): its text is already in the index under its
 * canonical, and it only needs looking at to notice that it changed away. Wraps any scheduler.
 */
export class DuplicateStretch implements Scheduler {
  readonly ownKeys: readonly string[];

  constructor(
    private readonly inner: Scheduler,
    private readonly factor: number,
    private readonly now: () => number,
  ) {
    this.ownKeys = inner.ownKeys;
  }

  schedule(status: Status, metadata: Metadata): Schedule {
    const s = this.inner.schedule(status, metadata);
    if (
      status !== 'FETCHED' ||
      s.nextFetchDate === null ||
      metadata.getFirstValue(MD.duplicateOf) === undefined
    )
      return s;
    const now = this.now();
    const stretched = now + Math.max(0, s.nextFetchDate - now) * this.factor;
    return { ...s, nextFetchDate: stretched, rule: `${s.rule} x dedup.fetch.interval.factor ${this.factor}` };
  }
}
