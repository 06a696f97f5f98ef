import { constants, readFileSync } from 'node:fs';
import { access, mkdir } from 'node:fs/promises';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import type { Config } from '../config/schema.js';
import { type AgentSettings, userAgent } from '../protocol/http/user-agent.js';
import type { Clock } from '../util/clock.js';
import { CrawlerError, errorMessage } from '../util/errors.js';
import type { Logger } from '../util/log.js';
import { gzipMember, WarcArchive, type WarcWriteError } from './archive.js';
import { WarcFiles } from './files.js';
import { safeHostname, type Writer } from './names.js';
import { serialize, statusCodeFilter, type WarcVersion, warcinfoRecord } from './records.js';
import { type Recovered, recoverDir } from './recover.js';

/** The crawler's name and version, for the warcinfo `software` field. */
export function software(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    name: string;
    version: string;
  };
  return `${pkg.name}/${pkg.version}`;
}

const CONFORMS_TO: Record<WarcVersion, string> = {
  '1.0': 'https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.0/',
  '1.1': 'https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/',
};

const AGENT_KEYS = [
  'http.agent.name',
  'http.agent.version',
  'http.agent.description',
  'http.agent.url',
  'http.agent.email',
] as const;

/** The keys of the WARC output, and the agent's (its warcinfo records name the crawler). */
export type WarcConfig = AgentSettings &
  Pick<
    Config,
    | 'warc.enabled'
    | 'warc.dir'
    | 'warc.prefix'
    | 'warc.version'
    | 'warc.rotation.size'
    | 'warc.rotation.interval'
    | 'warc.request.records'
    | 'warc.status.codes'
    | 'warc.write.attempts'
    | 'http.robots.file.skip'
  >;

/**
 * The fields of every file's warcinfo record: the WARC specification's named fields (software,
 * hostname, format, conformsTo, operator, http-header-user-agent, http-header-from, robots,
 * isPartOf, description) and the operator's http.agent.* keys as set.
 */
export function warcinfoFields(config: WarcConfig, host: string): Record<string, string> {
  const version = config['warc.version'];
  const email = config['http.agent.email'].trim();
  const url = config['http.agent.url'].trim();
  const description = config['http.agent.description'].trim();
  const fields: Record<string, string> = {
    software: software(),
    hostname: host,
    format: `WARC File Format ${version}`,
    conformsTo: CONFORMS_TO[version],
    isPartOf: config['warc.prefix'],
    'http-header-user-agent': userAgent(config),
    robots: config['http.robots.file.skip'] ? 'ignore' : 'obey',
  };
  if (email || url) fields.operator = [email, url].filter(Boolean).join(' ');
  if (email) fields['http-header-from'] = email;
  if (description) fields.description = description;
  for (const k of AGENT_KEYS) if (config[k].trim() !== '') fields[k] = config[k].trim();
  return fields;
}

/**
 * The WARC output of `crawler run` (warc.enabled): the archive the fetcher writes to, built from
 * the configuration after the .open files a killed run left behind were recovered. A write that
 * failed for good stops the crawl through `onFailure`, and `throwIfFailed` then ends the command
 * with the error's message.
 */
export class WarcOutput {
  readonly archive: WarcArchive;
  private stop: (() => void) | undefined;

  constructor(
    config: WarcConfig,
    clock: Clock,
    private readonly log: Logger,
    writer: Writer,
  ) {
    const version = config['warc.version'];
    const dir = resolve(config['warc.dir']);
    const fields = warcinfoFields(config, writer.hostname);
    const files = new WarcFiles({
      dir,
      prefix: config['warc.prefix'],
      maxBytes: config['warc.rotation.size'],
      maxAgeMs: config['warc.rotation.interval'],
      writer,
      clock,
      warcinfo: async (name) =>
        gzipMember(await serialize(warcinfoRecord(name, fields, version, clock.now()))),
      onRotationError: (e) =>
        log.warn(
          { dir, err: errorMessage(e) },
          'WARC file could not be closed by age; tried again with the next record',
        ),
    });
    this.archive = new WarcArchive({
      files,
      dir,
      version,
      requestRecords: config['warc.request.records'],
      archived: statusCodeFilter(config['warc.status.codes']),
      attempts: config['warc.write.attempts'],
      backoffMs: 200,
      log,
      onFailure: (e) => this.failed(e),
    });
  }

  /** What to call when a write failed for good (the crawler's requestStop). */
  onFailure(stop: () => void): void {
    this.stop = stop;
  }

  /** Throws the error that stopped the archive, if any; called once the crawl has ended. */
  throwIfFailed(): void {
    if (this.archive.failed) throw this.archive.failed;
  }

  /** Closes (and renames) the file being written. After a failure, an error closing it is only logged. */
  async close(): Promise<void> {
    try {
      await this.archive.close();
    } catch (e) {
      if (this.archive.failed) {
        this.log.warn({ err: errorMessage(e) }, 'WARC file not closed; the next start recovers it');
        return;
      }
      throw new CrawlerError(
        'WARC_CLOSE_FAILED',
        `cannot close the WARC file in warc.dir: ${errorMessage(e)}; it stays .open and the next start recovers it`,
        { cause: e },
      );
    }
  }

  private failed(e: WarcWriteError): void {
    this.log.error({ err: e.message, code: e.code }, 'WARC output failed: stopping the crawl');
    this.stop?.();
  }
}

/**
 * With warc.enabled, recovers warc.dir's orphaned .open files (logging each) and returns the output;
 * undefined otherwise. Configuration errors (warc.status.codes) throw ConfigError before any file
 * is touched.
 */
export async function openWarcOutput(
  config: WarcConfig,
  clock: Clock,
  log: Logger,
): Promise<WarcOutput | undefined> {
  if (!config['warc.enabled']) return undefined;
  statusCodeFilter(config['warc.status.codes']);
  const writer = { hostname: safeHostname(hostname()), pid: process.pid };
  const dir = resolve(config['warc.dir']);
  let recovered: Recovered[];
  try {
    await mkdir(dir, { recursive: true });
    await access(dir, constants.W_OK);
    recovered = await recoverDir(dir, { prefix: config['warc.prefix'], self: writer });
  } catch (e) {
    throw new CrawlerError(
      'WARC_DIR_UNUSABLE',
      `warc.dir "${dir}" cannot be used: ${errorMessage(e)}; point warc.dir at a writable folder`,
      { cause: e },
    );
  }
  for (const r of recovered) {
    log.warn(
      { file: r.from, closedAs: r.to ?? null, records: r.records, cutBytes: r.cutBytes },
      r.to
        ? 'WARC file left open by an earlier run: cut after its last complete record and closed'
        : 'WARC file left open by an earlier run had no complete record: removed',
    );
  }
  const output = new WarcOutput(config, clock, log, writer);
  log.info({ dir, prefix: config['warc.prefix'] }, 'WARC output on');
  return output;
}
