import { CrawlerError, errorMessage } from '../../util/errors.js';
import type { Logger } from '../../util/log.js';
import { type ClusterOutage, errorType, noAnswer, shardUnavailable, statusOf } from '../outage.js';

/** The status index is red: a refresh would wait for its missing shards. */
export class IndexRed extends CrawlerError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('INDEX_RED', message, options);
  }
}

/**
 * How the spout reads a failed or partial answer of the cluster: no answer (an outage), shards with
 * no copy to search (an outage too), or a refusal (bad settings, a bad filter query), logged once per
 * reason until a request works. One instance per spout: it is the spout's part in the shared
 * ClusterOutage, so the spout's "shards unavailable" starts and ends as one.
 */
export class SpoutFailures {
  /** The reason of the last failed request the cluster answered, logged once until one works. */
  private lastRefusal: string | undefined;

  constructor(
    private readonly outage: ClusterOutage,
    private readonly log: Logger,
  ) {}

  /** A request was answered: the cluster is up, and the next refusal is logged again. */
  answered(): void {
    this.outage.up();
    this.lastRefusal = undefined;
  }

  /** A key query was answered (a refusal of the timed query is not forgotten for it). */
  up(): void {
    this.outage.up();
  }

  /** An answer lacked shards with no active copy (`unavailableShards`), or it had them all. */
  shards(what: string, unavailable: string | undefined): void {
    if (unavailable) this.outage.shardsUnavailable(this, what, unavailable);
    else this.outage.shardsAvailable(this);
  }

  /** A request failed: no answer (an outage), shards unavailable (an outage too), or refused. */
  failure(what: string, e: unknown): void {
    if (noAnswer(e) && !(e instanceof IndexRed)) {
      this.outage.down(what, e);
    } else if (e instanceof IndexRed || shardUnavailable(statusOf(e), errorType(e))) {
      this.outage.up();
      this.outage.shardsUnavailable(this, what, errorMessage(e));
    } else {
      this.refused(e);
    }
  }

  /** A query the cluster answered with an error: logged once per reason. */
  private refused(e: unknown): void {
    const reason = errorMessage(e);
    if (reason === this.lastRefusal) return;
    this.lastRefusal = reason;
    this.log.warn(
      { err: reason },
      'spout query failed; retrying every spout.min.delay.queries (logged again only if the reason changes)',
    );
  }
}

/** True when a search answer lacks some shards' hits (`_shards.failed`, or `timed_out`). */
export function missedShards(body: unknown): boolean {
  const b = body as { timed_out?: boolean; _shards?: { failed?: number } } | undefined;
  return b?.timed_out === true || (b?._shards?.failed ?? 0) > 0;
}

interface ShardCounts {
  total?: number;
  successful?: number;
  skipped?: number;
  failed?: number;
  failures?: { status?: number; reason?: { type?: string; reason?: string } }[];
}

/**
 * Why shards of a search answer could not be searched for want of a copy ("1 of 4 shards not
 * searched: <reason>"), or undefined. A shard with no active copy (red) is neither successful nor
 * counted in `failed`: it is found by what is missing from `total`. A shard that failed for another
 * reason (rejected, out of memory) is not an outage: missedShards covers it.
 */
export function unavailableShards(body: unknown): string | undefined {
  const s = (body as { _shards?: ShardCounts } | undefined)?._shards;
  if (!s || s.total === undefined) return undefined;
  const missing = s.total - (s.successful ?? 0) - (s.skipped ?? 0);
  if (missing <= 0) return undefined;
  const unreported = missing - (s.failed ?? 0);
  const failure = s.failures?.find((f) => shardUnavailable(f.status ?? 0, f.reason?.type));
  if (unreported <= 0 && !failure) return undefined;
  const r = failure?.reason;
  return `${missing} of ${s.total} shards not searched${r ? `: ${r.type}: ${r.reason}` : ' (no active copy)'}`;
}
