import type { Config } from '../config/schema.js';
import { MD } from '../model/keys.js';
import type { Metadata } from '../model/metadata.js';
import type { PageParser } from '../parse/types.js';
import type { PageChecks } from '../pipeline/ports.js';
import { HostProfiles } from '../soft404/host-profiles.js';
import { Prober } from '../soft404/prober.js';
import type { HostProfile } from '../soft404/profile.js';
import { routeFetchSink } from '../soft404/router.js';
import type { Clock } from '../util/clock.js';
import type { Logger } from '../util/log.js';
import { DEFAULT_JUDGE_OPTIONS, PageJudge } from './judge.js';
import type { CandidateLookup } from './ports.js';

/*
 * The wiring of near-duplicate and soft-404 detection (README: Duplicates and soft 404s): the
 * judge between the parser and the indexer, the prober and the fetch sink's router. What they need
 * of OpenSearch comes through `ChecksStore` (app/page-checks.ts implements it).
 */

/** The content and hosts indices and the status index, as the page checks use them. */
export interface ChecksStore extends CandidateLookup {
  /** A host's stored soft-404 profile, or null. */
  profile(host: string): Promise<HostProfile | null>;
  saveProfile(host: string, profile: HostProfile): Promise<void>;
  /** The id of the content document a page is stored as (its canonical URL's). */
  contentId(url: string, metadata: Metadata): string;
  /** Whether the indexer would store the page at all. */
  indexable(metadata: Metadata): boolean;
  /** Makes the URL due now. */
  makeDue(url: string): void;
  /** Makes the near-duplicates of `url` due (one of them takes its place). */
  releaseDuplicates(url: string): void;
  isGone(url: string): boolean;
  deleteContent(url: string): void;
}

/** The checks as built: with their counters, and closed after the crawl. */
export interface PageChecksParts extends PageChecks {
  stats(): Record<string, number>;
  close(): void;
}

/** The keys of the page checks: near-duplicates, soft 404s and what they read of a page's metadata. */
export type PageChecksConfig = Pick<
  Config,
  | 'dedup.mode'
  | 'dedup.duplicate.similarity'
  | 'soft404.enabled'
  | 'soft404.probe.after'
  | 'soft404.probe.interval'
  | 'protocol.md.prefix'
  | 'indexer.text.maxlength'
>;

/** The checks; `store` is asked for only when they are on. */
function buildPageChecks(
  config: PageChecksConfig,
  deps: {
    readonly store: ChecksStore;
    readonly parser: PageParser;
    readonly clock: Clock;
    readonly log: Logger;
  },
): PageChecksParts {
  const { store, clock, log } = deps;
  const mode = config['dedup.mode'];
  const soft404 = config['soft404.enabled'];
  const profiles = new HostProfiles();
  const prefix = config['protocol.md.prefix'];
  const validators = [prefix + MD.etagHeader, prefix + MD.lastModifiedHeader];
  const prober = soft404
    ? new Prober(
        {
          profiles,
          loadProfile: (host) => store.profile(host),
          saveProfile: (host, p) => store.saveProfile(host, p),
          parse: (page) => deps.parser.parse(page),
          makeDue: (url) => store.makeDue(url),
          clock,
          log,
        },
        { after: config['soft404.probe.after'], intervalMs: config['soft404.probe.interval'] },
      )
    : null;
  const judge = new PageJudge(
    {
      lookup: store,
      profiles,
      contentId: (url, md) => store.contentId(url, md),
      releaseDuplicates: (url) => store.releaseDuplicates(url),
      isGone: (url) => store.isGone(url),
      indexable: (md) => store.indexable(md),
      deleteContent: (url) => store.deleteContent(url),
      ...(prober ? { watcher: prober } : {}),
      clock,
      log,
    },
    {
      mode,
      soft404,
      validators,
      duplicateSimilarity: config['dedup.duplicate.similarity'],
      textMaxLength: config['indexer.text.maxlength'],
      ...DEFAULT_JUDGE_OPTIONS,
    },
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
 * the crawl loop is the checks; undefined when `dedup.mode` is off and `soft404.enabled` false
 * (`checksStore` then gives none). Their keys are checked by the schema alone.
 */
export const pageChecksFeature = {
  check: (_config: PageChecksConfig) => undefined,
  build(
    config: PageChecksConfig,
    base: {
      readonly checksStore: () => ChecksStore | undefined;
      readonly parser: PageParser;
      readonly clock: Clock;
      readonly log: Logger;
    },
  ) {
    if (config['dedup.mode'] === 'off' && !config['soft404.enabled']) return undefined;
    const store = base.checksStore();
    if (!store) return undefined;
    const checks = buildPageChecks(config, { store, parser: base.parser, clock: base.clock, log: base.log });
    return { hand: { checks }, close: () => checks.close() };
  },
};
