import { CrawlerError } from '../util/errors.js';
import type { OptionSpec } from './command.js';

/** Options every command accepts. */
export const GLOBAL_OPTIONS: Readonly<Record<string, OptionSpec>> = {
  conf: {
    type: 'string',
    multiple: true,
    arg: 'FILE',
    description: 'YAML config file over the defaults (repeatable; later files win)',
  },
  set: {
    type: 'string',
    multiple: true,
    arg: 'KEY=VALUE',
    description: 'override one config key (repeatable; wins over files and environment)',
  },
  'log-level': {
    type: 'string',
    arg: 'LEVEL',
    description: 'trace, debug, info (default), warn, error, silent',
  },
  help: { type: 'boolean', short: 'h', description: 'show help' },
};

export function formatOptions(options: Readonly<Record<string, OptionSpec>>): string {
  const rows = Object.entries(options).map(([name, o]) => {
    const flag = `${o.short ? `-${o.short}, ` : '    '}--${name}${o.arg ? ` ${o.arg}` : ''}`;
    return [flag, o.description + (o.multiple ? '' : '')] as const;
  });
  const width = Math.max(...rows.map(([f]) => f.length)) + 2;
  return rows.map(([f, d]) => `  ${f.padEnd(width)}${d}`).join('\n');
}

/** The levels --log-level and LOG_LEVEL accept (pino's, of which "fatal" is kept for compatibility). */
export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;

/** Why the log level given cannot be used (the option wins over LOG_LEVEL), or undefined. */
export function logLevelProblem(option: string | undefined, env: string | undefined): string | undefined {
  const [what, value] = option !== undefined ? ['--log-level', option] : ['LOG_LEVEL', env];
  if (value === undefined || (LOG_LEVELS as readonly string[]).includes(value)) return undefined;
  return `${what} "${value}" is not a log level; use one of ${LOG_LEVELS.filter((l) => l !== 'fatal').join(', ')}`;
}

/** A whole number of at least `min` from an option (`--size`, `--page`), or the default. */
export function countOption(
  values: Readonly<Record<string, unknown>>,
  name: string,
  fallback: number,
  min = 1,
): number {
  const v = values[name] as string | undefined;
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min)
    throw new CrawlerError('BAD_OPTION', `--${name} "${v}" must be a whole number >= ${min}`);
  return n;
}
