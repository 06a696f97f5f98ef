import { existsSync } from 'node:fs';
import { injectFile } from '../../app/inject.js';
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
    const name = file === '-' ? 'stdin' : file;
    const r = await injectFile(config(), log, file === '-' ? process.stdin : file, name);
    out(
      `${name}: ${count(r.report.lines, 'line')}, ${count(r.report.accepted, 'URL')}: ${r.created} new, ` +
        `${r.known} known already, ${r.failed} not written; ` +
        `${count(r.report.bad, 'bad line')}, ${r.report.skipped} blank or comments` +
        (r.rejudged > 0 ? `; ${r.rejudged} refused by a setting before, judged again` : ''),
    );
    return r.failed > 0 ? 1 : 0;
  },
};
