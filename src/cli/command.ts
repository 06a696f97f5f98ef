import type { Config } from '../config/schema.js';
import { CrawlerError } from '../util/errors.js';
import type { Logger } from '../util/log.js';

export interface OptionSpec {
  readonly type: 'string' | 'boolean';
  readonly multiple?: boolean;
  readonly short?: string;
  readonly description: string;
  /** Shown in help, e.g. "FILE". */
  readonly arg?: string;
}

export type ParsedValues = Record<string, string | boolean | string[] | boolean[] | undefined>;

export interface CommandContext {
  readonly values: ParsedValues;
  readonly positionals: readonly string[];
  /** Loads and validates the config once (warnings are logged); commands that need none skip it. */
  readonly config: () => Config;
  readonly log: Logger;
  /** Command output (tables, --json) goes here; logs go to stderr. */
  readonly out: (line: string) => void;
}

/** One `crawler <name>` command (its name and summary are in registry.ts). `run` resolves to the process exit code. */
export interface Command {
  readonly usage: string;
  readonly options: Readonly<Record<string, OptionSpec>>;
  /** Paragraphs printed after the options in `crawler <name> --help`. */
  readonly details?: string;
  run(ctx: CommandContext): Promise<number>;
}

/**
 * Thrown by a command whose arguments cannot be used (a missing FILE, a subcommand it does not
 * know): one line on stderr with the usage, exit 2, as for options parseArgs refuses.
 */
export class UsageError extends CrawlerError {
  constructor(readonly usage: string) {
    super('USAGE', `usage: ${usage}`);
  }
}

/**
 * Thrown for input the command cannot use before doing anything (a file that does not exist, a seed
 * that is not a URL): its message on one line, exit 2, the same for every command.
 */
export class InputError extends CrawlerError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('BAD_INPUT', message, options);
  }
}
