import type { Outcome } from '../app/outcome.js';

/** What `crawler` exits with; shown in --help and the README. */
export const EXIT = {
  ok: 0,
  /** The command ran but could not do everything (a URL `url` does not know, updates not written). */
  incomplete: 1,
  /** The command line cannot be read, or the configuration is invalid: nothing was done. */
  usage: 2,
  /**
   * The command could not run: an option value it refuses, OpenSearch unreachable or refusing (a
   * missing index, a query it cannot parse), a scale-out that cannot work, a worker of `run
   * --workers` that keeps dying, a `run` whose lease on its status shards another crawl took.
   */
  failed: 3,
  /** A bug: the message carries the stack trace for a report. */
  internal: 4,
} as const;

export const EXIT_HELP = [
  'Exit codes:',
  '  0    done',
  '  1    done in part: a URL the status index does not know (url), updates not written (inject, run)',
  '  2    the command line cannot be read, or the configuration is invalid; nothing was done',
  '  3    could not run: an option value refused, OpenSearch unreachable or refusing (a missing',
  '       index: run "crawler init"; a query it cannot parse), --instances (x --workers) above the',
  '       shard count, a worker of run --workers that keeps dying, a run whose lease another took',
  '  4    internal error (a bug; the message has the stack trace)',
  '  130  a second SIGINT/SIGTERM during `run`: exited at once',
].join('\n');

/** The exit code of a use case's outcome. */
export function exitCode(outcome: Outcome): number {
  return { ok: EXIT.ok, incomplete: EXIT.incomplete, failed: EXIT.failed, interrupted: 130 }[outcome];
}
