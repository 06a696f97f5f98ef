import type { Config } from '../config/schema.js';
import { MD } from './keys.js';
import { Metadata } from './metadata.js';
import { parseInteger } from './values.js';

export interface MetadataTransferOptions {
  /** `metadata.transfer`: copied to outlinks and persisted. Entries ending in `*` are prefixes. */
  readonly transfer: readonly string[];
  /** `metadata.persist`: persisted, not copied to outlinks. Entries ending in `*` are prefixes. */
  readonly persist: readonly string[];
  /** `metadata.track.path`: outlinks carry `url.path`, the chain of pages from the seed. */
  readonly trackPath: boolean;
  /** `metadata.track.depth`: outlinks carry `depth` (+1 per hop) and `max.depth` (unchanged). */
  readonly trackDepth: boolean;
}

export type MetadataTransferConfig = Pick<
  Config,
  'metadata.transfer' | 'metadata.persist' | 'metadata.track.path' | 'metadata.track.depth'
>;

/**
 * Decides which metadata travels from a page to its outlinks and which metadata is stored in the
 * status index. Everything else lives only while a URL is being processed: that keeps status
 * documents small, and a key that should survive has to be listed on purpose.
 */
export class MetadataTransfer {
  private readonly toTransfer: KeyPatterns;
  /** Transferred or persisted: what the status index stores. */
  private readonly toStore: KeyPatterns;

  static fromConfig(config: MetadataTransferConfig, extraPersist: readonly string[] = []): MetadataTransfer {
    return new MetadataTransfer({
      transfer: config['metadata.transfer'],
      persist: [...config['metadata.persist'], ...extraPersist],
      trackPath: config['metadata.track.path'],
      trackDepth: config['metadata.track.depth'],
    });
  }

  constructor(private readonly options: MetadataTransferOptions) {
    const transfer = [
      ...(options.trackPath ? [MD.urlPath] : []),
      ...(options.trackDepth ? [MD.depth, MD.maxDepth] : []),
      ...options.transfer,
    ];
    this.toTransfer = new KeyPatterns(transfer);
    // The error count must survive between fetches or a URL could never reach max.fetch.errors;
    // a deferral's cause is what explains a URL that was put back unfetched.
    this.toStore = new KeyPatterns([
      ...transfer,
      ...options.persist,
      MD.fetchErrorCount,
      MD.deferCause,
      MD.deferDate,
      MD.deferMessage,
    ]);
  }

  /**
   * The metadata of a link found on `sourceUrl`, whose own metadata is `parent`: the transferred
   * keys, `url.path` extended by `sourceUrl`, and `depth` one more than the parent's (a missing or
   * non-integer depth counts as 0, so a seed's outlinks have depth 1).
   */
  forOutlink(sourceUrl: string, parent: Metadata): Metadata {
    const md = select(parent, this.toTransfer);
    if (this.options.trackPath) md.addValue(MD.urlPath, sourceUrl);
    if (this.options.trackDepth) {
      const depth = parseInteger(md.getFirstValue(MD.depth)) ?? 0;
      md.setValue(MD.depth, String(depth + 1));
    }
    return md;
  }

  /** The metadata that the status index stores: transferred and persisted keys, in `md`'s order. */
  filter(md: Metadata): Metadata {
    return select(md, this.toStore);
  }

  /** True if `key` survives `filter`. */
  isPersisted(key: string): boolean {
    return this.toStore.matches(key);
  }
}

/**
 * Key patterns: names, and prefixes ending in `*`. Compiled once, as every key of every page is
 * matched against them (a slice per pattern and key cost more than the copy it decided).
 */
class KeyPatterns {
  private readonly names: ReadonlySet<string>;
  private readonly prefixes: readonly string[];

  constructor(patterns: readonly string[]) {
    this.names = new Set(patterns.filter((p) => !p.endsWith('*')));
    this.prefixes = patterns.filter((p) => p.endsWith('*')).map((p) => p.slice(0, -1));
  }

  matches(key: string): boolean {
    if (this.names.has(key)) return true;
    for (const p of this.prefixes) if (key.startsWith(p)) return true;
    return false;
  }
}

// Keys with no values are not copied (as StormCrawler's setValues skips them).
function select(md: Metadata, patterns: KeyPatterns): Metadata {
  const out = new Metadata();
  for (const [key, values] of md.entries()) {
    if (patterns.matches(key)) out.setValues(key, values);
  }
  return out;
}
