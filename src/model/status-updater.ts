import type { Config } from '../config/schema.js';
import type { Clock } from '../util/clock.js';
import { parseCacheSpec } from './cache-spec.js';
import { type CacheStats, DiscoveredCache } from './discovered-cache.js';
import { derivedErrorCause, FAILURE_KEYS, isFailure } from './failure-cause.js';
import { ERROR_CAUSE, ERROR_SOURCE, MD } from './keys.js';
import type { Metadata } from './metadata.js';
import { MetadataTransfer, type MetadataTransferConfig } from './metadata-transfer.js';
import { DuplicateStretch } from './scheduler/duplicates.js';
import { createScheduler, type Schedule, type Scheduler, type SchedulerConfig } from './scheduler/index.js';
import type { Status } from './status.js';
import { type TransitionRecord, transitionReason } from './transition.js';
import { isoDate, parseInstant, parseInteger, type RoundUnit, roundDate } from './values.js';

/**
 * What a stage reports about a URL: the single input of the status updater. Every URL the spout
 * emits ends in exactly one such event (FETCHED, FETCH_ERROR, REDIRECTION or ERROR); every outlink,
 * redirect target and seed is a DISCOVERED event of its own.
 */
export interface StatusEvent {
  readonly url: string;
  readonly status: Status;
  /** The URL's metadata as the stage left it; the updater works on a copy. */
  readonly metadata: Metadata;
  /** The status the spout read from the index, passed along for the transition log. */
  readonly previousStatus?: Status;
  /**
   * The URL was put back unfetched (the fetcher decided it: a host down, a Retry-After, robots.txt
   * unavailable...): stored as is, due at `until`. The updater writes it as `defer.*` metadata.
   */
  readonly deferral?: Deferral;
}

/** A URL put back unfetched: due again at `until`, and why. */
export interface Deferral {
  /** Milliseconds since the epoch. */
  readonly until: number;
  /** A DEFER_CAUSE value. */
  readonly cause: string;
  readonly message: string;
  /** When it was deferred (ms). */
  readonly now: number;
}

/** The outcome of one event: what the status index stores, plus the deletion flag and the record. */
export interface StatusUpdate {
  readonly url: string;
  readonly status: Status;
  /** The metadata after the persist filter: what the status document holds. */
  readonly metadata: Metadata;
  /** Milliseconds since the epoch, rounded; null = never (the document gets no nextFetchDate). */
  readonly nextFetchDate: number | null;
  /** Remove the URL's content: ERROR, and REDIRECTION with `status.updater.delete.redirections`. */
  readonly delete: boolean;
  /** The metadata before the persist filter, for consumers of the deletion (StormCrawler's deletion stream). */
  readonly fullMetadata: Metadata;
  readonly transition: TransitionRecord;
  /**
   * The event carried the as-is date (a deferral): it replaces the document whatever its status, a
   * DISCOVERED one included (written with op_type index, not create).
   */
  readonly storedAsIs: boolean;
}

export interface StatusUpdaterOptions {
  readonly scheduler: Scheduler;
  readonly transfer: MetadataTransfer;
  readonly clock: Clock;
  /** Undefined when `status.updater.use.cache` is false. */
  readonly cache: DiscoveredCache | undefined;
  readonly maxFetchErrors: number;
  readonly roundDate: RoundUnit;
  readonly deleteRedirections: boolean;
  /**
   * Metadata keys of the response validators kept for conditional GET (`http.conditional.get`),
   * removed when the page's content goes (ERROR, REDIRECTION); empty when it is off.
   */
  readonly validators?: readonly string[];
}

/** What an update ends with, for `finish`: the status, the whole metadata, its schedule and notes. */
interface Finishing {
  readonly status: Status;
  /** The metadata before the transfer's filter (what the transition log's `dropped` is read from). */
  readonly full: Metadata;
  readonly schedule: Schedule;
  readonly problems: readonly string[];
  readonly now: number;
  readonly storedAsIs: boolean;
  readonly reachedMaxFetchErrors?: boolean;
}

export type StatusUpdaterConfig = SchedulerConfig &
  MetadataTransferConfig &
  Pick<
    Config,
    | 'max.fetch.errors'
    | 'status.updater.use.cache'
    | 'status.updater.cache.spec'
    | 'status.updater.unit.round.date'
    | 'status.updater.delete.redirections'
    | 'http.conditional.get'
    | 'protocol.md.prefix'
    | 'dedup.mode'
    | 'dedup.fetch.interval.factor'
  >;

/**
 * StormCrawler's status update rules (AbstractStatusUpdaterBolt), synchronous and free of I/O; its one
 * state is the DISCOVERED cache (URLs whose write was acknowledged recently).
 *
 * Contract with the daemon:
 * - `apply(event)` for every status event, in arrival order per URL. It returns `'skipped-cached'`
 *   for a DISCOVERED event of a URL stored recently (nothing to write), otherwise the update to
 *   write: op_type create for DISCOVERED (an existing document wins), index for the rest and for
 *   a deferral (`storedAsIs`) whatever its status.
 * - `acknowledged(url)` once OpenSearch has accepted that write (a 409 on create counts): only then
 *   does the URL enter the DISCOVERED cache, so a failed write never hides a URL.
 * - Never throws on a URL's metadata: bad values are ignored, removed where they would recur, and
 *   listed in `transition.problems`.
 *
 * The rules, in order: DISCOVERED cache (not for an as-is event); the as-is date (skips all the
 * rest); discoveryDate or lastProcessedDate; `defer.*` removed; FETCH_ERROR counting up to `max.fetch.errors`, then ERROR with `error.cause`
 * maxFetchErrors; the counter removed for any other status; an `error.cause` derived for a
 * FETCH_ERROR or ERROR without one (src/model/failure-cause.ts); `error.*` cleared on FETCHED and
 * REDIRECTION; the deletion flag; scheduling on the unfiltered metadata; the persist filter;
 * rounding of nextFetchDate.
 */
export class StatusUpdater {
  readonly scheduler: Scheduler;
  readonly transfer: MetadataTransfer;

  constructor(private readonly options: StatusUpdaterOptions) {
    this.scheduler = options.scheduler;
    this.transfer = options.transfer;
  }

  apply(event: StatusEvent): StatusUpdate | 'skipped-cached' {
    const deferral = event.deferral;
    // The as-is date of StormCrawler's metadata key (a seed may carry it); a deferral is typed.
    const asIs = deferral ? undefined : event.metadata.getFirstValue(MD.storeAsIs);
    // A deferred DISCOVERED URL is one the spout handed out: its new date must be written.
    if (
      event.status === 'DISCOVERED' &&
      deferral === undefined &&
      asIs === undefined &&
      this.options.cache?.has(event.url)
    )
      return 'skipped-cached';
    const md = event.metadata.copy();
    const problems: string[] = [];
    const now = this.options.clock.now();

    if (deferral) {
      md.setValue(MD.deferCause, deferral.cause);
      md.setValue(MD.deferDate, isoDate(deferral.now));
      md.setValue(MD.deferMessage, deferral.message);
    }
    // Stored as is: a deferral's date (whole milliseconds, as it would be once written) or a valid
    // as-is date in the metadata.
    const asIsAt = deferral
      ? Math.trunc(deferral.until)
      : asIs === undefined
        ? undefined
        : parseInstant(asIs);
    if (asIsAt !== undefined) {
      const schedule = { nextFetchDate: asIsAt, rule: MD.storeAsIs };
      return this.finish(event, {
        status: event.status,
        full: md,
        schedule,
        problems,
        now,
        storedAsIs: true,
      });
    }
    if (asIs !== undefined) {
      // Removed so that a persisted bad value cannot keep failing every later update.
      md.remove(MD.storeAsIs);
      problems.push(
        `${MD.storeAsIs} ${JSON.stringify(asIs)} is not an ISO-8601 instant; ignored and removed`,
      );
    }

    let status = event.status;
    md.setValue(status === 'DISCOVERED' ? MD.discoveryDate : MD.lastProcessedDate, isoDate(now));
    // Any update but a deferral means the URL was dealt with: a past deferral no longer explains it.
    md.remove(MD.deferCause);
    md.remove(MD.deferDate);
    md.remove(MD.deferMessage);

    let reachedMaxFetchErrors = false;
    if (status === 'FETCH_ERROR') {
      const raw = md.getFirstValue(MD.fetchErrorCount);
      const previous = parseInteger(raw);
      if (raw !== undefined && previous === undefined) {
        problems.push(`${MD.fetchErrorCount} ${JSON.stringify(raw)} is not an integer; counted from 0`);
      }
      const count = (previous ?? 0) + 1;
      if (count >= this.options.maxFetchErrors) {
        status = 'ERROR';
        md.setValue(MD.errorCause, ERROR_CAUSE.maxFetchErrors);
        reachedMaxFetchErrors = true;
      } else {
        md.setValue(MD.fetchErrorCount, String(count));
      }
    }
    if (status !== 'FETCH_ERROR') md.remove(MD.fetchErrorCount);
    if (isFailure(status) && !md.getFirstValue(MD.errorCause))
      md.setValue(MD.errorCause, derivedErrorCause(md));
    // Every stage after the fetch names itself; what none named was ended by the fetch.
    if (isFailure(status) && !md.getFirstValue(MD.errorSource))
      md.setValue(MD.errorSource, ERROR_SOURCE.fetching);
    if (status === 'FETCHED' || status === 'REDIRECTION') {
      md.remove(MD.errorCause);
      md.remove(MD.errorMessage);
      md.remove(MD.errorSource);
    }
    // Its content is removed: a 304 must not make it FETCHED without a page.
    if (status === 'ERROR' || status === 'REDIRECTION') {
      for (const k of this.options.validators ?? []) md.remove(k);
    }

    const schedule = this.scheduler.schedule(status, md);
    if (schedule.problem !== undefined) problems.push(schedule.problem);
    const next = schedule.nextFetchDate;
    const rounded = next === null ? null : roundDate(next, this.options.roundDate);
    return this.finish(event, {
      status,
      full: md,
      schedule: { ...schedule, nextFetchDate: rounded },
      problems,
      now,
      storedAsIs: false,
      reachedMaxFetchErrors,
    });
  }

  /**
   * True when a DISCOVERED event of `url` would be `'skipped-cached'`: lets a caller skip it before
   * building the event.
   */
  knowsDiscovered(url: string): boolean {
    return this.options.cache?.has(url) ?? false;
  }

  acknowledged(url: string): void {
    this.options.cache?.put(url);
  }

  /** Hits, misses and size of the DISCOVERED cache; undefined when it is off. */
  cacheStats(): CacheStats | undefined {
    return this.options.cache?.stats();
  }

  private finish(event: StatusEvent, how: Finishing): StatusUpdate {
    const { status, full, schedule, problems, now } = how;
    const kept = this.transfer.filter(full);
    if (isFailure(status)) {
      for (const k of FAILURE_KEYS) {
        if (!kept.has(k)) kept.setValues(k, full.getValues(k));
      }
    }
    const deleted =
      !how.storedAsIs &&
      (status === 'ERROR' || (status === 'REDIRECTION' && this.options.deleteRedirections));
    const { nextFetchDate } = schedule;
    // Built only when read: most DISCOVERED writes find the URL known (409) and log nothing.
    let transition: TransitionRecord | undefined;
    const record = (): TransitionRecord => ({
      url: event.url,
      appliedAt: isoDate(now),
      previousStatus: event.previousStatus ?? null,
      status,
      nextFetchDate: nextFetchDate === null ? 'never' : isoDate(nextFetchDate),
      reason: transitionReason({
        status,
        metadata: full,
        storedAsIs: how.storedAsIs,
        reachedMaxFetchErrors: how.reachedMaxFetchErrors ?? false,
      }),
      scheduledBy: schedule.rule,
      metadata: kept.toJSON(),
      dropped: full.keySet().filter((k) => !kept.has(k)),
      delete: deleted,
      problems,
    });
    return {
      url: event.url,
      status,
      metadata: kept,
      nextFetchDate,
      delete: deleted,
      fullMetadata: full,
      storedAsIs: how.storedAsIs,
      get transition() {
        transition ??= record();
        return transition;
      },
    };
  }
}

/**
 * The status updater the configuration describes, with its scheduler and metadata transfer. Throws
 * a ConfigError at start-up for a bad cache spec or bad scheduler settings.
 */
export function createStatusUpdater(config: StatusUpdaterConfig, clock: Clock): StatusUpdater {
  const base = createScheduler(config, clock);
  const factor = config['dedup.fetch.interval.factor'];
  const scheduler =
    config['dedup.mode'] !== 'off' && factor !== 1
      ? new DuplicateStretch(base, factor, () => clock.now())
      : base;
  const prefix = config['protocol.md.prefix'];
  const validators = config['http.conditional.get']
    ? [prefix + MD.etagHeader, prefix + MD.lastModifiedHeader]
    : [];
  const cache = config['status.updater.use.cache']
    ? new DiscoveredCache(
        parseCacheSpec(config['status.updater.cache.spec'], 'status.updater.cache.spec'),
        clock,
      )
    : undefined;
  return new StatusUpdater({
    scheduler,
    // Kept whatever metadata.persist says: the scheduler's own state, the validators of conditional
    // GET, and the mark of a body cut at a limit (so the status index says the page is incomplete).
    transfer: MetadataTransfer.fromConfig(config, [
      ...scheduler.ownKeys,
      ...validators,
      MD.trimmed,
      MD.trimmedReason,
      // What a near-duplicate duplicates, what a similar page is like and why a page is a soft 404
      // (crawler url, crawler stats).
      MD.duplicateOf,
      MD.duplicateDistance,
      MD.duplicateSimilarity,
      MD.similarTo,
      MD.similarSimilarity,
      MD.soft404Evidence,
    ]),
    clock,
    cache,
    maxFetchErrors: config['max.fetch.errors'],
    roundDate: config['status.updater.unit.round.date'],
    deleteRedirections: config['status.updater.delete.redirections'],
    validators,
  });
}
