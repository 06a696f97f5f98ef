import type { Clock } from '../../util/clock.js';
import { MD } from '../keys.js';
import type { Metadata } from '../metadata.js';
import type { Status } from '../status.js';
import { isoDate, parseInteger } from '../values.js';
import { DefaultScheduler, type DefaultSchedulerOptions } from './default.js';
import { after, MINUTE_MS, type Schedule } from './scheduler.js';

export interface AdaptiveSchedulerOptions extends DefaultSchedulerOptions {
  readonly setLastModified: boolean;
  readonly minMinutes: number;
  readonly maxMinutes: number;
  /** An unchanged page's interval is multiplied by 1 + incrRate. */
  readonly incrRate: number;
  /** A changed page's interval moves this fraction of the way towards the minimum. */
  readonly decrRate: number;
}

/**
 * StormCrawler's AdaptiveScheduler: for FETCHED pages, the interval shrinks when the signature
 * changed since the last fetch and grows when it did not (a 304 counts as unchanged), always within
 * [min, max]. The first fetch of a page, or one without signatures, is scheduled like the
 * DefaultScheduler would and that interval becomes the starting point. Any other status forgets the
 * adaptive state (and ERROR forgets `last-modified`, so the next fetch gets the full content) and
 * falls back to the DefaultScheduler.
 */
export class AdaptiveScheduler extends DefaultScheduler {
  override readonly ownKeys: readonly string[] = [
    MD.signature,
    MD.fetchInterval,
    MD.signatureChangeDate,
    MD.lastModified,
  ];

  constructor(
    private readonly adaptive: AdaptiveSchedulerOptions,
    clock: Clock,
  ) {
    super(adaptive, clock);
  }

  override schedule(status: Status, md: Metadata): Schedule {
    if (status !== 'FETCHED') {
      md.remove(MD.signatureChangeDate);
      md.remove(MD.fetchInterval);
      md.remove(MD.signature);
      md.remove(MD.signatureOld);
      if (status === 'ERROR') md.remove(MD.lastModified);
      return super.schedule(status, md);
    }
    const now = this.clock.now();
    const signature = md.getFirstValue(MD.signature);
    const previous = md.getFirstValue(MD.signatureOld);
    let how: string;
    if (md.getFirstValue(MD.fetchStatusCode) === '304') {
      how = 'not modified (304)';
    } else if (signature === undefined || previous === undefined) {
      return this.firstFetch(now, signature, md);
    } else if (signature === previous) {
      how = 'signature unchanged';
    } else {
      how = 'signature changed';
      md.setValue(MD.signatureChangeDate, isoDate(now));
      if (this.adaptive.setLastModified) md.setValue(MD.lastModified, isoDate(now));
    }

    const stored = md.getFirstValue(MD.fetchInterval);
    let interval = parseInteger(stored);
    let problem: string | undefined;
    if (stored !== undefined && (interval === undefined || interval < 0)) {
      problem = `${MD.fetchInterval} ${JSON.stringify(stored)} is not a number of minutes; restarted`;
      interval = undefined;
    }
    if (interval === undefined) {
      const start = this.interval(status, md);
      // A rule that says "never" stays never; growing -1 would give a date in the past.
      if (start.minutes === -1) return after(now, -1, start.rule, problem);
      interval = start.minutes;
    }

    const { minMinutes, maxMinutes, incrRate, decrRate } = this.adaptive;
    if (how === 'signature changed') {
      interval = Math.trunc((1 - decrRate) * interval + decrRate * minMinutes);
    } else {
      interval = Math.trunc(interval * (1 + incrRate));
      md.remove(MD.signatureOld);
      if (!md.getFirstValue(MD.signatureChangeDate)) {
        md.setValue(MD.signatureChangeDate, isoDate(now));
      }
    }
    interval = Math.min(Math.max(interval, minMinutes), maxMinutes);
    md.setValue(MD.fetchInterval, String(interval));
    return after(now, interval, `adaptive: ${how}`, problem);
  }

  // No comparison is possible yet: schedule as the DefaultScheduler would and remember the interval
  // as the starting point of the adaptation.
  private firstFetch(now: number, signature: string | undefined, md: Metadata): Schedule {
    if (this.adaptive.setLastModified && signature !== undefined) {
      md.setValue(MD.lastModified, isoDate(now));
    }
    const schedule = super.schedule('FETCHED', md);
    if (schedule.nextFetchDate !== null) {
      const minutes = Math.trunc((schedule.nextFetchDate - now) / MINUTE_MS);
      md.setValue(MD.fetchInterval, String(minutes));
    }
    return schedule;
  }
}
