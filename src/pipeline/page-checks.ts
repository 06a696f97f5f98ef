import type { Client } from '@opensearch-project/opensearch';
import type { Config } from '../config/schema.js';
import { DEFAULT_JUDGE_OPTIONS, PageJudge } from '../dedup/judge.js';
import { MD } from '../model/keys.js';
import { contentUrl, indexable } from '../opensearch/content-doc.js';
import { DedupIndex } from '../opensearch/dedup-index.js';
import type { ContentDeleter } from '../opensearch/deleter.js';
import { DueWriter } from '../opensearch/due.js';
import type { WriteFence } from '../opensearch/fence.js';
import { documentId } from '../opensearch/status-doc.js';
import type { PageParser } from '../parse/types.js';
import { HostProfiles } from '../soft404/host-profiles.js';
import { Prober } from '../soft404/prober.js';
import { routeFetchSink } from '../soft404/router.js';
import type { Clock } from '../util/clock.js';
import type { Logger } from '../util/log.js';
import { indexerOptions } from './options.js';
import type { PageChecks } from './ports.js';

/*
 * The wiring of near-duplicate and soft-404 detection (README: Duplicates and soft 404s): the
 * judge between the parser and the indexer, the prober and the fetch sink's router, the writer that
 * makes near-duplicates due when their canonical goes. compose.ts calls these two builders.
 */

/**
 * The status-index writer that makes the near-duplicates of a deleted page due (the content
 * deleter calls it for every deletion), or undefined with `dedup.mode: off`.
 */
export function buildDueWriter(
  client: Client,
  config: Config,
  clock: Clock,
  log: Logger,
  fence?: WriteFence,
): DueWriter | undefined {
  if (config['dedup.mode'] === 'off' && !config['soft404.enabled']) return undefined;
  return new DueWriter(client, config['opensearch.status.index.name'], clock, log, 2000, fence);
}

export interface PageChecksParts extends PageChecks {
  readonly judge: PageJudge['judge'];
  readonly stats: () => Record<string, number>;
  close(): void;
}

/** The checks, or undefined when `dedup.mode` is off and `soft404.enabled` false. */
export function buildPageChecks(
  client: Client,
  config: Config,
  deps: {
    readonly parser: PageParser;
    readonly due: DueWriter | undefined;
    readonly deleter: Pick<ContentDeleter, 'delete'>;
    readonly clock: Clock;
    readonly log: Logger;
  },
): PageChecksParts | undefined {
  const mode = config['dedup.mode'];
  const soft404 = config['soft404.enabled'];
  if ((mode === 'off' && !soft404) || !deps.due) return undefined;
  const { clock, log, due } = deps;
  const index = new DedupIndex(client, {
    content: config['opensearch.indexer.index.name'],
    hosts: config['opensearch.hosts.index.name'],
  });
  const profiles = new HostProfiles();
  const prefix = config['protocol.md.prefix'];
  const validators = [prefix + MD.etagHeader, prefix + MD.lastModifiedHeader];
  const canonicalKey = config['indexer.canonical.name'];
  const indexing = indexerOptions(config);
  const prober = soft404
    ? new Prober(
        {
          profiles,
          loadProfile: (host) => index.profile(host),
          saveProfile: (host, p) => index.saveProfile(host, p),
          parse: (page) => deps.parser.parse(page),
          makeDue: (url) => due.url(url),
          clock,
          log,
        },
        { after: config['soft404.probe.after'], intervalMs: config['soft404.probe.interval'] },
      )
    : null;
  const judge = new PageJudge(
    {
      lookup: index,
      profiles,
      contentId: (url, md) => documentId(contentUrl(url, md, canonicalKey)),
      releaseDuplicates: (url) => due.duplicatesOf(url),
      isGone: (url) => due.isGone(url),
      indexable: (md) => indexable(md, indexing),
      deleteContent: (url) => deps.deleter.delete(url),
      ...(prober ? { watcher: prober } : {}),
      clock,
      log,
    },
    { mode, soft404, validators, ...DEFAULT_JUDGE_OPTIONS },
  );
  return {
    judge: (page) => judge.judge(page),
    room: () => judge.room(),
    wrapSink: (sink) => routeFetchSink(sink, { prober, profiles, validators }),
    attach: (submit) => prober?.attach(submit),
    get busy() {
      return prober?.busy ?? false;
    },
    stop: () => prober?.stop(),
    stats: () => ({ ...judge.stats, ...(prober ? prober.stats : {}) }),
    close: () => judge.close(),
  };
}

/**
 * Near-duplicates and soft 404s as the composition root lists them (app/feature.ts): what they hand
 * the crawl loop is the checks; undefined when `dedup.mode` is off and `soft404.enabled` false. Their
 * keys are checked by the schema alone. Built here rather than in src/dedup: it wires OpenSearch's
 * dedup and hosts indices, a layer above dedup and soft404, into their judge and prober.
 */
export const pageChecksFeature = {
  check: (_config: Config) => undefined,
  build(
    config: Config,
    base: {
      readonly client: Client;
      readonly parser: PageParser;
      readonly stores: {
        readonly due: DueWriter | undefined;
        readonly deleter: Pick<ContentDeleter, 'delete'>;
      };
      readonly clock: Clock;
      readonly log: Logger;
    },
  ) {
    const { client, parser, stores, clock, log } = base;
    const checks = buildPageChecks(client, config, {
      parser,
      due: stores.due,
      deleter: stores.deleter,
      clock,
      log,
    });
    return checks && { hand: { checks }, close: () => checks.close() };
  },
};
