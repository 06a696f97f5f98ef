import type { Readable } from 'node:stream';
import type { Config } from '../config/schema.js';
import type { Metadata } from '../model/metadata.js';
import { connect } from '../opensearch/client.js';
import { ensureCrawlIndices } from '../opensearch/crawl-indices.js';
import { type InjectReport, injectSeeds } from '../pipeline/inject.js';
import { loadURLFilters } from '../urlfilters/load.js';
import { systemClock } from '../util/clock.js';
import type { Logger } from '../util/log.js';
import { rejudgeSettingRefusals } from './seed-checks.js';
import { buildStores } from './stores.js';

/*
 * `crawler inject`: a seed file (or standard input) written to the status index through the URL
 * filters, in constant memory. A known URL that this crawl's own settings refused before is judged
 * again, a batch at a time.
 */

export interface InjectOutcome {
  readonly report: InjectReport;
  /** Status documents created. */
  readonly created: number;
  /** URLs the index knew already. */
  readonly known: number;
  /** URLs whose write failed. */
  readonly failed: number;
  /** Known URLs refused by a setting before, made due now. */
  readonly rejudged: number;
}

/** Injects `input` (a path, or a stream such as standard input) named `name` in the problem lines. */
export async function injectFile(
  config: Config,
  log: Logger,
  input: string | Readable,
  name: string,
): Promise<InjectOutcome> {
  const filter = loadURLFilters(config, { logger: log });
  const { client } = await connect(config, log);
  try {
    await ensureCrawlIndices(client, config, log);
    const stores = buildStores({ client, config, clock: systemClock, log });
    const index = config['opensearch.status.index.name'];
    let batch: string[] = [];
    let rejudged = 0;
    const rejudge = async () => {
      rejudged += await rejudgeSettingRefusals(client, index, batch, {
        now: systemClock.now(),
        log,
        how: 'inject:',
      });
      batch = [];
    };
    const report = await injectSeeds(input, {
      writer: stores.status,
      filter: (url, md: Metadata) => filter.filter(null, md, url),
      problem: (line, message) => log.warn({ file: name, line }, `${name}:${line}: ${message}`),
      accepted: async (url) => {
        batch.push(url);
        if (batch.length >= 500) await rejudge();
      },
    });
    await rejudge();
    await stores.flush();
    stores.close();
    const s = stores.status.stats;
    return {
      report,
      created: s.written - s.existing,
      known: s.existing + s.skippedCached,
      failed: s.failed,
      rejudged,
    };
  } finally {
    await client.close();
  }
}
