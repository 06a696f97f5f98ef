import { parseArgs } from 'node:util';
import type { Config } from '../config/schema.js';
import { ConfigError, errorMessage } from '../util/errors.js';
import { type Command, InputError, type OptionSpec, type ParsedValues, UsageError } from './command.js';
import { EXIT, EXIT_HELP } from './exit.js';
import { formatOptions, GLOBAL_OPTIONS, logLevelProblem } from './options.js';
import { COMMANDS, type CommandEntry } from './registry.js';

// What a command needs beyond the argument parser (the config loader, pino, the OpenSearch client's
// error names) is imported once a command was chosen: `crawler --version` and `--help` load none of it.

function mainHelp(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length)) + 2;
  return [
    'crawler: a continuous, polite web crawler whose whole state lives in OpenSearch',
    '',
    'Usage: crawler <command> [options]',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}${c.summary}`),
    '',
    'Options for every command:',
    formatOptions(GLOBAL_OPTIONS),
    '',
    'Environment: OPENSEARCH_URL, OPENSEARCH_USERNAME, OPENSEARCH_PASSWORD, OPENSEARCH_PORT, LOG_LEVEL.',
    'With no OPENSEARCH_URL (nor opensearch.addresses) and nothing on 127.0.0.1:OPENSEARCH_PORT (9200),',
    'the embedded node (scripts/opensearch) is started; it stays up until "crawler opensearch stop".',
    'Loopback and private addresses are refused unless http.filter.ipaddress.allow lists them.',
    'Run "crawler <command> --help" for the options of a command.',
    '',
    EXIT_HELP,
  ].join('\n');
}

function commandHelp(entry: CommandEntry, c: Command): string {
  return [
    `crawler ${entry.name}: ${entry.summary}`,
    '',
    `Usage: ${c.usage}`,
    '',
    'Options:',
    formatOptions({ ...c.options, ...GLOBAL_OPTIONS }),
    ...(c.details ? ['', c.details] : []),
    '',
    EXIT_HELP,
  ].join('\n');
}

function toParseArgs(options: Readonly<Record<string, OptionSpec>>) {
  return Object.fromEntries(
    Object.entries(options).map(([k, o]) => [
      k,
      { type: o.type, ...(o.multiple ? { multiple: true } : {}), ...(o.short ? { short: o.short } : {}) },
    ]),
  );
}

export interface Io {
  /** Command output. */
  out(line: string): void;
  /** One-line failures. */
  err(line: string): void;
}

const processIo: Io = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

/** Runs one command line and resolves to the exit code; never throws. */
export async function main(argv: readonly string[], io: Io = processIo): Promise<number> {
  const out = io.out;
  const name = argv[0];
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    out(mainHelp());
    return name === undefined ? 2 : 0;
  }
  if (name === '--version') {
    out('0.1.0');
    return 0;
  }
  const entry = COMMANDS.find((c) => c.name === name);
  if (!entry) {
    io.err(`crawler: unknown command "${name}"; run "crawler --help" for the list`);
    return 2;
  }
  const command = await entry.load();
  let parsed: { values: ParsedValues; positionals: string[] };
  try {
    parsed = parseArgs({
      args: [...argv.slice(1)],
      options: toParseArgs({ ...command.options, ...GLOBAL_OPTIONS }),
      allowPositionals: true,
      strict: true,
    }) as { values: ParsedValues; positionals: string[] };
  } catch (e) {
    io.err(`crawler ${name}: ${errorMessage(e)}; run "crawler ${name} --help"`);
    return 2;
  }
  if (parsed.values.help) {
    out(commandHelp(entry, command));
    return 0;
  }
  const envLevel = process.env.LOG_LEVEL || undefined;
  const levelProblem = logLevelProblem(parsed.values['log-level'] as string | undefined, envLevel);
  if (levelProblem) {
    io.err(`crawler ${name}: ${levelProblem}`);
    return EXIT.usage;
  }
  const [{ loadConfig }, { createLogger }, { knownFailure }] = await Promise.all([
    import('../config/load.js'),
    import('../util/log.js'),
    import('../app/failure.js'),
  ]);
  const log = createLogger((parsed.values['log-level'] as string | undefined) ?? envLevel ?? 'info');
  let cached: Config | undefined;
  const config = (): Config => {
    if (cached) return cached;
    const loaded = loadConfig({
      files: (parsed.values.conf as string[] | undefined) ?? [],
      sets: (parsed.values.set as string[] | undefined) ?? [],
      env: process.env,
    });
    for (const w of loaded.warnings) log.warn(w);
    cached = loaded.config;
    return cached;
  };
  try {
    return await command.run({ values: parsed.values, positionals: parsed.positionals, config, log, out });
  } catch (e) {
    if (e instanceof UsageError || e instanceof InputError) {
      io.err(`crawler ${name}: ${e.message}`);
      return EXIT.usage;
    }
    if (e instanceof ConfigError) {
      io.err(`crawler ${name}: ${e.message}`);
      return EXIT.usage;
    }
    const known = knownFailure(e);
    if (known) {
      io.err(`crawler ${name}: ${known.message}`);
      return EXIT.failed;
    }
    io.err(`crawler ${name}: unexpected failure: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    return EXIT.internal;
  }
}
