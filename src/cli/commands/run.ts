import { buildCrawl } from '../../pipeline/compose.js';
import { checkAgentName } from '../../protocol/http/user-agent.js';
import { CrawlerError } from '../../util/errors.js';
import type { Command } from '../command.js';

function intOption(value: unknown, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0)
    throw new CrawlerError('BAD_OPTION', `--${name} must be a whole number, got "${value}"`);
  return n;
}

export const runCommand: Command = {
  name: 'run',
  summary: 'crawl: fetch due URLs, parse, index and write every status back (continuous by default)',
  usage: 'crawler run [--once] [--seed URL]... [--instances M --instance I] [options]',
  options: {
    once: { type: 'boolean', description: 'stop when nothing is due and nothing is in flight' },
    seed: {
      type: 'string',
      multiple: true,
      arg: 'URL',
      description: 'inject this URL before crawling (repeatable)',
    },
    instances: {
      type: 'string',
      arg: 'M',
      description: 'crawler instances sharing the status index (env CRAWLER_INSTANCES)',
    },
    instance: { type: 'string', arg: 'I', description: 'this instance, 0..M-1 (env CRAWLER_INSTANCE)' },
  },
  details:
    'Start-up checks the configuration (http.agent.name is required), the cluster and the indices\n' +
    '(created when missing). With M instances, instance I reads only the status shards s with\n' +
    's % M == I; URLs are routed by host, so each host is crawled by one instance. M may not exceed\n' +
    'the number of status shards (opensearch.status.shards).\n' +
    'SIGINT/SIGTERM: stop taking URLs, finish fetches in flight (30 s at most), write everything,\n' +
    'exit 0. A second signal exits at once.',
  async run({ values, config, log, out }) {
    const cfg = config();
    // Checked before the options: a crawl without a name is refused whatever else is given.
    checkAgentName(cfg['http.agent.name']);
    const instancesGiven = values.instances ?? process.env.CRAWLER_INSTANCES;
    const instanceGiven = values.instance ?? process.env.CRAWLER_INSTANCE;
    if (instanceGiven !== undefined && instancesGiven === undefined) {
      throw new CrawlerError(
        'BAD_OPTION',
        `--instance ${instanceGiven} needs --instances M (or CRAWLER_INSTANCES): how many instances share the status index`,
      );
    }
    const instances = intOption(instancesGiven, 'instances', 1);
    const instance = intOption(instanceGiven, 'instance', 0);
    if (instances < 1) {
      throw new CrawlerError('BAD_OPTION', `--instances must be at least 1, got ${instances}`);
    }
    if (instance >= instances) {
      throw new CrawlerError(
        'BAD_OPTION',
        `--instance must be between 0 and ${instances - 1}, got ${instance}`,
      );
    }
    const once = values.once === true;
    const crawl = await buildCrawl(cfg, {
      log,
      instances,
      instance,
      seeds: (values.seed as string[] | undefined) ?? [],
    });
    const { crawler } = crawl;
    let signals = 0;
    const onSignal = (sig: string) => {
      signals++;
      if (signals > 1) {
        log.warn(`${sig} again: exiting at once`);
        process.exit(130);
      }
      log.info(`${sig}: finishing fetches in flight and writing everything (send it again to exit at once)`);
      crawler.requestStop();
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    log.info(
      {
        cluster: crawl.cluster,
        statusIndex: cfg['opensearch.status.index.name'],
        userAgent: crawl.userAgent,
        once,
      },
      'crawling',
    );
    try {
      await crawler.run({ once });
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      await crawl.close();
    }
    const m = crawler.metrics;
    out(
      `fetched ${m.fetched} pages; statuses ${JSON.stringify(Object.fromEntries(m.byStatus))}; ` +
        `discovered ${m.discovered} links${m.errors.size ? `; errors ${m.errorSummary()}` : ''}`,
    );
    return 0;
  },
};
