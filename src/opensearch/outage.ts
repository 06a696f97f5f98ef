import type { Clock } from '../util/clock.js';
import { errorMessage } from '../util/errors.js';
import type { Logger } from '../util/log.js';

/**
 * One view of "OpenSearch cannot serve us", shared by every part that talks to it (the spout and
 * the bulk writers), so that an outage is one log line when it starts and one when it ends, with
 * its duration, however many requests fail in between. Two kinds, tracked apart:
 *
 * - **unreachable**: a request failed without an answer (refused, reset, timed out) from every
 *   node tried. Any answer ends it.
 * - **shards unavailable**: the cluster answers, but some shards cannot be served (a node holding
 *   a shard's only copy left, a primary is failing over, no cluster manager is elected). Each part
 *   that saw it reports for itself (`shardsUnavailable(part)`), and it ends once every one of them
 *   has its shards back (`shardsAvailable(part)`): a bulk writer when none of its items waits for
 *   a shard any more, the spout when a query had no failed shard. A part that never saw trouble
 *   cannot end it, so a healthy shard's answers do not make the lines flap.
 */
export class ClusterOutage {
  private since: number | undefined;
  private shardsSince: number | undefined;
  /** The parts that saw unavailable shards and have not seen them back yet. */
  private readonly shardTrouble = new Set<unknown>();

  constructor(
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {}

  /** `what` (e.g. "bulk write", "spout query") got no answer. */
  down(what: string, e: unknown): void {
    if (this.since !== undefined) return;
    this.since = this.clock.now();
    this.log.warn(
      { err: errorMessage(e), during: what },
      'OpenSearch cannot be reached: pausing and retrying (writes wait, the spout queries again); ' +
        'nothing is lost',
    );
  }

  /** A request got an answer. */
  up(): void {
    if (this.since === undefined) return;
    const seconds = Math.round((this.clock.now() - this.since) / 1000);
    this.since = undefined;
    this.log.info({ seconds }, `OpenSearch is back after ${seconds} s: writes and queries resumed`);
  }

  /** `part` (a bulk writer, the spout) found shards it needs unavailable during `what`; `reason` is OpenSearch's. */
  shardsUnavailable(part: unknown, what: string, reason: string): void {
    this.shardTrouble.add(part);
    if (this.shardsSince !== undefined) return;
    this.shardsSince = this.clock.now();
    this.log.warn(
      { err: reason, during: what },
      'OpenSearch shards unavailable (a node holding them left the cluster, a primary is failing over, ' +
        'or no cluster manager is elected): pausing what needs them and retrying; nothing is lost',
    );
  }

  /** `part` has every shard it needs again (a no-op for a part that saw no trouble). */
  shardsAvailable(part: unknown): void {
    if (!this.shardTrouble.delete(part) || this.shardTrouble.size > 0) return;
    if (this.shardsSince === undefined) return;
    const seconds = Math.round((this.clock.now() - this.shardsSince) / 1000);
    this.shardsSince = undefined;
    this.log.info(
      { seconds },
      `OpenSearch shards available again after ${seconds} s: writes and queries resumed`,
    );
  }

  get isDown(): boolean {
    return this.since !== undefined;
  }

  /** Milliseconds since OpenSearch stopped answering; undefined while it answers. */
  unreachableMs(): number | undefined {
    return this.since === undefined ? undefined : this.clock.now() - this.since;
  }

  /** Milliseconds since shards became unavailable; undefined while every part has its shards. */
  shardsUnavailableMs(): number | undefined {
    return this.shardsSince === undefined ? undefined : this.clock.now() - this.shardsSince;
  }
}

/** True when the client got no answer at all (as opposed to an HTTP error status). */
export function noAnswer(e: unknown): boolean {
  const status = (e as { meta?: { statusCode?: number | null } } | null)?.meta?.statusCode;
  return typeof status !== 'number' || status === 0;
}

/**
 * Error types by which OpenSearch says that a shard (or the cluster state) cannot be used right
 * now, rather than that the request is wrong: waiting and retrying fixes them. (A cluster block
 * counts when it is a 503, e.g. no cluster manager; a read-only block is not waited out.)
 */
const UNAVAILABLE_TYPES = new Set([
  'unavailable_shards_exception',
  'no_shard_available_action_exception',
  'primary_missing_action_exception',
  'node_not_connected_exception',
  'node_disconnected_exception',
  'node_closed_exception',
  'connect_transport_exception',
  'not_cluster_manager_exception',
  'not_master_exception',
  'index_shard_closed_exception',
  'illegal_index_shard_state_exception',
  'shard_not_in_primary_mode_exception',
  'retry_on_primary_exception',
  'process_cluster_event_timeout_exception',
]);

/** True for an item or request failure that is a shard (or cluster state) being unavailable. */
export function shardUnavailable(status: number, type: string | undefined): boolean {
  return status === 503 || (type !== undefined && UNAVAILABLE_TYPES.has(type));
}

/** The error type of a failed request the cluster answered (ResponseError), if any. */
export function errorType(e: unknown): string | undefined {
  return (e as { meta?: { body?: { error?: { type?: string } } } }).meta?.body?.error?.type;
}

/** HTTP status of a failed request the cluster answered, or 0. */
export function statusOf(e: unknown): number {
  const status = (e as { meta?: { statusCode?: number | null } } | null)?.meta?.statusCode;
  return typeof status === 'number' ? status : 0;
}
