import type { Config } from '../config/schema.js';
import type { InlineParser } from '../parse/stage.js';
import type { Clock } from '../util/clock.js';
import { ConfigError } from '../util/errors.js';
import type { Logger } from '../util/log.js';
import { TikaService, type TikaServiceOptions, type TikaStarter } from './service.js';
import { DocumentStage } from './stage.js';

/** The embedded server's watchdog fires this long after the crawler gave up on a document. */
const WATCHDOG_MARGIN_MS = 5_000;

/** The keys of the Tika stage. */
export type TikaConfig = Pick<
  Config,
  | 'tika.enabled'
  | 'tika.server.url'
  | 'tika.embedded.port'
  | 'tika.embedded.heap'
  | 'tika.max.concurrent'
  | 'parser.tika.timeout'
  | 'textextractor.skip.after'
  | 'http.decoded.limit'
>;

/** The Tika settings of a configuration, checked; a ConfigError names a bad key. */
export function tikaOptions(config: TikaConfig): TikaServiceOptions {
  const timeoutMs = config['parser.tika.timeout'];
  const problems: string[] = [];
  if (timeoutMs <= 0) problems.push(`parser.tika.timeout: must be more than 0 ms (got ${timeoutMs})`);
  const url = config['tika.server.url'].trim();
  if (url !== '' && !/^https?:\/\/[^/]+/i.test(url))
    problems.push(`tika.server.url: "${url}" is not an http:// or https:// URL`);
  if (!/^\d+[kmg]?$/i.test(config['tika.embedded.heap']))
    problems.push(
      `tika.embedded.heap: "${config['tika.embedded.heap']}" is not a JVM heap size such as 512m or 1g`,
    );
  if (problems.length > 0) throw new ConfigError(problems);
  const skipAfter = config['textextractor.skip.after'];
  return {
    ...(url === '' ? {} : { external: url }),
    embedded: {
      port: config['tika.embedded.port'],
      heap: config['tika.embedded.heap'],
      taskTimeoutMs: timeoutMs + WATCHDOG_MARGIN_MS,
    },
    client: {
      connections: config['tika.max.concurrent'],
      timeoutMs,
      maxAnswerBytes: config['http.decoded.limit'],
      writeLimit: skipAfter > 0 ? skipAfter : -1,
    },
  };
}

export interface Documents {
  readonly stage: DocumentStage;
  readonly service: TikaService;
  /** Closes the connections to Tika (the embedded server keeps running, as OpenSearch's node). */
  close(): Promise<void>;
}

/**
 * The Tika stage of a crawl, or undefined with `tika.enabled: false`. Starts nothing: the server is
 * reached (or the embedded one started) when the first document arrives.
 */
export function buildDocuments(
  config: TikaConfig,
  parser: Pick<InlineParser, 'parseDocument'>,
  deps: { readonly log: Logger; readonly clock: Clock; readonly starter?: TikaStarter },
): Documents | undefined {
  const { log, clock, starter } = deps;
  if (!config['tika.enabled']) return undefined;
  const service = new TikaService(tikaOptions(config), log, clock, starter);
  const concurrency = config['tika.max.concurrent'];
  const stage = new DocumentStage(
    { tika: service, extract: (input, doc) => parser.parseDocument(input, doc) },
    { concurrency, backlog: Math.max(4, 2 * concurrency) },
  );
  return { stage, service, close: () => service.close() };
}

/** Tika as the composition root lists it (app/feature.ts): what it hands the crawl loop is its stage. */
export const tikaFeature = {
  check: tikaOptions,
  build(
    config: TikaConfig,
    base: {
      readonly inline: Pick<InlineParser, 'parseDocument'>;
      readonly log: Logger;
      readonly clock: Clock;
    },
  ) {
    const documents = buildDocuments(config, base.inline, base);
    return documents && { hand: { documents: documents.stage }, close: () => documents.close() };
  },
};
