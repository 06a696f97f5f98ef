import type { Config } from '../config/schema.js';
import type { BulkWriterOptions } from '../opensearch/bulk-writer.js';
import type { IndexerOptions } from '../opensearch/content-doc.js';
import type { SpoutOptions } from '../opensearch/spout/spout.js';
import type { CrawlerOptions } from '../pipeline/crawler.js';
import { bulkOptions, crawlerOptions, indexerOptions, spoutOptions } from './options.js';

/*
 * One crawl's settings, read from the validated configuration once (buildCrawl) and handed down in
 * parts: the loop gets `loop`, the spout `spout`, the stores `stores`, the reconcile `reconcile`.
 * Units are converted here (options.ts), so no part reads a config key again.
 */

/** What the stores of a crawl (app/stores.ts) are built with. */
export interface StoreSettings {
  readonly statusIndex: string;
  readonly contentIndex: string;
  /** status.transitions.index.name; '' for none. */
  readonly transitionsIndex: string;
  readonly partition: Config['partition.url.mode'];
  readonly statusBulk: BulkWriterOptions;
  /** The bulk settings of the content and transitions writers (opensearch.indexer.*). */
  readonly indexerBulk: BulkWriterOptions;
  readonly indexer: IndexerOptions;
  /** dedup.mode is not off: a deleted page's near-duplicates are made due. */
  readonly releaseDuplicates: boolean;
}

export interface CrawlSettings {
  readonly loop: CrawlerOptions;
  readonly spout: SpoutOptions;
  readonly stores: StoreSettings;
  readonly reconcile: {
    readonly statusIndex: string;
    readonly contentIndex: string;
    /** opensearch.indexer.reconcile.interval, ms. */
    readonly intervalMs: number;
  };
}

export function storeSettings(config: Config): StoreSettings {
  return {
    statusIndex: config['opensearch.status.index.name'],
    contentIndex: config['opensearch.indexer.index.name'],
    transitionsIndex: config['status.transitions.index.name'],
    partition: config['partition.url.mode'],
    statusBulk: bulkOptions(config, 'status'),
    indexerBulk: bulkOptions(config, 'indexer'),
    indexer: indexerOptions(config),
    releaseDuplicates: config['dedup.mode'] !== 'off',
  };
}

/** The settings of a crawl that reads the status shards `shards` (all when undefined). */
export function crawlSettings(config: Config, shards?: readonly number[]): CrawlSettings {
  return {
    loop: crawlerOptions(config),
    spout: spoutOptions(config, shards),
    stores: storeSettings(config),
    reconcile: {
      statusIndex: config['opensearch.status.index.name'],
      contentIndex: config['opensearch.indexer.index.name'],
      intervalMs: config['opensearch.indexer.reconcile.interval'],
    },
  };
}
