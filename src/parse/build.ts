import type { Logger } from '../util/log.js';
import type { PageParser } from './types.js';
import { ParserPool } from './worker/pool.js';
import type { ParserThreadConfig } from './worker/protocol.js';

/**
 * The parser of a crawl: the inline parser (built first, it checks the parse settings with the
 * configuration's own messages before any thread starts), or `parser.threads` worker threads that
 * each build their own. `close` stops the threads after the crawl.
 */
export async function startParser(
  config: ParserThreadConfig,
  inline: PageParser,
  log: Logger,
): Promise<{ readonly parser: PageParser; close(): Promise<void> }> {
  const threads = config['parser.threads'];
  if (threads <= 0) return { parser: inline, close: async () => undefined };
  const pool = await ParserPool.start(config, threads, log);
  return { parser: pool, close: () => pool.close() };
}
