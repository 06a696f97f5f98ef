import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { type Logger, TRANSITIONS_FD_ENV, writeLogLine } from '../../util/log.js';
import { type FromWorker, type ToWorker, TRANSITIONS_FD, WORKER_ENV } from './messages.js';
import type { RestartPolicy } from './restart.js';

/** The CLI the workers run: the same build as this one. */
const MAIN = fileURLToPath(new URL('../../cli/main.js', import.meta.url));

/** One worker's place: its current process, or the timer that will start the next one. */
export interface Slot {
  readonly worker: number;
  readonly policy: RestartPolicy;
  proc: ChildProcess | undefined;
  /** Its process listens for stop signals (until then a signal would kill it, so it is held back). */
  listening: boolean;
  startedAt: number;
  restartTimer: NodeJS.Timeout | undefined;
  /** Ended for good: a clean exit, or an exit after the run was stopped. */
  done: boolean;
  /** The exit code of its last process (null: killed by a signal). */
  code: number | null;
  /** Its last error (a line of level error it reported, or its one-line failure), if it keeps dying. */
  lastError: string | undefined;
  /** Why the crawl refused it as a member (`--join`): it is not started again. */
  refused?: string | undefined;
}

/** How a worker process is started, and where what it says goes. */
export interface SpawnOptions {
  /** `crawler run` arguments after `run` (--once, the share, --conf and --set as given). */
  readonly args: readonly string[];
  readonly workers: number;
  readonly log: Logger;
  readonly message: (m: FromWorker) => void;
  /** Its process ended (once), or could not be started (code 1). */
  readonly ended: (code: number | null, signal: NodeJS.Signals | null) => void;
}

/**
 * Starts the slot's worker process: `crawler run` of this build, in its own process group (a Ctrl-C
 * on the terminal reaches the supervisor only, which passes it on once), with an IPC channel for its
 * messages. Its log lines are passed on to the operator tagged with its number, unread: its JSON
 * lines from stderr, its transition log (droppable first) from a pipe of its own; a line of stderr
 * that is not JSON is its one-line failure ("crawler run: ..."), logged as an error and kept as its
 * last error. Resolves nothing: what it says arrives through `message` and `ended`.
 */
export function spawnWorker(slot: Slot, o: SpawnOptions): ChildProcess {
  const w = slot.worker;
  const child = spawn(process.execPath, [...process.execArgv, MAIN, 'run', ...o.args], {
    env: {
      ...process.env,
      LOG_FORMAT: 'json',
      [WORKER_ENV]: `${w}/${o.workers}`,
      [TRANSITIONS_FD_ENV]: String(TRANSITIONS_FD),
    },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc', 'pipe'],
    detached: true,
  });
  slot.proc = child;
  slot.listening = false;
  slot.lastError = undefined;
  const tagged = (line: string) => `{"worker":${w},${line.slice(1)}`;
  createInterface({ input: child.stderr! }).on('line', (line) => {
    if (line === '') return;
    if (line.startsWith('{')) writeLogLine(o.log, tagged(line));
    else {
      slot.lastError = line;
      o.log.error({ worker: w }, line);
    }
  });
  const transitions = child.stdio[TRANSITIONS_FD] as Readable | null;
  if (transitions) {
    createInterface({ input: transitions }).on('line', (line) => {
      if (line) writeLogLine(o.log, tagged(line), true);
    });
  }
  createInterface({ input: child.stdout! }).on('line', (line) => {
    if (line) o.log.info({ worker: w }, line);
  });
  child.on('message', o.message);
  let ended = false;
  const end = (code: number | null, signal: NodeJS.Signals | null) => {
    if (ended) return;
    ended = true;
    o.ended(code, signal);
  };
  child.on('error', (e) => {
    slot.lastError = e.message;
    // A process that could not be started sends no 'close' of its own.
    if (child.pid === undefined) end(1, null);
  });
  child.on('close', end);
  return child;
}

/** Sends `m` to the slot's worker, when it is connected (else nothing: its 'close' follows). */
export function sendTo(slot: Slot, m: ToWorker): void {
  if (!slot.proc?.connected) return;
  try {
    slot.proc.send(m);
  } catch {
    // It is exiting; its 'close' follows.
  }
}

export function signalWorker(slot: Slot, sig: NodeJS.Signals): void {
  try {
    slot.proc?.kill(sig);
  } catch {
    // Already gone.
  }
}
