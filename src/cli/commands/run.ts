import type { Client } from '@opensearch-project/opensearch';
import { Metadata } from '../../model/metadata.js';
import { connect } from '../../opensearch/client.js';
import { ensureIndices, planIndices } from '../../opensearch/indices.js';
import { createPageParser } from '../../parse/index.js';
import { ParserPool } from '../../parse/worker/pool.js';
import { buildCrawler, buildFilter, buildStatusSide } from '../../pipeline/build.js';
import { Crawler } from '../../pipeline/crawler.js';
import { checkAgentName } from '../../protocol/http/user-agent.js';
import { systemClock } from '../../util/clock.js';
import { CrawlerError } from '../../util/errors.js';
import { openWarcOutput } from '../../warc/output.js';
import type { Command } from '../command.js';

/** The status shards instance `i` of `m` reads: every shard s with s % m == i. */
export function shardsFor(total: number, instances: number, instance: number): number[] {
  return Array.from({ length: total }, (_, s) => s).filter((s) => s % instances === instance);
}

async function shardCount(client: Client, index: string): Promise<number> {
  const res = await client.indices.getSettings({ index });
  const settings = Object.values(res.body)[0] as { settings: { index: { number_of_shards: string } } };
  return Number(settings.settings.index.number_of_shards);
}

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
    // Checked before anything else: a crawl without a name would be refused later anyway.
    checkAgentName(cfg['http.agent.name']);
    const instances = intOption(values.instances ?? process.env.CRAWLER_INSTANCES, 'instances', 1);
    const instance = intOption(values.instance ?? process.env.CRAWLER_INSTANCE, 'instance', 0);
    if (instances < 1 || instance >= instances) {
      throw new CrawlerError(
        'BAD_OPTION',
        `--instance must be between 0 and ${instances - 1}, got ${instance}`,
      );
    }
    const { client, url } = await connect(cfg, log);
    try {
      await ensureIndices(client, planIndices(cfg));
      const statusIndex = cfg['opensearch.status.index.name'];
      let shards: number[] | undefined;
      if (instances > 1) {
        const total = await shardCount(client, statusIndex);
        if (instances > total) {
          throw new CrawlerError(
            'TOO_MANY_INSTANCES',
            `--instances ${instances} exceeds the ${total} shards of the status index "${statusIndex}": ` +
              'each instance needs at least one shard (raise opensearch.status.shards and run crawler init --recreate)',
          );
        }
        shards = shardsFor(total, instances, instance);
        log.info(
          { instance, instances, shards },
          `instance ${instance} of ${instances} reads status shards ${shards.join(',')}`,
        );
      }
      const { filter, chain } = buildFilter(cfg, log);
      const seeds = (values.seed as string[] | undefined) ?? [];
      if (seeds.length > 0) {
        const side = buildStatusSide(client, cfg, systemClock, log);
        for (const s of seeds) {
          const kept = filter(null, new Metadata(), s);
          if (kept === null) log.warn({ url: s }, `--seed ${s} is rejected by the URL filters; skipped`);
          else await side.writer.write({ url: kept, status: 'DISCOVERED', metadata: new Metadata() }, false);
        }
        await side.flushAndClose();
        await client.indices.refresh({ index: statusIndex });
      }
      const parser = createPageParser(cfg, {
        filter: (source, md, target) => chain.filter(source, md, target),
        clock: systemClock,
        log,
      });
      await parser.ready;
      // The main-thread parser is built anyway: it checks the parse settings at once, with the
      // configuration's own error messages, before any thread starts.
      const pool =
        cfg['parser.threads'] > 0 ? await ParserPool.start(cfg, cfg['parser.threads'], log) : undefined;
      let built: ReturnType<typeof buildCrawler>;
      // WARC output: .open files a killed run left are closed first; a failed write stops the crawl.
      let warc: Awaited<ReturnType<typeof openWarcOutput>>;
      try {
        warc = await openWarcOutput(cfg, systemClock, log);
        built = buildCrawler(client, cfg, systemClock, log, {
          shards,
          parser: pool ?? parser,
          archive: warc?.archive,
        });
      } catch (e) {
        await pool?.close();
        throw e;
      }
      const { parts, crawlerOptions, protocol } = built;
      const crawler = new Crawler(parts, crawlerOptions);
      warc?.onFailure(() => crawler.requestStop()); // WARC output
      let signals = 0;
      const onSignal = (sig: string) => {
        signals++;
        if (signals > 1) {
          log.warn(`${sig} again: exiting at once`);
          process.exit(130);
        }
        log.info(
          `${sig}: finishing fetches in flight and writing everything (send it again to exit at once)`,
        );
        crawler.requestStop();
      };
      process.on('SIGINT', onSignal);
      process.on('SIGTERM', onSignal);
      log.info(
        { cluster: url, statusIndex, userAgent: protocol.userAgent, once: values.once === true },
        'crawling',
      );
      try {
        await crawler.run({ once: values.once === true });
      } finally {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
        await protocol.close();
        await pool?.close();
        await warc?.close(); // WARC output
      }
      warc?.throwIfFailed(); // WARC output: exit with the disk error's message
      const m = crawler.metrics;
      out(
        `fetched ${m.fetched} pages; statuses ${JSON.stringify(Object.fromEntries(m.byStatus))}; ` +
          `discovered ${m.discovered} links${m.errors.size ? `; errors ${m.errorSummary()}` : ''}`,
      );
      return 0;
    } finally {
      await client.close();
    }
  },
};
