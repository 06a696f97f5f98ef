/**
 * The one source of time. Production code takes a Clock instead of calling Date.now(), so that rules,
 * schedulers and caches can be replayed in tests with simulated minutes.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that moves only when told to; for tests and the demo's simulated rounds. */
export class ManualClock implements Clock {
  constructor(private t: number = Date.UTC(2025, 0, 1)) {}
  now(): number {
    return this.t;
  }
  set(ms: number): void {
    this.t = ms;
  }
  advance(ms: number): void {
    this.t += ms;
  }
  advanceMinutes(min: number): void {
    this.t += min * 60_000;
  }
}

/**
 * Real time shifted by an offset that can be moved forward: timers still fire in real time while
 * dates (scheduling, due URLs) follow simulated minutes. The demo uses it to replay a crawl's rounds.
 */
export class OffsetClock implements Clock {
  private offset = 0;
  now(): number {
    return Date.now() + this.offset;
  }
  advanceMinutes(min: number): void {
    this.offset += min * 60_000;
  }
}
