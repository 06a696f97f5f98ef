import { DEFER_CAUSE } from '../model/keys.js';
import type { Deferral } from '../model/status-updater.js';
import { isoDate } from '../model/values.js';
import { FetchException, UNREACHABLE_KINDS } from '../protocol/http/errors.js';
import type { Clock } from '../util/clock.js';
import { type HealthChange, type HealthPolicy, type Pause, seconds } from './host-health.js';
import { fetchExceptionOf } from './outcomes.js';
import type { FetchItem, RobotsUnavailableView } from './ports.js';
import type { FetchQueues } from './queues.js';

/** Where host state changes are logged (a pino Logger fits). */
export interface HostLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface HostReactionsDeps {
  readonly queues: FetchQueues<FetchItem>;
  readonly policy: HealthPolicy;
  readonly clock: Clock;
  readonly log?: HostLog;
  /** Puts a URL back unfetched (the fetcher's one status event for it). */
  readonly defer: (item: FetchItem, d: Omit<Deferral, 'now'> | Pause) => void;
  /** A queued URL left the queues without a fetch: room for the next submit. */
  readonly released: (item: FetchItem) => void;
}

/**
 * What the fetcher does with what a host's answers say about the host (its health lives in the
 * fetch queues, host-health.ts): recover on a normal answer, back off or pause on 429 and 5xx,
 * mark the host down when it cannot be reached, and defer the URLs a paused host holds. Each method
 * that can defer returns true when it did: the URL then has its one status event already.
 */
export class HostReactions {
  constructor(private readonly d: HostReactionsDeps) {}

  /** A host that answered normally: a failing host recovers a step. */
  success(key: string, reason: string): void {
    const health = this.d.queues.existingHealthOf(key);
    if (health && health.state !== 'ok') this.changed(key, health.success(this.d.queues.seedOf(key)), reason);
  }

  /**
   * A 429 or 5xx: the host's delay grows. Returns true when the URL was deferred instead of being a
   * FETCH_ERROR: a Retry-After the fetcher honours, or a 429 (which says nothing about the page).
   */
  answer(
    key: string,
    item: FetchItem,
    reply: { readonly code: number; readonly retryAfter: number | undefined; readonly started: number },
  ): boolean {
    const { code, retryAfter, started } = reply;
    const health = this.d.queues.healthOf(key);
    if (!health) return false;
    const now = this.d.clock.now();
    const reason = `HTTP ${code}`;
    const seedMs = this.d.queues.seedOf(key);
    if (retryAfter !== undefined) {
      const change = health.retryAfter({ now, startedAt: started, seedMs, retryAfterMs: retryAfter, reason });
      this.changed(key, change, reason);
      if (retryAfter > this.d.policy.maxRetryAfterMs) return false;
      this.d.defer(item, change.paused!);
      return true;
    }
    this.changed(
      key,
      health.failure({ now, startedAt: started, seedMs, unreachable: false, reason }),
      reason,
    );
    if (code !== 429) return false;
    const delay = this.d.queues.currentDelayOf(key);
    this.d.defer(item, {
      until: now + delay,
      cause: DEFER_CAUSE.tooManyRequests,
      message: `HTTP 429 without Retry-After; the host's delay is now ${seconds(delay)}`,
    });
    return true;
  }

  /**
   * A fetch without an answer. Returns true when the URL was deferred because its host is down
   * (this failure made it so, or it was a probe); otherwise the URL is a FETCH_ERROR as usual.
   */
  noAnswer(key: string, item: FetchItem, e: unknown, started: number): boolean {
    const kind = e instanceof FetchException ? e.kind : undefined;
    // An abort is ours (shutdown), not the host's; so is a browser that failed to render.
    if (kind === 'aborted' || kind === 'render') return false;
    const health = this.d.queues.healthOf(key);
    if (!health) return false;
    const reason = fetchExceptionOf(e);
    const unreachable = kind !== undefined && UNREACHABLE_KINDS.has(kind);
    const now = this.d.clock.now();
    const change = health.failure({
      now,
      startedAt: started,
      seedMs: this.d.queues.seedOf(key),
      unreachable,
      reason,
    });
    this.changed(key, change, reason);
    if (health.state !== 'down') return false;
    this.d.defer(
      item,
      health.pausedAt(now) ?? {
        until: now + health.downPauseMs,
        cause: DEFER_CAUSE.hostDown,
        message: `${reason}; the host is down`,
      },
    );
    return true;
  }

  /**
   * An answer to a request of the host's own page while it was rendered (src/render): a 429 or
   * 5xx (or none at all) counts against the host as a fetch would, a Retry-After pauses it; the page
   * itself is not deferred, it was answered already. Other answers change nothing.
   */
  subrequest(key: string, code: number | undefined, retryAfter: number | undefined): void {
    if (code !== undefined && code !== 429 && code < 500) return;
    const health = this.d.queues.healthOf(key);
    if (!health) return;
    const now = this.d.clock.now();
    const reason =
      code === undefined
        ? 'no answer to a request of a rendered page'
        : `HTTP ${code} to a request of a rendered page`;
    const seedMs = this.d.queues.seedOf(key);
    const change =
      retryAfter !== undefined && retryAfter <= this.d.policy.maxRetryAfterMs
        ? health.retryAfter({ now, startedAt: now, seedMs, retryAfterMs: retryAfter, reason })
        : health.failure({ now, startedAt: now, seedMs, unreachable: false, reason });
    this.changed(key, change, reason);
  }

  /**
   * robots.txt could not be read (`attempt.fresh`: just now, not a cached failure): the URL is disallowed for now and deferred until robots.txt is
   * asked again (when its cached verdict expires, or after the host's delay when no answer came), or
   * until the host's pause ends if it is down. A fresh failure counts against the host.
   */
  robotsUnavailable(
    key: string,
    item: FetchItem,
    u: RobotsUnavailableView,
    attempt: { readonly fresh: boolean; readonly started: number },
  ): void {
    const { fresh, started } = attempt;
    const now = this.d.clock.now();
    const reason = `robots.txt ${u.reason}`;
    const health = this.d.queues.healthOf(key);
    if (fresh && health) {
      const seedMs = this.d.queues.seedOf(key);
      this.changed(
        key,
        health.failure({ now, startedAt: started, seedMs, unreachable: u.unreachable, reason }),
        reason,
      );
    }
    const pause = this.d.queues.pauseOf(key);
    if (pause) {
      this.d.defer(item, pause);
      return;
    }
    const until = u.unreachable
      ? now + this.d.queues.currentDelayOf(key)
      : (u.retryAt ?? now + this.d.policy.downBackoffMs);
    this.d.defer(item, {
      until,
      cause: DEFER_CAUSE.robotsUnavailable,
      message: `robots.txt unavailable (${u.reason}): nothing is fetched from the host until it can be read`,
    });
  }

  /** Logs a host's change of state; a pause defers the URLs queued for the host to its end. */
  private changed(key: string, change: HealthChange, reason: string): void {
    const { from, to, paused } = change;
    const delayMs = this.d.queues.currentDelayOf(key);
    const log = this.d.log;
    if (paused) {
      for (const { item } of this.d.queues.drain(key)) {
        this.d.defer(item, paused);
        this.d.released(item);
      }
    }
    if (!log) return;
    const base = { event: 'host', host: key, from, state: to, reason, delayMs };
    if (paused && (to === 'down' || paused.cause === DEFER_CAUSE.retryAfter)) {
      const verb = to === 'down' ? (from === 'down' ? 'still down' : 'down') : 'paused';
      log.info(
        { ...base, pausedUntil: isoDate(paused.until), cause: paused.cause },
        `host ${key} ${verb}: ${paused.message}`,
      );
    } else if (from === 'ok' && to === 'backoff') {
      log.info(base, `host ${key} backing off after ${reason}: ${seconds(delayMs)} between fetches`);
    } else if (from === 'down' && to !== 'down') {
      log.info(base, `host ${key} is back (${reason}): ${seconds(delayMs)} between fetches`);
    } else if (from !== 'ok' && to === 'ok') {
      log.info(base, `host ${key} back to its own delay of ${seconds(delayMs)}`);
    }
  }
}
