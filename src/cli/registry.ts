import type { Command } from './command.js';

/*
 * The list of commands, without their code: `crawler --help` and `crawler --version` read this
 * alone, and a command's module (with the OpenSearch client, Playwright, pino...) is imported only
 * when that command runs or its --help is asked for. Loading every command up front cost 1.4-7 s
 * per invocation (scripts/bench/cli.mjs measures it).
 */

export interface CommandEntry {
  readonly name: string;
  /** One line in `crawler --help`, and the first line of `crawler <name> --help`. */
  readonly summary: string;
  load(): Promise<Command>;
}

export const COMMANDS: readonly CommandEntry[] = [
  {
    name: 'demo',
    summary: "crawl a built-in site in simulated rounds and show every URL's transitions (start here)",
    load: async () => (await import('./commands/demo.js')).demoCommand,
  },
  {
    name: 'init',
    summary: 'create the status and content indices (idempotent)',
    load: async () => (await import('./commands/init.js')).initCommand,
  },
  {
    name: 'inject',
    summary: 'add seed URLs to the status index as DISCOVERED (a known URL keeps its status)',
    load: async () => (await import('./commands/inject.js')).injectCommand,
  },
  {
    name: 'run',
    summary: 'crawl: fetch due URLs, parse, index and write every status back (continuous by default)',
    load: async () => (await import('./commands/run.js')).runCommand,
  },
  {
    name: 'stats',
    summary:
      'counts by status, errors by cause and stage, deferred URLs, near-duplicates, soft 404s, top hosts',
    load: async () => (await import('./commands/stats.js')).statsCommand,
  },
  {
    name: 'search',
    summary: 'search what was crawled: the content index, with title, URL and the passage that matched',
    load: async () => (await import('./commands/search.js')).searchCommand,
  },
  {
    name: 'urls',
    summary: 'list URLs by status, cause, host and due time, with why each failed',
    load: async () => (await import('./commands/urls.js')).urlsCommand,
  },
  {
    name: 'reset-errors',
    summary: 'make ERROR (or FETCH_ERROR) URLs DISCOVERED and due now again, e.g. after an incident',
    load: async () => (await import('./commands/reset-errors.js')).resetErrorsCommand,
  },
  {
    name: 'url',
    summary: 'explain one URL: its status document, when it is due, its transitions and content',
    load: async () => (await import('./commands/url.js')).urlCommand,
  },
  {
    name: 'topology',
    summary: 'print the pipeline: stages, bounded queues, the status and deletion paths',
    load: async () => (await import('./commands/topology.js')).topologyCommand,
  },
  {
    name: 'config',
    summary: 'print the effective configuration and where each value came from',
    load: async () => (await import('./commands/config.js')).configCommand,
  },
  {
    name: 'warc',
    summary: 'list the records of WARC files (ls), or close .open files a killed crawl left (recover)',
    load: async () => (await import('./commands/warc.js')).warcCommand,
  },
  {
    name: 'opensearch',
    summary: 'the embedded OpenSearch node: status, stop, start (scripts/opensearch)',
    load: async () => (await import('./commands/opensearch.js')).opensearchCommand,
  },
];
