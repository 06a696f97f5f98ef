import type { Clock } from '../../util/clock.js';
import { MD } from '../keys.js';
import type { Metadata } from '../metadata.js';
import type { Status } from '../status.js';
import { parseInteger } from '../values.js';
import { CustomIntervals, type IntervalRule } from './custom-intervals.js';
import { after, type Schedule, type Scheduler } from './scheduler.js';

export interface DefaultSchedulerOptions {
  /** `fetchInterval.default`: minutes for FETCHED and REDIRECTION. */
  readonly defaultMinutes: number;
  /** `fetchInterval.fetch.error`: minutes for FETCH_ERROR. */
  readonly fetchErrorMinutes: number;
  /** `fetchInterval.error`: minutes for ERROR. */
  readonly errorMinutes: number;
  /** The `fetchInterval[.STATUS].key=value` rules, in config order. */
  readonly rules: readonly IntervalRule[];
}

/**
 * StormCrawler's DefaultScheduler: a fixed interval per status, with per-URL and per-metadata
 * overrides. In order:
 * 1. the metadata `scheduler.delay.mins` (an integer, any status); a non-integer is removed from the
 *    metadata, reported, and the next rules apply instead of failing the update;
 * 2. the first matching custom rule (see CustomIntervals for the precedence; DISCOVERED only takes
 *    rules that name it);
 * 3. the interval of the status; DISCOVERED is due now.
 * -1 minutes means never, wherever it comes from.
 */
export class DefaultScheduler implements Scheduler {
  readonly ownKeys: readonly string[] = [];
  protected readonly custom: CustomIntervals;

  constructor(
    protected readonly options: DefaultSchedulerOptions,
    protected readonly clock: Clock,
  ) {
    this.custom = new CustomIntervals(options.rules);
  }

  schedule(status: Status, metadata: Metadata): Schedule {
    const now = this.clock.now();
    const delay = metadata.getFirstValue(MD.delayMins);
    let problem: string | undefined;
    if (delay !== undefined) {
      const minutes = parseInteger(delay);
      if (minutes !== undefined) return after(now, minutes, MD.delayMins);
      metadata.remove(MD.delayMins);
      problem = `${MD.delayMins} ${JSON.stringify(delay)} is not an integer; ignored and removed`;
    }
    const { minutes, rule } = this.interval(status, metadata);
    return after(now, minutes, rule, problem);
  }

  /** The interval the configuration gives this status and metadata, ignoring `scheduler.delay.mins`. */
  protected interval(status: Status, metadata: Metadata): { minutes: number; rule: string } {
    const custom = this.custom.match(status, metadata);
    if (custom) return { minutes: custom.minutes, rule: custom.key };
    return this.statusInterval(status);
  }

  protected statusInterval(status: Status): { minutes: number; rule: string } {
    switch (status) {
      case 'DISCOVERED':
        return { minutes: 0, rule: 'DISCOVERED: due now' };
      case 'FETCHED':
      case 'REDIRECTION':
        return { minutes: this.options.defaultMinutes, rule: 'fetchInterval.default' };
      case 'FETCH_ERROR':
        return { minutes: this.options.fetchErrorMinutes, rule: 'fetchInterval.fetch.error' };
      case 'ERROR':
        return { minutes: this.options.errorMinutes, rule: 'fetchInterval.error' };
    }
  }
}
