import type { Client } from '@opensearch-project/opensearch';
import type { Config } from '../config/schema.js';
import type { CrawlMeters } from '../metrics/crawl.js';
import type { MetadataTransfer } from '../model/metadata-transfer.js';
import { createStatusUpdater } from '../model/status-updater.js';
import { TransitionLog, type TransitionRecord } from '../model/transition.js';
import { BulkWriter } from '../opensearch/bulk-writer.js';
import { ContentWriter } from '../opensearch/content-store.js';
import { ContentDeleter } from '../opensearch/deleter.js';
import type { DueWriter } from '../opensearch/due.js';
import type { WriteFence } from '../opensearch/fence.js';
import { planHostsIndex } from '../opensearch/indices.js';
import { ClusterOutage } from '../opensearch/outage.js';
import { RenderDecisions } from '../opensearch/render-decisions.js';
import { StatusWriter } from '../opensearch/status-store.js';
import { TransitionsIndex } from '../opensearch/transitions.js';
import type { Stores } from '../pipeline/crawl-parts.js';
import { StatusWrites } from '../pipeline/status-writes.js';
import type { Clock } from '../util/clock.js';
import { type Logger, transitionLogger } from '../util/log.js';
import { buildDueWriter, checksStore } from './page-checks.js';
import { type StoreSettings, storeSettings } from './settings.js';

/*
 * The stores of a crawl (the pipeline's Stores port, in OpenSearch): the status rules in front of
 * the status index, the content index, deletions and the transitions index, flushed and closed
 * together. `crawler run` and `crawler inject` write through them.
 */

/** The OpenSearch side of a crawl: the status rules and every writer, flushed and closed together. */
export interface StoreSet extends Stores {
  readonly content: ContentWriter;
  /** The metadata transfer of the status rules (what outlinks inherit). */
  readonly transfer: MetadataTransfer;
  readonly deleter: ContentDeleter;
  /** Makes near-duplicates and soft-404 suspects due (app/page-checks.ts); none when off. */
  readonly due: DueWriter | undefined;
  /** Stops the writers' timers; after the last flush. */
  close(): void;
}

export interface StoresOptions {
  readonly client: Client;
  /** For the status rules and the transition log, which read their own keys. */
  readonly config: Config;
  /** The crawl's settings of its stores; read from `config` when not given. */
  readonly settings?: StoreSettings;
  readonly clock: Clock;
  readonly log: Logger;
  /** Sees every transition once acknowledged. */
  readonly onTransition?: (record: TransitionRecord) => void;
  /** Shared with the spout: one view of an outage, logged once. */
  readonly outage?: ClusterOutage;
  /** Bulk request durations, for the metrics. */
  readonly meters?: Pick<CrawlMeters, 'bulk'>;
  /** The crawl's lease: every write waits for it, and none is sent once it is lost (fence.ts). */
  readonly fence?: WriteFence;
}

export function buildStores(o: StoresOptions): StoreSet {
  const { client, config, clock, log, onTransition, meters, fence } = o;
  const settings = o.settings ?? storeSettings(config);
  const outage = o.outage ?? new ClusterOutage(clock, log);
  const updater = createStatusUpdater(config, clock);
  /** A bulk writer of `index` with the settings of `type`: timed for the metrics, behind the fence. */
  const bulk = (type: 'status' | 'indexer', index: 'status' | 'content' | 'transitions') =>
    new BulkWriter(
      client,
      {
        ...(type === 'status' ? settings.statusBulk : settings.indexerBulk),
        ...(meters ? { onRequest: meters.bulk(index) } : {}),
        ...(fence ? { fence } : {}),
      },
      { clock, log, outage },
    );
  const statusBulk = bulk('status', 'status');
  const contentBulk = bulk('indexer', 'content');
  const contentIndex = settings.contentIndex;
  const due = buildDueWriter(client, config, { clock, log, fence });
  // When a page's content goes, its near-duplicates become due: one of them takes its place.
  const released = settings.releaseDuplicates ? (url: string) => due?.deleted(url) : undefined;
  const deleter = new ContentDeleter({ client, bulk: contentBulk, index: contentIndex }, log, {
    ...(released ? { onDelete: released } : {}),
    ...(fence ? { fence } : {}),
  });
  const transitionsName = settings.transitionsIndex;
  const transitionsBulk = transitionsName === '' ? undefined : bulk('indexer', 'transitions');
  const transitions =
    transitionsBulk &&
    new TransitionsIndex(
      transitionsBulk,
      { index: transitionsName, crawl: settings.statusIndex },
      clock,
      log,
    );
  const writer = new StatusWriter({
    bulk: statusBulk,
    index: settings.statusIndex,
    partition: settings.partition,
  });
  // The rules in front of the writer; each acknowledged transition published once, to the
  // transition log and index, the content deleter (ERROR, REDIRECTION) and the caller.
  const status = new StatusWrites({ rules: updater, store: writer, log });
  const transitionLog = TransitionLog.fromConfig(transitionLogger(log), config);
  status.subscribe(({ update }) => {
    transitionLog.write(update.transition);
    transitions?.record(update.transition);
    onTransition?.(update.transition);
    if (update.delete) deleter.delete(update.url);
  });
  const content = new ContentWriter({
    bulk: contentBulk,
    index: contentIndex,
    options: settings.indexer,
    deleter,
    clock,
    log,
  });
  const bulks = [contentBulk, statusBulk, ...(transitionsBulk ? [transitionsBulk] : [])];
  return {
    status,
    content,
    transfer: updater.transfer,
    deleter,
    due,
    async flush() {
      // A stored page queues its FETCHED status and an ERROR a deletion: flush until nothing is left.
      do {
        for (const b of bulks) await b.flush();
        await deleter.flush();
        await due?.flush();
      } while (bulks.some((b) => b.pending > 0) || status.pending > 0);
    },
    sendNow() {
      for (const b of bulks) b.sendNow();
    },
    close() {
      for (const b of bulks) b.close();
      deleter.close();
      due?.close();
    },
  };
}

/**
 * The OpenSearch ports the features use (app/feature.ts's CrawlBase), each made when a feature asks:
 * the render advisor's decisions in the hosts index, the page checks' store.
 */
export function featureStores(client: Client, config: Config, stores: StoreSet, log: Logger) {
  return {
    renderDecisions: () => new RenderDecisions(client, planHostsIndex(config), log),
    checksStore: () => checksStore(client, config, stores, log),
  };
}
