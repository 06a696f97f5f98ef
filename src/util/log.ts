import pino, { type Logger } from 'pino';
import { LineSink } from './line-sink.js';
import { formatForTerminal } from './terminal.js';

export type { Logger };

/** Bytes of droppable lines (the transition log) buffered at most before they are dropped. */
const MAX_BUFFER_BYTES = 8 * 1024 * 1024;

const sinks = new WeakMap<Logger, LineSink>();
/** Sinks of the transition log when it goes apart from stderr (TRANSITIONS_FD_ENV). */
const apart = new WeakMap<Logger, LineSink>();
/** Sinks that write to a terminal (short lines for a person). */
const terminals = new WeakSet<LineSink>();
let processSink: LineSink | undefined;
let processApart: LineSink | undefined;
/** Told the message of each line of level error and above the process logs (`onErrorLogged`). */
let errorListener: ((message: string) => void) | undefined;

/**
 * Set in a process's environment (by a supervisor, `crawler run --workers`, for its workers): the
 * file descriptor its transition log goes to, apart from stderr, so that the reader of both knows
 * those lines (droppable first) by where they come from.
 */
export const TRANSITIONS_FD_ENV = 'LOG_TRANSITIONS_FD';

/**
 * The process logger: JSON lines on stderr (stdout is kept for command output such as tables and
 * --json), one short line per event when stderr is a terminal (LOG_FORMAT=json keeps JSON there
 * too). LOG_LEVEL or --log-level sets the level. Writing never blocks the event loop (see LineSink).
 */
export function createLogger(level: string = process.env.LOG_LEVEL ?? 'info'): Logger {
  const terminal = process.stderr.isTTY === true && process.env.LOG_FORMAT !== 'json';
  const sink = new LineSink({
    fd: 2,
    maxBufferBytes: MAX_BUFFER_BYTES,
    ...(terminal ? { format: formatForTerminal } : {}),
  });
  processSink = sink;
  if (terminal) terminals.add(sink);
  const log = pino(
    {
      level,
      hooks: {
        logMethod(args, method, lineLevel) {
          if (lineLevel >= 50 && errorListener) errorListener(messageOf(args));
          method.apply(this, args);
        },
      },
    },
    sink,
  );
  sinks.set(log, sink);
  const fd = Number(process.env[TRANSITIONS_FD_ENV]);
  if (Number.isInteger(fd) && fd > 2) {
    processApart = new LineSink({ fd, maxBufferBytes: MAX_BUFFER_BYTES });
    apart.set(log, processApart);
  }
  return log;
}

/** The message of a pino call: `log.error(fields, msg)` or `log.error(msg)`. */
function messageOf(args: readonly unknown[]): string {
  const [first, second] = args;
  if (typeof first === 'string') return first;
  if (typeof second === 'string') return second;
  return first instanceof Error ? first.message : '';
}

/**
 * `listener` is told the message of each line of level error and above that the process's logger
 * (`createLogger`'s, and its children) writes from now on; undefined stops it. One listener: a
 * worker reports them to its supervisor (its last error names why it keeps dying).
 */
export function onErrorLogged(listener: ((message: string) => void) | undefined): void {
  errorListener = listener;
}

/**
 * The logger of the transition log: `log`'s level and destination (the descriptor of
 * TRANSITIONS_FD_ENV when set), but its lines are the first to go when the destination cannot keep
 * up (they are counted in `droppedLogLines`). A logger that was not made
 * by `createLogger` (tests, library use) gives a plain child.
 */
export function transitionLogger(log: Logger): Logger {
  const sink = apart.get(log) ?? sinks.get(log);
  const bindings = { component: 'transitions' };
  if (!sink) return log.child(bindings);
  return pino({ level: log.level }, { write: (line: string) => sink.writeDroppable(line) }).child(bindings);
}

/**
 * Writes a JSON log line another process made (a worker's, `crawler run --workers`) through `log`'s
 * destination, as its own lines go: formatted for a terminal there, and when `droppable` (the
 * transition log) dropped first if stderr cannot keep up. Nothing for a logger `createLogger` did
 * not make.
 */
export function writeLogLine(log: Logger, line: string, droppable = false): void {
  const sink = sinks.get(log);
  if (!sink) return;
  if (droppable) sink.writeDroppable(`${line}\n`);
  else sink.write(`${line}\n`);
}

/** Log lines dropped so far because stderr could not keep up (the transition log's only). */
export function droppedLogLines(): number {
  return (processSink?.dropped ?? 0) + (processApart?.dropped ?? 0);
}

/** A logger that drops everything; for tests and library use. */
export const silentLogger: Logger = pino({ level: 'silent' });

/**
 * Every line of level warn and above that `log` writes (its own, and its workers' under
 * `crawler run --workers`) is also passed to `listener`, as JSON. Nothing for a logger `createLogger`
 * did not make.
 */
export function tapWarnings(log: Logger, listener: (line: string) => void): void {
  const sink = sinks.get(log);
  if (sink) sink.tap = listener;
}

/** A terminal's live status line (see `liveStatus`). */
export interface LiveStatus {
  /** The terminal's width in columns. */
  readonly columns: number;
  set(text: string): void;
  /** Erases the line (resolves once it is erased, so that what follows starts on a clean line). */
  end(): Promise<void>;
}

/**
 * For `crawler run` on a terminal: one status line kept below the log and rewritten in place,
 * standing for the progress lines, and for the transition lines unless the level is debug (they stay
 * in the JSON log off a terminal). Undefined when stderr is not a terminal or LOG_FORMAT=json.
 */
export function liveStatus(log: Logger): LiveStatus | undefined {
  const sink = sinks.get(log);
  if (!sink || !terminals.has(sink)) return undefined;
  const transitions = log.isLevelEnabled('debug');
  sink.hide = (line) =>
    line.includes('"msg":"progress') || (!transitions && line.includes('"component":"transitions"'));
  sink.width = (process.stderr.columns || 80) - 1;
  return {
    get columns() {
      return process.stderr.columns || 80;
    },
    set: (text) => sink.setStatus(text),
    end: () => {
      sink.setStatus(undefined);
      sink.hide = undefined;
      sink.width = undefined;
      return sink.idle();
    },
  };
}
