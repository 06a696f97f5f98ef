import type { Config } from '../config/schema.js';
import { ERROR_CAUSE, MD } from './keys.js';
import type { Metadata, MetadataJSON } from './metadata.js';
import type { Status } from './status.js';

/**
 * One status update, as the operator's transition log shows it: a structured log line, and the
 * document of the optional transitions index.
 */
export interface TransitionRecord {
  readonly url: string;
  /** When the update was applied (ISO-8601 UTC); not `time`, which pino uses for its own. */
  readonly appliedAt: string;
  /** The status before, when the event knew it (the spout passes it along); null otherwise. */
  readonly previousStatus: Status | null;
  readonly status: Status;
  /** ISO-8601 UTC, or "never" when the URL will not be fetched again. */
  readonly nextFetchDate: string;
  /** Why the URL got this status; see `transitionReason` for the vocabulary. */
  readonly reason: string;
  /** What decided nextFetchDate (a config key, `scheduler.delay.mins`, `as-is`...). */
  readonly scheduledBy: string;
  /** The metadata stored in the status index. */
  readonly metadata: MetadataJSON;
  /** Keys the event had that the persist filter dropped, in the event's order. */
  readonly dropped: readonly string[];
  /** True when the URL's content is to be removed from the content index. */
  readonly delete: boolean;
  /** Bad per-URL values that were ignored instead of failing the update. */
  readonly problems: readonly string[];
}

export interface ReasonInput {
  readonly status: Status;
  /** The metadata after the rules and before the persist filter. */
  readonly metadata: Metadata;
  readonly storedAsIs: boolean;
  /** The updater itself turned this FETCH_ERROR into ERROR. */
  readonly reachedMaxFetchErrors: boolean;
}

/**
 * Why a URL got its status, from the first of these that applies:
 * 1. `deferred: <defer.cause>` or `as-is`: the event carried `status.store.as.is.with.nextfetchdate`;
 * 2. `discovered`: a DISCOVERED event (no fetch happened);
 * 3. `maxFetchErrors: <evidence>`: this FETCH_ERROR was the last one allowed, evidence as in 5–6;
 * 4. for ERROR, `error.cause` (`robots.txt`, `crawl_delay`, `malformed URL`, a parser's cause...),
 *    with the key that decides it when one does (`blocked address (http.filter.ipaddress.exclude)`);
 * 5. for FETCH_ERROR and ERROR, `fetch.exception` (e.g. `Socket timeout fetching`): an exception
 *    comes with the metadata from before the fetch, whose `fetch.statusCode` may be stale;
 * 6. `HTTP <fetch.statusCode>`;
 * 7. `error.cause` for any other status;
 * 8. `unspecified`.
 */
export function transitionReason(input: ReasonInput): string {
  const { status, metadata: md } = input;
  if (input.storedAsIs) {
    const deferred = md.getFirstValue(MD.deferCause);
    return deferred ? `deferred: ${deferred}` : 'as-is';
  }
  if (status === 'DISCOVERED') return 'discovered';
  const failing = status === 'FETCH_ERROR' || status === 'ERROR';
  const exception = failing ? md.getFirstValue(MD.fetchException) : undefined;
  const code = md.getFirstValue(MD.fetchStatusCode);
  const evidence = exception ?? (code !== undefined ? `HTTP ${code}` : undefined);
  if (input.reachedMaxFetchErrors) {
    return evidence ? `${ERROR_CAUSE.maxFetchErrors}: ${evidence}` : ERROR_CAUSE.maxFetchErrors;
  }
  const cause = md.getFirstValue(MD.errorCause);
  if (status === 'ERROR' && cause) return cause in REFUSED_AS ? `${REFUSED_AS[cause]} (${cause})` : cause;
  return evidence ?? cause ?? 'unspecified';
}

/** What a refusal by a setting (its error.cause is the key) is, named in the reason beside the key. */
const REFUSED_AS: Readonly<Record<string, string>> = {
  [ERROR_CAUSE.blockedAddress]: 'blocked address',
  [ERROR_CAUSE.nonHtmlContent]: 'content type',
};

/** One line for humans: `<url> <previous> -> <status> (<reason>), next <date|never>[, delete]`. */
export function formatTransition(r: TransitionRecord): string {
  const del = r.delete ? ', delete' : '';
  return `${r.url} ${r.previousStatus ?? '-'} -> ${r.status} (${r.reason}), next ${r.nextFetchDate}${del}`;
}

/** The part of a pino logger the transition log needs; pino's Logger satisfies it. */
export interface TransitionLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

/** Logs one record as a structured line: the record's fields plus `event: "transition"`. */
export function logTransition(logger: TransitionLogger, record: TransitionRecord): void {
  const level = record.problems.length > 0 ? 'warn' : 'info';
  logger[level]({ event: 'transition', ...record }, formatTransition(record));
}

export interface TransitionLogOptions {
  /** `status.transitions.log`: write one line per record. */
  readonly enabled: boolean;
  /** `status.transitions.warn.dropped`: keys whose loss is warned about once each. */
  readonly warnDropped: readonly string[];
}

/**
 * The operator's transition log. Besides one line per record, it warns once per process for each
 * key of `status.transitions.warn.dropped` that the persist filter drops, naming the setting that
 * would keep it: such keys (`fetch.exception`, `lastProcessedDate`...) are usually wanted, and their
 * silent loss is StormCrawler's most common surprise. The warnings come even when lines are off.
 */
export class TransitionLog {
  private readonly warned = new Set<string>();

  static fromConfig(
    logger: TransitionLogger,
    config: Pick<Config, 'status.transitions.log' | 'status.transitions.warn.dropped'>,
  ): TransitionLog {
    return new TransitionLog(logger, {
      enabled: config['status.transitions.log'],
      warnDropped: config['status.transitions.warn.dropped'],
    });
  }

  constructor(
    private readonly logger: TransitionLogger,
    private readonly options: TransitionLogOptions,
  ) {}

  write(record: TransitionRecord): void {
    for (const key of record.dropped) {
      if (this.warned.has(key) || !this.options.warnDropped.includes(key)) continue;
      this.warned.add(key);
      this.logger.warn(
        { event: 'transition.dropped', key, setting: 'metadata.persist', url: record.url },
        `metadata key "${key}" is not stored in the status index; add ${key} to metadata.persist to keep it`,
      );
    }
    if (this.options.enabled) logTransition(this.logger, record);
  }
}
