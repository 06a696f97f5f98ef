import { buildConfig } from '../../../src/config/load.js';
import type { Config } from '../../../src/config/schema.js';
import { Metadata } from '../../../src/model/metadata.js';
import {
  createStatusUpdater,
  type StatusEvent,
  type StatusUpdate,
  type StatusUpdater,
} from '../../../src/model/status-updater.js';
import { ManualClock } from '../../../src/util/clock.js';

/** The configuration the crawler would load: defaults plus these settings. */
export function config(entries: Record<string, unknown> = {}): Config {
  return buildConfig([{ source: 'test', entries }]).config;
}

export const md = (record: Record<string, string | string[]> = {}): Metadata => Metadata.of(record);

/** 2025-01-01T00:00:00.000Z, ManualClock's default start. */
export const T0 = Date.UTC(2025, 0, 1);
export const MIN = 60_000;
export const iso = (ms: number): string => new Date(ms).toISOString();

/** A status updater built from this config, with a ManualClock at T0. */
export function setup(entries: Record<string, unknown> = {}) {
  const clock = new ManualClock(T0);
  return { u: createStatusUpdater(config(entries), clock), clock };
}

/** Applies an event that must produce an update. */
export function stored(u: StatusUpdater, event: StatusEvent): StatusUpdate {
  const result = u.apply(event);
  if (result === 'skipped-cached') throw new Error('unexpectedly skipped');
  return result;
}
