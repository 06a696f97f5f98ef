import type { Config } from '../config/schema.js';
import { urlReport } from '../opensearch/url-report.js';
import { systemClock } from '../util/clock.js';
import type { Logger } from '../util/log.js';
import { withCluster } from './admin.js';

/*
 * `crawler url`: what the indices say about one URL, and with `robots` the verdict of the host's
 * robots.txt fetched now.
 */

export type UrlLookup = Awaited<ReturnType<typeof urlReport>>;

export function lookUpUrl(config: Config, log: Logger, url: string, robots: boolean): Promise<UrlLookup> {
  return withCluster(config, log, async (client) => {
    const found = await urlReport(client, config, url, systemClock.now());
    if (robots) found.report.robots = await robotsVerdict(config, url);
    return found;
  });
}

/** The line of the host's robots.txt, fetched now, for `url`. */
async function robotsVerdict(config: Config, url: string): Promise<string> {
  // The HTTP client (undici) only when asked: the rest of the command reads OpenSearch alone.
  const [{ HttpProtocol }, { RobotsService }, { systemClock }] = await Promise.all([
    import('../protocol/http/client.js'),
    import('../protocol/robots/fetch-robots.js'),
    import('../util/clock.js'),
  ]);
  // Reading a robots.txt needs no name of the user's crawl: without one, the rules asked are
  // those for robots in general ("User-agent: *"), under a name no site addresses.
  const unnamed = config['http.agent.name'].trim() === '';
  const robotsCfg = unnamed ? { ...config, 'http.agent.name': 'os-crawler-check' } : config;
  const protocol = new HttpProtocol(robotsCfg, { clock: systemClock });
  try {
    const { rules, unavailable } = await new RobotsService(robotsCfg, {
      protocol,
      clock: systemClock,
    }).rulesFor(url);
    return unavailable
      ? `unavailable (${unavailable.reason}): disallowed for now, the URL is deferred`
      : `${rules.isAllowed(url) ? 'allowed' : 'disallowed'} (${rules.kind}${
          rules.crawlDelayMs ? `, Crawl-delay ${rules.crawlDelayMs / 1000} s` : ''
        })${unnamed ? ' for robots in general: http.agent.name is not set' : ''}`;
  } finally {
    await protocol.close();
  }
}
