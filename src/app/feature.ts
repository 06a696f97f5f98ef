import type { Config } from '../config/schema.js';
import type { ChecksStore } from '../dedup/build.js';
import type { InlineParser } from '../parse/stage.js';
import type { PageParser } from '../parse/types.js';
import type { CrawlerParts } from '../pipeline/crawler.js';
import type { HttpProtocol } from '../protocol/http/client.js';
import type { DecisionStore } from '../render/advisor.js';
import type { Clock } from '../util/clock.js';
import type { Logger } from '../util/log.js';
import type { StoreSet } from './stores.js';

/*
 * The contract between the composition root and a feature's folder. A feature (WARC output,
 * rendering, the page checks, Tika) exports one object with `check` and `build`, written against
 * the few parts it needs; the root lists it once, and that one list serves both `checkCrawlSettings`
 * and `buildCrawl`. The folders do not import this file (most are below app/): their objects fit
 * it structurally, which the root's list checks.
 */

/** The parts of a crawl built before any feature: what a feature's `build` may use. */
export interface CrawlBase {
  readonly clock: Clock;
  readonly log: Logger;
  /** The HTTP protocol (rendering wraps it). */
  readonly http: HttpProtocol;
  /** The parser on this thread: what Tika's documents go through, ready. */
  readonly inline: InlineParser;
  /** The crawl's parser: the inline one or the parser threads. */
  readonly parser: PageParser;
  readonly stores: StoreSet;
  /** Where adaptive rendering keeps its per-host decisions (the hosts index); made on demand. */
  readonly renderDecisions: () => DecisionStore;
  /** What the page checks look up and write (content, hosts and status indices); none when off. */
  readonly checksStore: () => ChecksStore | undefined;
}

/** A built feature. */
export interface Built<Parts = unknown> {
  /** What the feature hands the crawl loop: some of its parts, replacing the base's (the protocol). */
  readonly hand: Partial<CrawlerParts>;
  /** What the crawl exposes of the feature, if anything (the rendering, for its browser). */
  readonly parts?: Parts;
  /** Once the crawl loop exists: the feature may stop it (a WARC write that failed for good). */
  started?(crawler: { requestStop(): void }): void;
  /** After the crawl, in reverse order of building; waits for what the feature still writes. */
  close?(): unknown;
  /** After closing: throws the error that stopped the crawl, if this feature stopped it. */
  throwIfFailed?(): void;
}

/** A feature of a crawl, as its folder exports it. */
export interface Feature<Parts = unknown> {
  /** Reads and checks the feature's keys and starts nothing: a ConfigError names each bad key. */
  check(config: Config): unknown;
  /** Builds the feature (its keys checked again as they are read); undefined when it is off. */
  build(config: Config, base: CrawlBase): Built<Parts> | undefined | Promise<Built<Parts> | undefined>;
}

type BuiltOf<F> = F extends { build(...args: never[]): infer R } ? Awaited<R> : never;

/** What a crawl opened, closed in reverse order; every one is closed even when one throws. */
export class Closers {
  private readonly list: (() => unknown)[] = [];

  add(close: () => unknown): void {
    this.list.push(close);
  }

  /** Closes everything once; then throws the first error a closer threw, if one did. */
  async closeAll(): Promise<void> {
    const errors: unknown[] = [];
    for (const c of this.list.reverse()) {
      try {
        await c();
      } catch (e) {
        errors.push(e);
      }
    }
    this.list.length = 0;
    if (errors.length > 0) throw errors[0];
  }
}

/** The checks of every feature of `features`, in order. */
export async function checkFeatures(features: Record<string, Feature>, config: Config): Promise<void> {
  for (const f of Object.values(features)) await f.check(config);
}

/**
 * Builds every feature of `features`, in order, each closed by `closers`: what they hand the crawl
 * loop (merged), each one's build by name, and the hooks for once the loop exists and after closing.
 */
export async function buildFeatures<F extends Record<string, Feature>>(
  features: F,
  config: Config,
  base: CrawlBase,
  closers: Closers,
) {
  const built = {} as { [K in keyof F]: BuiltOf<F[K]> };
  const all: Built[] = [];
  for (const [name, feature] of Object.entries(features)) {
    const b = await feature.build(config, base);
    built[name as keyof F] = b as BuiltOf<F[keyof F]>;
    if (!b) continue;
    all.push(b);
    if (b.close) closers.add(() => b.close?.());
  }
  return {
    built,
    hand: Object.assign({}, ...all.map((b) => b.hand)) as Partial<CrawlerParts>,
    started: (crawler: { requestStop(): void }) => {
      for (const b of all) b.started?.(crawler);
    },
    throwIfFailed: () => {
      for (const b of all) b.throwIfFailed?.();
    },
  };
}
