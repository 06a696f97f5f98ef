import { existsSync } from 'node:fs';
import { rejudgeSettingRefusals } from '../../app/seed-checks.js';
import { buildStores } from '../../app/stores.js';
import type { Metadata } from '../../model/metadata.js';
import { connect } from '../../opensearch/client.js';
import { ensureCrawlIndices } from '../../opensearch/crawl-indices.js';
import { injectSeeds } from '../../pipeline/inject.js';
import { loadURLFilters } from '../../urlfilters/load.js';
import { systemClock } from '../../util/clock.js';
import { count } from '../../util/plural.js';
import { type Command, InputError, UsageError } from '../command.js';

export const injectCommand: Command = {
  usage: 'crawler inject FILE|- [options]',
  options: {},
  details:
    "One URL per line, optionally followed by tab-separated key=value metadata (StormCrawler's seeds\n" +
    'format). Blank lines and lines starting with # are skipped. The URL filters apply; each bad line\n' +
    'is reported with its line number. Use - to read standard input. Reads in constant memory.\n' +
    "A known URL that this crawl's own settings refused (ERROR with error.cause\n" +
    'http.filter.ipaddress.exclude or jsoup.treat.non.html.as.error) is made due now: judged again.',
  async run({ positionals, config, log, out }) {
    const file = positionals[0];
    if (!file || positionals.length > 1) {
      throw new UsageError('crawler inject FILE|-   (one file, or - for standard input)');
    }
    if (file !== '-' && !existsSync(file)) throw new InputError(`no such file: ${file}`);
    const cfg = config();
    const filter = loadURLFilters(cfg, { logger: log });
    const { client } = await connect(cfg, log);
    try {
      await ensureCrawlIndices(client, cfg, log);
      const stores = buildStores(client, cfg, systemClock, log);
      const name = file === '-' ? 'stdin' : file;
      // Known URLs that a setting refused before are judged again, a batch at a time.
      const index = cfg['opensearch.status.index.name'];
      let batch: string[] = [];
      let rejudged = 0;
      const rejudge = async () => {
        rejudged += await rejudgeSettingRefusals(client, index, batch, Date.now(), log, 'inject:');
        batch = [];
      };
      const report = await injectSeeds(file === '-' ? process.stdin : file, {
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
      out(
        `${name}: ${count(report.lines, 'line')}, ${count(report.accepted, 'URL')}: ${s.written - s.existing} new, ` +
          `${s.existing + s.skippedCached} known already, ${s.failed} not written; ` +
          `${count(report.bad, 'bad line')}, ${report.skipped} blank or comments` +
          (rejudged > 0 ? `; ${rejudged} refused by a setting before, judged again` : ''),
      );
      return s.failed > 0 ? 1 : 0;
    } finally {
      await client.close();
    }
  },
};
