import pino, { type Logger } from 'pino';
import { LineSink } from './line-sink.js';
import { formatForTerminal } from './terminal.js';

export type { Logger };

/** Bytes of droppable lines (the transition log) buffered at most before they are dropped. */
const MAX_BUFFER_BYTES = 8 * 1024 * 1024;

const sinks = new WeakMap<Logger, LineSink>();
let processSink: LineSink | undefined;

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
  const log = pino({ level }, sink);
  sinks.set(log, sink);
  return log;
}

/**
 * The logger of the transition log: `log`'s level and destination, but its lines are the first to
 * go when stderr cannot keep up (they are counted in `droppedLogLines`). A logger that was not made
 * by `createLogger` (tests, library use) gives a plain child.
 */
export function transitionLogger(log: Logger): Logger {
  const sink = sinks.get(log);
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
  return processSink?.dropped ?? 0;
}

/** A logger that drops everything; for tests and library use. */
export const silentLogger: Logger = pino({ level: 'silent' });
