import type { TransitionEntry } from '../../console/state.js';
import type { WorkerReport } from '../../metrics/workers.js';
import type { CrawlSnapshot, CrawlSummary } from '../../pipeline/crawler.js';

/*
 * What a supervisor (`crawler run --workers N`) and its worker processes say to each other over the
 * IPC channel of each worker: whatever the supervisor acts on comes this way. Log lines do not: a
 * worker writes them as JSON to stderr (its transition log to a pipe of its own, TRANSITIONS_FD),
 * and the supervisor passes them on to the operator tagged with the worker's number, unread.
 */

/** The worker's file descriptor for its transition log (util/log.ts TRANSITIONS_FD_ENV). */
export const TRANSITIONS_FD = 4;

/** Set by the supervisor in each worker's environment: "w/N", worker w of N on this machine. */
export const WORKER_ENV = 'CRAWLER_WORKER';

export type FromWorker =
  /** First, once it listens for SIGINT/SIGTERM: a stop signal sent before would kill it. */
  | { readonly type: 'listening' }
  /** Every second or so: the worker's counters and what it holds now. */
  | { readonly type: 'progress'; readonly snapshot: CrawlSnapshot }
  /** Every second or so, when there were any: its latest transitions (for the console's tail). */
  | { readonly type: 'transitions'; readonly entries: readonly TransitionEntry[] }
  /** The message of a line of level error or above it logged (the last names why it keeps dying). */
  | { readonly type: 'error'; readonly message: string }
  /** Every second or so: its metrics (the supervisor serves their sum and writes their series). */
  | { readonly type: 'metrics'; readonly metrics: WorkerReport }
  /**
   * `--join`: the crawl refused it as a member (other settings, a plain crawl holds shards); a
   * restart would be refused again, so the supervisor stops the run with this message.
   */
  | { readonly type: 'refused'; readonly message: string }
  /** `--join`: it joined the elastic crawl under this member name (its metrics series carry it). */
  | { readonly type: 'member'; readonly member: string }
  /** --once: the worker found nothing left in its share (Crawler RunOptions.idle). */
  | { readonly type: 'idle' }
  /** --once: it took a URL again after reporting idle. */
  | { readonly type: 'busy' }
  /** Its writes wait: the last lease confirmation it heard of is too old (a renewal, please). */
  | { readonly type: 'lease-ask' }
  /** --once: the answer to `check` (Crawler.stillFinished). */
  | { readonly type: 'checked'; readonly round: number; readonly finished: boolean }
  /** Its last message, when its crawl has stopped: the "crawl stopped" summary and counters. */
  | {
      readonly type: 'summary';
      readonly summary: CrawlSummary;
      readonly snapshot: CrawlSnapshot;
      /** Its metrics at the end (the last interval of its series). */
      readonly metrics?: WorkerReport;
    };

export type ToWorker =
  /** --once: every worker reported idle; is each still finished after a fresh look? */
  | { readonly type: 'check'; readonly round: number }
  /** --once: all were: stop (drain and exit). */
  | { readonly type: 'finish' }
  /** The supervisor's lease was confirmed at `at` (fence.ts Instant): writes may go until it ages. */
  | { readonly type: 'lease'; readonly at: { readonly wall: number; readonly mono: number } };

/** Worker w of N from the environment the supervisor set, or undefined (not a worker). */
export function workerFromEnv(
  env: Readonly<Record<string, string | undefined>>,
): { readonly worker: number; readonly workers: number } | undefined {
  const m = /^(\d+)\/(\d+)$/.exec(env[WORKER_ENV] ?? '');
  if (!m) return undefined;
  const worker = Number(m[1]);
  const workers = Number(m[2]);
  return worker < workers ? { worker, workers } : undefined;
}

/** Sends `m` to the supervisor when this process is a worker with an IPC channel; else nothing. */
export function sendToSupervisor(m: FromWorker): Promise<void> {
  const send = process.send?.bind(process);
  if (!send || !process.connected) return Promise.resolve();
  // Resolves once the message is handed to the channel (what a worker about to exit waits for).
  return new Promise<void>((resolve) => {
    try {
      send(m, () => resolve());
    } catch {
      // The supervisor is gone: the worker stops when the channel closes (SupervisorLink).
      resolve();
    }
  });
}
