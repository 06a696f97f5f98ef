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
