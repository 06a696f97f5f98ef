import type { Clock } from '../util/clock.js';
import { errorMessage } from '../util/errors.js';
import type { Logger } from '../util/log.js';

/**
 * One view of "OpenSearch cannot be reached", shared by every part that talks to it (the spout and
 * the bulk writers), so that an outage is one log line when it starts and one when it ends, with
 * its duration, however many requests fail in between. A request that fails without an answer
 * (refused, reset, timed out) starts it; any answer ends it.
 */
export class ClusterOutage {
  private since: number | undefined;

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

  get isDown(): boolean {
    return this.since !== undefined;
  }

  /** Milliseconds since OpenSearch stopped answering; undefined while it answers. */
  unreachableMs(): number | undefined {
    return this.since === undefined ? undefined : this.clock.now() - this.since;
  }
}

/** True when the client got no answer at all (as opposed to an HTTP error status). */
export function noAnswer(e: unknown): boolean {
  const status = (e as { meta?: { statusCode?: number | null } } | null)?.meta?.statusCode;
  return typeof status !== 'number' || status === 0;
}
