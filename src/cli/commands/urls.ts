import { decodeAfter, listCrawlUrls } from '../../app/urls.js';
import { STATUSES } from '../../model/status.js';
import type { ListedUrl, UrlSelection } from '../../opensearch/url-list.js';
import { systemClock } from '../../util/clock.js';
import { CrawlerError } from '../../util/errors.js';
import { terminalLine } from '../../util/terminal-text.js';
import type { Command } from '../command.js';
import { countOption } from '../options.js';
import { timeOption } from '../time-option.js';

/** One URL on one line: status, when it is due, the URL, and why it failed. */
function line(u: ListedUrl): string {
  const why = [
    u.cause,
    u.exception && u.exception !== u.cause ? u.exception : undefined,
    u.statusCode && `HTTP ${u.statusCode}`,
  ]
    .filter(Boolean)
    .join(', ');
  return `${u.status.padEnd(11)}  ${(u.nextFetchDate ?? 'never').padEnd(24)}  ${terminalLine(u.url)}${why ? `  (${terminalLine(why)})` : ''}`;
}

export const urlsCommand: Command = {
  usage:
    'crawler urls [--status S]... [--cause C]... [--host H] [--due-before T] [--due-after T] [--size N] [--after TOKEN | --all] [--json]',
  options: {
    status: {
      type: 'string',
      multiple: true,
      arg: 'S',
      description: `only this status (repeatable): ${STATUSES.join(', ')}`,
    },
    cause: {
      type: 'string',
      multiple: true,
      arg: 'C',
      description:
        'only this error.cause or fetch.exception (repeatable), e.g. http.404, http.filter.ipaddress.exclude',
    },
    host: { type: 'string', arg: 'H', description: 'only URLs of this host (the status key)' },
    'due-before': {
      type: 'string',
      arg: 'T',
      description: 'nextFetchDate before T: ISO-8601, a time ago (30m, 2h, 1d), now, or ahead (+1h)',
    },
    'due-after': { type: 'string', arg: 'T', description: 'nextFetchDate at or after T (as --due-before)' },
    size: { type: 'string', arg: 'N', description: 'URLs per page (default 50)' },
    after: {
      type: 'string',
      arg: 'TOKEN',
      description: 'the page that starts where the last one ended (printed with it)',
    },
    all: { type: 'boolean', description: 'every matching URL, page after page, to the end' },
    json: {
      type: 'boolean',
      description: 'one JSON object per URL and line (url, status, key, nextFetchDate, cause...)',
    },
  },
  details:
    'Lists status documents soonest due first (URLs never fetched again last), then by URL. Each\n' +
    'line: status, next fetch, URL, and for failures error.cause, fetch.exception and the HTTP status.\n' +
    'A page ends with the --after TOKEN of the next (on stderr with --json). Reads the status index only:\n' +
    'no http.agent.name needed.',
  async run({ values, config, log, out }) {
    const now = systemClock.now();
    const time = (o: 'due-before' | 'due-after') => {
      const v = values[o] as string | undefined;
      return v === undefined ? undefined : timeOption(o, v, now);
    };
    const statuses = ((values.status as string[] | undefined) ?? []).map((s) => s.toUpperCase());
    const unknown = statuses.find((s) => !(STATUSES as readonly string[]).includes(s));
    if (unknown !== undefined)
      throw new CrawlerError(
        'BAD_OPTION',
        `--status "${unknown}" is not a status: use one of ${STATUSES.join(', ')}`,
      );
    const token = values.after as string | undefined;
    const after = token === undefined ? undefined : decodeAfter(token);
    if (token !== undefined && after === undefined)
      throw new CrawlerError('BAD_OPTION', `--after "${token}" is not a position a listing printed`);
    if (after && values.all) throw new CrawlerError('BAD_OPTION', '--after and --all exclude each other');
    const dueBefore = time('due-before');
    const dueAfter = time('due-after');
    const selection: UrlSelection = {
      ...(statuses.length ? { statuses } : {}),
      ...(values.cause ? { causes: values.cause as string[] } : {}),
      ...(values.host ? { host: values.host as string } : {}),
      ...(dueBefore ? { dueBefore } : {}),
      ...(dueAfter ? { dueAfter } : {}),
    };
    const size = countOption(values, 'size', 50);
    let shown = 0;
    const listing = await listCrawlUrls(config(), log, selection, {
      size,
      all: values.all === true,
      ...(after ? { after } : {}),
      onPage: (urls) => {
        shown += urls.length;
        for (const u of urls) out(values.json ? JSON.stringify(u) : line(u));
      },
    });
    if (listing.next) {
      const more = `${listing.total} URLs match; the next ${size}: --after ${listing.next} (or --all)`;
      if (values.json) log.info(more);
      else out(more);
    } else if (!values.json && shown === 0) out('no URL matches');
    return 0;
  },
};
