import { lookUpUrl } from '../../app/url-lookup.js';
import { urlReportLines } from '../../console/url-text.js';
import { urlProblem } from '../../pipeline/inject.js';
import { CrawlerError } from '../../util/errors.js';
import { terminalText } from '../../util/terminal-text.js';
import { type Command, UsageError } from '../command.js';

export const urlCommand: Command = {
  usage: 'crawler url URL [--robots] [--json | --text | --markdown] [options]',
  options: {
    robots: {
      type: 'boolean',
      description: "fetch the host's robots.txt now and show its verdict for the URL",
    },
    json: { type: 'boolean', description: 'print one JSON object' },
    text: {
      type: 'boolean',
      description: "print only the page's text as indexed (the content document's content field)",
    },
    markdown: {
      type: 'boolean',
      description: "print only the page's main content as Markdown (the content document's markdown field)",
    },
  },
  async run({ positionals, values, config, log, out }) {
    const url = positionals[0];
    if (!url || positionals.length > 1) {
      throw new UsageError('crawler url URL');
    }
    const problem = urlProblem(url);
    if (problem !== undefined) {
      throw new CrawlerError(
        'BAD_ARGUMENT',
        `${problem}: give the absolute URL as crawled, e.g. https://www.example.com/page`,
      );
    }
    const cfg = config();
    // The robots.txt is fetched only when its verdict is shown (not with --text or --markdown).
    const robots = values.robots === true && !values.markdown && !values.text;
    const found = await lookUpUrl(cfg, log, url, robots);
    const { doc, contentText, contentMarkdown } = found;
    if (values.markdown) {
      if (contentMarkdown === undefined) {
        log.warn(
          contentText === undefined
            ? `${url} is not in the content index "${cfg['opensearch.indexer.index.name']}"`
            : `${url} is indexed without Markdown (not HTML, or textextractor.markdown is false)`,
        );
        return 1;
      }
      out(terminalText(contentMarkdown));
      return 0;
    }
    if (values.text) {
      if (contentText === undefined) {
        log.warn(`${url} is not in the content index "${cfg['opensearch.indexer.index.name']}"`);
        return 1;
      }
      out(terminalText(contentText));
      return 0;
    }
    if (values.json) {
      out(JSON.stringify(found.report, null, 2));
      return 0;
    }
    for (const line of urlReportLines(url, found, cfg['opensearch.indexer.index.name'])) out(line);
    return doc ? 0 : 1;
  },
};
