/*
 * How a use case of app/ ended. The use cases know no exit codes: cli/exit.ts maps each outcome to
 * the code the process exits with (README "Exit codes").
 */
export type Outcome =
  /** Everything done. */
  | 'ok'
  /** Done in part: updates not written, a URL the status index does not know. */
  | 'incomplete'
  /** Could not run, or stopped without writing (a lease another crawl took). */
  | 'failed'
  /** A second stop signal ended it at once (a worker of `run --workers` exited so). */
  | 'interrupted';

/**
 * What a worker process's exit code says of its run: the supervisor reads its workers' codes,
 * which cli/exit.ts gave them (0 done, 130 a second signal).
 */
export function outcomeOfWorkerExit(codes: readonly (number | null)[], notWritten: boolean): Outcome {
  if (codes.includes(130)) return 'interrupted';
  return codes.every((c) => c === 0) && !notWritten ? 'ok' : 'incomplete';
}
