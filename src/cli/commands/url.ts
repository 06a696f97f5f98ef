import { urlReportLines } from '../../console/url-text.js';
import { connect } from '../../opensearch/client.js';
import { urlReport } from '../../opensearch/url-report.js';
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
    const { client } = await connect(cfg, log);
    try {
      const found = await urlReport(client, cfg, url, Date.now());
      const { report, doc, contentText, contentMarkdown } = found;
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
      if (values.robots) {
        // The HTTP client (undici) only when asked: the rest of the command reads OpenSearch alone.
        const [{ HttpProtocol }, { RobotsService }, { systemClock }] = await Promise.all([
          import('../../protocol/http/client.js'),
          import('../../protocol/robots/fetch-robots.js'),
          import('../../util/clock.js'),
        ]);
        // Reading a robots.txt needs no name of the user's crawl: without one, the rules asked are
        // those for robots in general ("User-agent: *"), under a name no site addresses.
        const unnamed = cfg['http.agent.name'].trim() === '';
        const robotsCfg = unnamed ? { ...cfg, 'http.agent.name': 'os-crawler-check' } : cfg;
        const protocol = new HttpProtocol(robotsCfg, { clock: systemClock });
        try {
          const { rules, unavailable } = await new RobotsService(robotsCfg, {
            protocol,
            clock: systemClock,
          }).rulesFor(url);
          report.robots = unavailable
            ? `unavailable (${unavailable.reason}): disallowed for now, the URL is deferred`
            : `${rules.isAllowed(url) ? 'allowed' : 'disallowed'} (${rules.kind}${
                rules.crawlDelayMs ? `, Crawl-delay ${rules.crawlDelayMs / 1000} s` : ''
              })${unnamed ? ' for robots in general: http.agent.name is not set' : ''}`;
        } finally {
          await protocol.close();
        }
      }
      if (values.json) {
        out(JSON.stringify(report, null, 2));
        return 0;
      }
      for (const line of urlReportLines(url, found, cfg['opensearch.indexer.index.name'])) out(line);
      return doc ? 0 : 1;
    } finally {
      await client.close();
    }
  },
};
