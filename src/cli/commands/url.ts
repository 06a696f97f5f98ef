import { connect } from '../../opensearch/client.js';
import { describeRecord } from '../../opensearch/render-decisions.js';
import { urlReport } from '../../opensearch/url-report.js';
import { urlProblem } from '../../pipeline/inject.js';
import { CrawlerError } from '../../util/errors.js';
import { type Command, UsageError } from '../command.js';
import { terminalText } from '../terminal-text.js';

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
      const { report, doc, host, rendering, contentText, contentMarkdown } = await urlReport(
        client,
        cfg,
        url,
        Date.now(),
      );
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
      out(url);
      if (!doc) out('  not in the status index');
      else {
        out(`  status ${doc.status}, key ${report.key}, ${report.due}`);
        const d = report.deferred as { cause: string; at?: string; message?: string } | undefined;
        if (d) {
          out(
            `  deferred${d.at ? ` at ${d.at}` : ''} (${d.cause}), not fetched and not counted as an error: ` +
              `${d.message ?? ''}; tried again at ${report.nextFetchDate}`,
          );
        }
        const dup = report.duplicate as
          | { of: string; distance: number; similarity?: number; indexed: boolean }
          | undefined;
        if (dup) {
          const sim = dup.similarity === undefined ? '' : `similarity ${dup.similarity}, `;
          out(
            `  near-duplicate of ${dup.of} (${sim}distance ${dup.distance}): FETCHED, ${dup.indexed ? 'indexed with duplicateOf' : 'not indexed'}, ` +
              'refetched dedup.fetch.interval.factor times less often, its links followed',
          );
        }
        const similar = report.similar as { to: string; similarity: number } | undefined;
        if (similar) {
          out(
            `  similar to ${similar.to} (similarity ${similar.similarity}, under dedup.duplicate.similarity): ` +
              'FETCHED, indexed with similarTo, not a duplicate',
          );
        }
        if (report.soft404) out(`  soft 404: ${report.soft404}; not indexed, its links not followed`);
        if (report.failure) out(`  why ${doc.status}: ${report.failure}`);
        out('  metadata:');
        for (const [k, v] of Object.entries(doc.metadata.toJSON())) out(`    ${k} = ${v.join(' | ')}`);
      }
      if (Array.isArray(report.transitions)) {
        out('  transitions:');
        for (const t of report.transitions) out(`    ${t}`);
      } else out(`  transitions: ${report.transitions}`);
      const contentIndex = cfg['opensearch.indexer.index.name'];
      if (typeof report.content === 'string') out(`  content: ${report.content} "${contentIndex}"`);
      else {
        out(`  content (index "${contentIndex}"):`);
        for (const [k, v] of Object.entries(report.content as Record<string, unknown>))
          if (v !== undefined && v !== null && v !== '') out(`    ${k}: ${String(v)}`);
      }
      const probes = report.hostProbes as
        | { probedAt: string; verdict: string; answers: string[] }
        | undefined;
      if (probes) {
        out(`  soft-404 probes of the host (${probes.probedAt}): ${probes.verdict}`);
        for (const a of probes.answers) out(`    ${a}`);
      }
      out(`  rendering: ${describeRecord(host ?? url, rendering)}`);
      if (report.robots) out(`  robots.txt: ${report.robots}`);
      return doc ? 0 : 1;
    } finally {
      await client.close();
    }
  },
};
