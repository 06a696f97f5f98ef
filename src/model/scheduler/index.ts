import type { Config } from '../../config/schema.js';
import type { Clock } from '../../util/clock.js';
import { ConfigError } from '../../util/errors.js';
import { AdaptiveScheduler } from './adaptive.js';
import { type IntervalRule, parseIntervalRules } from './custom-intervals.js';
import { DefaultScheduler } from './default.js';
import type { Scheduler } from './scheduler.js';

export { AdaptiveScheduler, type AdaptiveSchedulerOptions } from './adaptive.js';
export { CustomIntervals, type IntervalRule, parseIntervalRules } from './custom-intervals.js';
export { DefaultScheduler, type DefaultSchedulerOptions } from './default.js';
export type { Schedule, Scheduler } from './scheduler.js';

export type SchedulerConfig = Pick<
  Config,
  | 'scheduler.class'
  | 'fetchInterval.default'
  | 'fetchInterval.fetch.error'
  | 'fetchInterval.error'
  | 'scheduler.adaptive.setLastModified'
  | 'scheduler.adaptive.fetchInterval.min'
  | 'scheduler.adaptive.fetchInterval.max'
  | 'scheduler.adaptive.fetchInterval.rate.incr'
  | 'scheduler.adaptive.fetchInterval.rate.decr'
  | 'patterned'
>;

/**
 * The scheduler named by `scheduler.class`. Throws a ConfigError naming the key for a custom interval
 * with an unknown status, and for AdaptiveScheduler bounds that cannot work (min above max, a
 * decrement rate above 1).
 */
export function createScheduler(config: SchedulerConfig, clock: Clock): Scheduler {
  const base = {
    defaultMinutes: config['fetchInterval.default'],
    fetchErrorMinutes: config['fetchInterval.fetch.error'],
    errorMinutes: config['fetchInterval.error'],
    rules: parseIntervalRules(config.patterned),
  };
  checkRange(config, base.rules);
  if (config['scheduler.class'] === 'DefaultScheduler') return new DefaultScheduler(base, clock);

  const minMinutes = config['scheduler.adaptive.fetchInterval.min'];
  const maxMinutes = config['scheduler.adaptive.fetchInterval.max'];
  const decrRate = config['scheduler.adaptive.fetchInterval.rate.decr'];
  const problems: string[] = [];
  if (minMinutes > maxMinutes) {
    problems.push(
      `key "scheduler.adaptive.fetchInterval.min" (${minMinutes}) is above ` +
        `"scheduler.adaptive.fetchInterval.max" (${maxMinutes})`,
    );
  }
  if (decrRate > 1) {
    problems.push(`key "scheduler.adaptive.fetchInterval.rate.decr" has value ${decrRate}; expected 0 to 1`);
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return new AdaptiveScheduler(
    {
      ...base,
      setLastModified: config['scheduler.adaptive.setLastModified'],
      minMinutes,
      maxMinutes,
      incrRate: config['scheduler.adaptive.fetchInterval.rate.incr'],
      decrRate,
    },
    clock,
  );
}

/** A century: beyond it a date is meaningless, and far beyond it JavaScript dates stop working. */
export const MAX_INTERVAL_MINUTES = 100 * 366 * 24 * 60;

function checkRange(config: SchedulerConfig, rules: readonly IntervalRule[]): void {
  const keys = [
    'fetchInterval.default',
    'fetchInterval.fetch.error',
    'fetchInterval.error',
    'scheduler.adaptive.fetchInterval.min',
    'scheduler.adaptive.fetchInterval.max',
  ] as const;
  const values: [string, number][] = [
    ...keys.map((k): [string, number] => [k, config[k]]),
    ...rules.map((r): [string, number] => [r.key, r.minutes]),
  ];
  const problems = values
    .filter(([, minutes]) => Math.abs(minutes) > MAX_INTERVAL_MINUTES)
    .map(
      ([key, minutes]) =>
        `key "${key}" has value ${minutes}; expected at most ${MAX_INTERVAL_MINUTES} minutes`,
    );
  if (problems.length > 0) throw new ConfigError(problems);
}
