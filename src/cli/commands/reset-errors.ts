import { resetErrors } from '../../app/reset.js';
import { MD } from '../../model/keys.js';
import { MetadataTransfer } from '../../model/metadata-transfer.js';
import type { ResetSelection } from '../../opensearch/reset.js';
import { systemClock } from '../../util/clock.js';
import { CrawlerError } from '../../util/errors.js';
import { count } from '../../util/plural.js';
import type { Command } from '../command.js';
import { timeOption } from '../time-option.js';

export const resetErrorsCommand: Command = {
  usage:
    'crawler reset-errors [--cause C]... [--host H] [--url U]... [--status S | --deferred] [--since T] [--until T] [--query Q] [--dry-run]',
  options: {
    cause: {
      type: 'string',
      multiple: true,
      arg: 'C',
      description: 'only this error.cause (repeatable), e.g. maxFetchErrors; with --deferred a defer.cause',
    },
    deferred: {
      type: 'boolean',
      description: 'deferred URLs (defer.cause, e.g. host.down) instead: made due now, status kept',
    },
    host: { type: 'string', arg: 'H', description: 'only URLs of this host (the status key)' },
    url: { type: 'string', multiple: true, arg: 'U', description: 'only this URL (repeatable), e.g. a seed' },
    status: { type: 'string', arg: 'S', description: 'ERROR (default) or FETCH_ERROR' },
    since: {
      type: 'string',
      arg: 'T',
      description:
        'lastProcessedDate >= T: ISO-8601 (2026-01-31, 2026-01-31T08:00Z) or a time ago (30m, 2h, 1d, 1w); needs lastProcessedDate persisted',
    },
    until: { type: 'string', arg: 'T', description: 'lastProcessedDate < T (as --since)' },
    query: { type: 'string', arg: 'Q', description: 'an extra query_string filter on the status documents' },
    'dry-run': { type: 'boolean', description: 'print the count and a sample, change nothing' },
  },
  details:
    'A reset sets status DISCOVERED and nextFetchDate now and removes fetch.error.count and error.*,\n' +
    'through a sliced _update_by_query with conflicts=proceed: safe while the daemon runs. Each reset\n' +
    'URL is written to the transition log (reason "reset-errors"). scripts/reset-errors is a wrapper.\n' +
    'With --deferred it selects URLs put back unfetched because of their host or its robots.txt\n' +
    '(defer.cause host.down, robots.txt unavailable...) and makes them due now, keeping their status.',
  async run({ values, config, log, out }) {
    const deferred = values.deferred === true;
    if (deferred && values.status !== undefined) {
      throw new CrawlerError(
        'BAD_OPTION',
        '--status and --deferred exclude each other: deferred URLs keep whatever status they have',
      );
    }
    const status = (values.status as string | undefined) ?? 'ERROR';
    if (status !== 'ERROR' && status !== 'FETCH_ERROR') {
      throw new CrawlerError('BAD_OPTION', `--status must be ERROR or FETCH_ERROR, got "${status}"`);
    }
    const started = systemClock.now();
    const time = (option: 'since' | 'until') => {
      const v = values[option] as string | undefined;
      return v === undefined ? undefined : timeOption(option, v, started);
    };
    const selection: ResetSelection = {
      causes: values.cause as string[] | undefined,
      deferred,
      host: values.host as string | undefined,
      urls: values.url as string[] | undefined,
      status,
      since: time('since'),
      until: time('until'),
      query: values.query as string | undefined,
    };
    const cfg = config();
    if (
      (selection.since || selection.until) &&
      !MetadataTransfer.fromConfig(cfg).isPersisted(MD.lastProcessedDate)
    ) {
      log.warn(
        `--since/--until select on ${MD.lastProcessedDate}, which this configuration does not store ` +
          `(add ${MD.lastProcessedDate} to metadata.persist): only URLs written while it was stored can match`,
      );
    }
    const r = await resetErrors(cfg, log, selection, values['dry-run'] === true);
    if (r.dryRun) {
      out(`${count(r.count, 'URL')} would be reset`);
      for (const s of r.sample) out(`  ${s.url}${s.cause ? `  (${s.cause})` : ''}`);
      return 0;
    }
    const skipped = r.conflicts ? ` (${r.conflicts} changed meanwhile, skipped)` : '';
    out(
      deferred
        ? `made ${count(r.updated, 'deferred URL')} due now${skipped}`
        : `reset ${count(r.updated, 'URL')} to DISCOVERED${skipped}`,
    );
    return 0;
  },
};
