import { DEFER_CAUSE } from '../model/keys.js';

/** How the fetcher treats a failing host (the fetcher.backoff.*, fetcher.host.down.* keys, in ms). */
export interface HealthPolicy {
  /** fetcher.backoff.factor: the delay is multiplied by it per failure, divided by it per success. */
  readonly factor: number;
  /** fetcher.backoff.max.delay: the longest delay failures lead to. */
  readonly maxDelayMs: number;
  /** fetcher.max.retry.after: the longest Retry-After honoured; beyond it the URL is a FETCH_ERROR. */
  readonly maxRetryAfterMs: number;
  /** fetcher.host.down.after: unreachable failures in a row that make a host down; 0 = never. */
  readonly downAfter: number;
  /** fetcher.host.down.backoff: how long a host that just went down is left alone. */
  readonly downBackoffMs: number;
  /** fetcher.host.down.max.backoff: the longest it is left alone (the pause grows per failed probe). */
  readonly downMaxBackoffMs: number;
}

/**
 * `ok`: the configured delay. `backoff`: failures made the delay longer (or Retry-After paused the
 * host). `down`: the host could not be reached N times in a row; it is left alone until its pause
 * ends, then one URL probes it.
 */
export type HostState = 'ok' | 'backoff' | 'down';

/** No fetch of the host starts before `until`; URLs that come meanwhile are deferred to it. */
export interface Pause {
  readonly until: number;
  /** A DEFER_CAUSE value. */
  readonly cause: string;
  /** What happened, for the operator. */
  readonly message: string;
}

/** What a recorded result did to the host. */
export interface HealthChange {
  readonly from: HostState;
  readonly to: HostState;
  /** The host was down and a probe failed again: its pause grew. */
  readonly probeFailed: boolean;
  /** A pause this result started (the host went down, a probe failed, a Retry-After). */
  readonly paused?: Pause;
}

/** A duration for log lines and defer.message: `1.5 s`. */
export const seconds = (ms: number): string => `${Math.round(ms / 100) / 10} s`;

/**
 * The health of one politeness queue's host, pure and driven by the results the fetcher records.
 * Failures (5xx, 429, no answer) multiply its delay by `factor` up to `maxDelayMs`; each success
 * divides it again until it is back to the queue's own delay. `downAfter` unreachable failures in a
 * row make it down: paused for `downBackoffMs`, then probed by one URL; each failed probe multiplies
 * the pause by `factor` up to `downMaxBackoffMs`, and any answer ends it.
 */
export class HostHealth {
  /** The delay failures asked for, ms; 0 = the queue's own delay. */
  private backoffMs = 0;
  /** Unreachable failures in a row. */
  private unreachableRun = 0;
  private down = false;
  /** The pause of a down host; grows with each failed probe. */
  private downBackoffMs = 0;
  /** When the host went down or last failed a probe: fetches started before are not probes. */
  private downSince = 0;
  private pause: Pause | undefined;

  constructor(private readonly policy: HealthPolicy) {}

  get state(): HostState {
    if (this.down) return 'down';
    return this.backoffMs > 0 ? 'backoff' : 'ok';
  }

  /** The delay between fetches of a queue whose own delay is `baseMs`. */
  delayMs(baseMs: number): number {
    return this.backoffMs === 0 ? baseMs : Math.max(baseMs, this.backoffMs);
  }

  /** The pause in force at `now`, if any. */
  pausedAt(now: number): Pause | undefined {
    return this.pause && this.pause.until > now ? this.pause : undefined;
  }

  /** The end of the last pause (0 for none): the host's state is worth keeping until a while after. */
  get pauseEnd(): number {
    return this.pause?.until ?? 0;
  }

  /** The pause of a down host, ms (0 when it is not down). */
  get downPauseMs(): number {
    return this.downBackoffMs;
  }

  /** An HTTP answer other than 429 and 5xx. */
  success(baseMs: number): HealthChange {
    const from = this.state;
    this.unreachableRun = 0;
    this.down = false;
    this.downBackoffMs = 0;
    if (this.backoffMs > 0) {
      this.backoffMs /= this.policy.factor;
      if (this.backoffMs <= baseMs) this.backoffMs = 0;
    }
    return { from, to: this.state, probeFailed: false };
  }

  /**
   * A failed fetch that started at `startedAt`. `seedMs` is the delay the first failure multiplies
   * (the queue's delay, or a default when that is 0). `unreachable`: no answer at all.
   */
  failure(o: {
    readonly now: number;
    readonly startedAt: number;
    readonly seedMs: number;
    readonly unreachable: boolean;
    readonly reason: string;
  }): HealthChange {
    const p = this.policy;
    const from = this.state;
    this.backoffMs = Math.min(p.maxDelayMs, Math.max(this.backoffMs, o.seedMs) * p.factor);
    if (!o.unreachable) {
      // The host answered: it is up, however badly.
      this.unreachableRun = 0;
      this.down = false;
      this.downBackoffMs = 0;
      return { from, to: this.state, probeFailed: false };
    }
    this.unreachableRun++;
    let probeFailed = false;
    if (this.down) {
      // A fetch that started before the host went down tells nothing new.
      if (o.startedAt < this.downSince) return { from, to: this.state, probeFailed };
      this.downBackoffMs = Math.min(p.downMaxBackoffMs, this.downBackoffMs * p.factor);
      probeFailed = true;
    } else if (p.downAfter > 0 && this.unreachableRun >= p.downAfter) {
      this.down = true;
      this.downBackoffMs = Math.min(p.downMaxBackoffMs, p.downBackoffMs);
    } else {
      return { from, to: this.state, probeFailed };
    }
    this.downSince = o.now;
    this.pause = {
      until: o.now + this.downBackoffMs,
      cause: DEFER_CAUSE.hostDown,
      message:
        `${o.reason} ${this.unreachableRun} times in a row; the host is left alone for ` +
        `${seconds(this.downBackoffMs)}, then one URL probes it`,
    };
    return { from, to: this.state, probeFailed, paused: this.pause };
  }

  /**
   * A 429 or 503 with Retry-After: `retryAfterMs` from now, capped at fetcher.max.retry.after. It
   * counts as a failure too (the delay grows once the pause is over).
   */
  retryAfter(o: {
    readonly now: number;
    readonly startedAt: number;
    readonly seedMs: number;
    readonly retryAfterMs: number;
    readonly reason: string;
  }): HealthChange {
    const change = this.failure({ ...o, unreachable: false });
    const waitMs = Math.min(o.retryAfterMs, this.policy.maxRetryAfterMs);
    const capped = waitMs < o.retryAfterMs ? ` (capped by fetcher.max.retry.after)` : '';
    this.pause = {
      until: Math.max(this.pause?.until ?? 0, o.now + waitMs),
      cause: DEFER_CAUSE.retryAfter,
      message: `${o.reason} with Retry-After ${seconds(o.retryAfterMs)}; the host is left alone for ${seconds(waitMs)}${capped}`,
    };
    return { ...change, paused: this.pause };
  }
}

/**
 * A Retry-After header in ms from `now`: delay-seconds or an HTTP date (a past date is 0).
 * Undefined when missing or unreadable.
 */
export function retryAfterMs(value: string | undefined, now: number): number | undefined {
  const v = value?.trim();
  if (!v) return undefined;
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  // An HTTP date names its day and month; Date.parse would also take "1.5" or "-5" for dates.
  if (!/^[A-Za-z]{3,9},? /.test(v)) return undefined;
  const at = Date.parse(v);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}
