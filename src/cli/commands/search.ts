import { HIGHLIGHT, MAX_RESULT_WINDOW, searchBody, searchCrawl } from '../../app/search.js';
import type { SearchRequest } from '../../opensearch/content-search.js';
import { systemClock } from '../../util/clock.js';
import { CrawlerError } from '../../util/errors.js';
import { count } from '../../util/plural.js';
import { terminalLine, terminalSnippet } from '../../util/terminal-text.js';
import { type Command, UsageError } from '../command.js';
import { countOption } from '../options.js';
import { timeOption } from '../time-option.js';

const USAGE =
  'crawler search QUERY [--host H] [--lang L] [--since T] [--until T] [--size N] [--page P] [--json]';

export const searchCommand: Command = {
  usage: USAGE,
  options: {
    host: { type: 'string', arg: 'H', description: "only pages of this host (the content document's host)" },
    lang: {
      type: 'string',
      arg: 'L',
      description: 'only pages in this language (lang, e.g. en; needs language detection)',
    },
    since: {
      type: 'string',
      arg: 'T',
      description:
        'fetched at or after T: ISO-8601 (2026-01-31, 2026-01-31T08:00Z) or a time ago (30m, 2h, 1d, 1w)',
    },
    until: { type: 'string', arg: 'T', description: 'fetched before T (as --since)' },
    size: { type: 'string', arg: 'N', description: 'results per page (default 10)' },
    page: { type: 'string', arg: 'P', description: 'which page of results (default 1)' },
    json: { type: 'boolean', description: 'print one JSON object: total and hits' },
    'show-query': {
      type: 'boolean',
      description: 'print the _search body (for Dev Tools) and search nothing',
    },
  },
  details:
    'QUERY is OpenSearch simple_query_string syntax over title, description and content (title\n' +
    'weighs most): every word must match; "a phrase", -word to exclude, a | b for either, prefix*.\n' +
    'Each result: the title, the URL, the passage of the text that matched (matches in bold on a\n' +
    'terminal), and "near-duplicate of URL" for a page judged a copy. Reads the content index\n' +
    '(opensearch.indexer.index.name) only: no http.agent.name needed.',
  async run({ positionals, values, config, log, out }) {
    if (positionals.length === 0 || positionals.join(' ').trim() === '') throw new UsageError(USAGE);
    const now = systemClock.now();
    const time = (o: 'since' | 'until') => {
      const v = values[o] as string | undefined;
      return v === undefined ? undefined : timeOption(o, v, now);
    };
    const size = countOption(values, 'size', 10);
    const page = countOption(values, 'page', 1);
    if (page * size > MAX_RESULT_WINDOW)
      throw new CrawlerError(
        'BAD_OPTION',
        `--page ${page} of --size ${size} reaches past result ${MAX_RESULT_WINDOW}, as far as OpenSearch pages; narrow the query (--host, --since)`,
      );
    const since = time('since');
    const until = time('until');
    const request: SearchRequest = {
      query: positionals.join(' '),
      size,
      page,
      ...(values.host ? { host: values.host as string } : {}),
      ...(values.lang ? { lang: values.lang as string } : {}),
      ...(since ? { since } : {}),
      ...(until ? { until } : {}),
    };
    if (values['show-query']) {
      out(JSON.stringify(searchBody(request), null, 2));
      return 0;
    }
    const result = await searchCrawl(config(), log, request);
    if (values.json) {
      const hits = result.hits.map((h) => ({
        ...h,
        snippet: h.snippet.replaceAll(HIGHLIGHT.pre, '').replaceAll(HIGHLIGHT.post, ''),
      }));
      out(
        JSON.stringify(
          { total: result.total, totalIsLowerBound: result.totalIsLowerBound, page, size, hits },
          null,
          2,
        ),
      );
      return 0;
    }
    const bold = process.stdout.isTTY && !process.env.NO_COLOR;
    const show = bold ? { open: '\u001b[1m', close: '\u001b[22m' } : { open: '', close: '' };
    const pages = Math.ceil(result.total / size);
    const first = (page - 1) * size + 1;
    const more = page < pages ? `; --page ${page + 1} for more` : '';
    out(
      result.hits.length === 0
        ? `no results for ${JSON.stringify(request.query)}${result.total > 0 ? ` on page ${page} (${result.total} in all)` : ''}`
        : `${result.totalIsLowerBound ? 'more than ' : ''}${count(result.total, 'result')} for ${JSON.stringify(request.query)}, ${first}-${first + result.hits.length - 1} shown${more}`,
    );
    result.hits.forEach((h, i) => {
      out('');
      out(`${first + i}. ${terminalLine(h.title) || '(no title)'}`);
      out(`   ${terminalLine(h.url)}`);
      const snippet = terminalSnippet(h.snippet, HIGHLIGHT, show);
      if (snippet) out(`   ${snippet}`);
      if (h.duplicateOf) out(`   near-duplicate of ${terminalLine(h.duplicateOf)}`);
    });
    return 0;
  },
};
