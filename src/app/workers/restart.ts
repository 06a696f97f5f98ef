/** When a worker that died is started again, and when the supervisor gives up. */
export interface RestartOptions {
  /** Deaths in a row, each soon after its start (within `stableMs`), before the run stops. */
  readonly maxRestarts: number;
  /** A worker that ran this long before it died starts again from the first delay. */
  readonly stableMs: number;
  /** The first restart waits this long, each next one twice as long, up to `maxDelayMs`. */
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
}

export const RESTARTS: RestartOptions = {
  maxRestarts: 5,
  stableMs: 60_000,
  baseDelayMs: 1000,
  maxDelayMs: 30_000,
};

export type AfterDeath =
  | { readonly restart: true; readonly delayMs: number; readonly attempt: number }
  | { readonly restart: false; readonly deaths: number };

/**
 * One worker's deaths. A worker that dies is restarted after a delay that doubles with each death
 * in a row; one that keeps dying soon after its start (`maxRestarts` times in a row) is given up, and
 * with it the run: something is wrong that a restart does not mend (a bug, a cluster that refuses).
 */
export class RestartPolicy {
  private deaths = 0;

  constructor(private readonly options: RestartOptions = RESTARTS) {}

  /** The worker died after running `ranMs`: restart it (after `delayMs`), or give up. */
  died(ranMs: number): AfterDeath {
    const o = this.options;
    if (ranMs >= o.stableMs) this.deaths = 0;
    this.deaths++;
    if (this.deaths > o.maxRestarts) return { restart: false, deaths: this.deaths };
    const delayMs = Math.min(o.maxDelayMs, o.baseDelayMs * 2 ** (this.deaths - 1));
    return { restart: true, delayMs, attempt: this.deaths };
  }
}
