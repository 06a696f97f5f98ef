import type { Clock } from '../util/clock.js';
import type { Logger } from '../util/log.js';
import { openWarcOutput, type WarcConfig } from './output.js';
import { statusCodeFilter } from './records.js';

/*
 * WARC output as the composition root lists it (app/feature.ts): settings checked, output opened,
 * and what it hands the crawl loop (the archive the fetcher writes every answer to).
 */

export const warcFeature = {
  /** warc.status.codes, when warc.enabled: a ConfigError names it. Starts nothing. */
  check(config: Pick<WarcConfig, 'warc.enabled' | 'warc.status.codes'>): void {
    if (config['warc.enabled']) statusCodeFilter(config['warc.status.codes']);
  },
  /**
   * Recovers the .open files a killed run left (each logged) and opens the output; undefined with
   * warc.enabled false. A write that failed for good stops the crawl, and the crawl's close throws it.
   */
  async build(config: WarcConfig, base: { readonly clock: Clock; readonly log: Logger }) {
    const warc = await openWarcOutput(config, base.clock, base.log);
    if (!warc) return undefined;
    return {
      hand: { archive: warc.archive },
      started: (crawler: { requestStop(): void }) => warc.onFailure(() => crawler.requestStop()),
      close: () => warc.close(),
      throwIfFailed: () => warc.throwIfFailed(),
    };
  },
};
