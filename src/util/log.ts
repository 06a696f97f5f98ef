import pino, { type Logger } from 'pino';

export type { Logger };

/**
 * The process logger: JSON lines on stderr (stdout is kept for command output such as tables and
 * --json), pretty-printed when stderr is a terminal. LOG_LEVEL or --log-level sets the level.
 */
export function createLogger(level: string = process.env.LOG_LEVEL ?? 'info'): Logger {
  if (process.stderr.isTTY && process.env.LOG_FORMAT !== 'json') {
    return pino({
      level,
      transport: {
        target: 'pino-pretty',
        options: { destination: 2, colorize: true, ignore: 'pid,hostname', translateTime: 'HH:MM:ss.l' },
      },
    });
  }
  return pino({ level }, pino.destination({ fd: 2, sync: true }));
}

/** A logger that drops everything; for tests and library use. */
export const silentLogger: Logger = pino({ level: 'silent' });
