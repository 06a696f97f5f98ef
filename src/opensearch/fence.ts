/*
 * The fence between a crawl and the cluster: every request that writes crawl state (status, content,
 * deletions) asks it first. A crawl holding a lease (lease.ts) admits writes only while the lease was
 * confirmed lately; a process stalled past its lease (SIGSTOP, a long GC pause, a suspended machine)
 * finds it stale when it wakes, and writes nothing until a renewal proves the share is still its own.
 */

/** What a writer asks before each request that writes to OpenSearch. */
export interface WriteFence {
  /**
   * `true` at once when writes may go now (the usual case, no promise made); otherwise a promise of
   * `true` once they may (a renewal confirmed the lease) or `false` when they never may again (the
   * lease was lost, or released at exit): the writer then drops what it holds, unwritten.
   */
  admit(): true | Promise<boolean>;
}

/** No lease (inject, tests, the supervisor's seeds): every write goes. */
export const NO_FENCE: WriteFence = { admit: () => true };

/** A moment on two clocks. */
export interface Instant {
  readonly wall: number;
  readonly mono: number;
}

/**
 * Now, on both clocks. The monotonic one is the system's (process.hrtime), not this process's
 * (performance.now): a worker process compares the instants its supervisor sends with its own.
 */
export const instantNow = (): Instant => ({
  wall: Date.now(),
  mono: Number(process.hrtime.bigint() / 1000n) / 1000,
});

/**
 * Milliseconds since `then`, the larger of the two clocks' answers: the wall clock counts the time a
 * suspended machine slept (Linux's monotonic clock does not), the monotonic clock ignores the wall
 * clock being set back. Erring long only makes a writer ask for a renewal sooner.
 */
export function ageOf(then: Instant, now: Instant = instantNow()): number {
  return Math.max(now.wall - then.wall, now.mono - then.mono);
}

/** Writes wait past this share of the TTL since the lease was last confirmed (two thirds). */
export const FRESH_SHARE = 2 / 3;
