import type { StatusEvent, StatusUpdater } from '../model/status-updater.js';
import type { TransitionLog, TransitionRecord } from '../model/transition.js';
import type { Acknowledged, CreatedUrl, StatusStoreStats } from '../pipeline/ports.js';
import { errorMessage } from '../util/errors.js';
import type { Logger } from '../util/log.js';
import type { BulkWriter } from './bulk-writer.js';
import type { ContentDeleter } from './deleter.js';
import { documentId, type PartitionMode, partitionKey, toStatusSource } from './status-doc.js';

export interface StatusWriterDeps {
  readonly updater: StatusUpdater;
  readonly bulk: BulkWriter;
  readonly index: string;
  readonly partition: PartitionMode;
  readonly transitions: TransitionLog;
  readonly deleter: ContentDeleter;
  readonly log: Logger;
  /** Optional sink for the transitions index. */
  readonly recordTransition?: (record: TransitionRecord) => void;
}

/**
 * The only writer of the status index during a crawl (the pipeline's StatusStore): applies the
 * rules to each status event and writes the result, op_type create for DISCOVERED (an existing
 * document wins) and index for the rest, deferrals of DISCOVERED URLs included. A URL counts as done only once OpenSearch acknowledged its
 * write; then it enters the DISCOVERED cache, its transition is logged, and ERROR (and REDIRECTION)
 * remove its content.
 */
export class StatusWriter {
  readonly stats: StatusStoreStats = { written: 0, existing: 0, skippedCached: 0, failed: 0 };

  private pendingWrites = 0;
  private found = 0;
  private onCreated: ((created: CreatedUrl) => void) | undefined;
  private onTransition: ((record: TransitionRecord) => void) | undefined;

  constructor(private readonly deps: StatusWriterDeps) {}

  /**
   * Writes one event. Resolves once the write is accepted by the bulk writer (backpressure), not
   * when it is acknowledged; `settled` is called once it is (true, with what was acknowledged when
   * something was written), or failed for good (false). `settled` marks the event that settles a URL
   * the spout emitted: its failure is logged as such. `foundSettled` (a found link's write) is called
   * once it settled either way, with true when it was stored (or had nothing to write).
   */
  async write(
    event: StatusEvent,
    settled?: (written: boolean, ack?: Acknowledged) => void,
    foundSettled?: (written: boolean) => void,
  ): Promise<void> {
    const d = this.deps;
    const found = settled === undefined;
    if (found) this.found++;
    const done = (ok: boolean, ack?: Acknowledged) => {
      if (found) {
        this.found--;
        foundSettled?.(ok);
      }
      settled?.(ok, ack);
    };
    await d.bulk.ready();
    const update = d.updater.apply(event);
    if (update === 'skipped-cached') {
      this.stats.skippedCached++;
      done(true);
      return;
    }
    const key = partitionKey(update.url, d.partition, update.fullMetadata);
    const doc = toStatusSource(update.url, update.status, update.metadata, update.nextFetchDate, key);
    this.pendingWrites++;
    void d.bulk
      .add({
        op: update.status === 'DISCOVERED' && !update.storedAsIs ? 'create' : 'index',
        index: d.index,
        id: documentId(update.url),
        routing: key,
        doc,
      })
      .then((result) => {
        try {
          if (result.ok) {
            this.stats.written++;
            d.updater.acknowledged(update.url);
            const existed = update.status === 'DISCOVERED' && !update.storedAsIs && result.status === 409;
            if (existed) this.stats.existing++;
            // A DISCOVERED that lost to an existing document changed nothing: no transition to log.
            if (!existed) {
              d.transitions.write(update.transition);
              d.recordTransition?.(update.transition);
              this.onTransition?.(update.transition);
            }
            if (update.delete) d.deleter.delete(update.url);
            // 201 on create: the URL is new to the index, so no spout can have emitted it yet.
            const created = result.status === 201 && update.status === 'DISCOVERED' && !update.storedAsIs;
            if (created && this.onCreated && update.nextFetchDate !== null) {
              const { url, metadata, nextFetchDate } = update;
              this.onCreated({ url, key, metadata, nextFetchDate });
            }
          } else if (result.closed) {
            // Shutdown gave it up: the crawl counts and reports these in one line.
            this.stats.failed++;
          } else {
            this.stats.failed++;
            d.log.warn(
              { url: update.url, status: update.status, httpStatus: result.status, err: result.error },
              settled
                ? 'status update failed; the URL keeps its previous state and comes back when due'
                : 'status update of a discovered URL failed; the page that links to it is given up ' +
                    'unchanged and fetched again when due, so the link is found again',
            );
          }
        } catch (e) {
          // What follows an acknowledged write (transition log, deletion, adoption) broke: a bug,
          // logged rather than left to crash the process as an unhandled rejection.
          d.log.error(
            { url: update.url, status: update.status, err: errorMessage(e) },
            'after an acknowledged status write; the write stands',
          );
        } finally {
          // Whatever the logging above did, the URL is settled and the write no longer pending.
          this.pendingWrites--;
          done(
            result.ok,
            result.ok ? { version: result.version, nextFetchDate: update.nextFetchDate, key } : undefined,
          );
        }
      });
  }

  /** See StatusStore.skipDiscovered: the status rules' DISCOVERED cache, by URL alone. */
  skipDiscovered(url: string): boolean {
    if (!this.deps.updater.knowsDiscovered(url)) return false;
    this.stats.skippedCached++;
    return true;
  }

  /**
   * See StatusStore.watchCreated: `listener` sees each DISCOVERED document this writer created, once
   * OpenSearch acknowledged it (not the ones that found the URL known). One listener; must not throw.
   */
  watchCreated(listener: (created: CreatedUrl) => void): void {
    this.onCreated = listener;
  }

  /**
   * See StatusStore.watchTransitions: `listener` sees each transition this writer wrote, once
   * OpenSearch acknowledged it (as the transition log does). One listener; must not throw.
   */
  watchTransitions(listener: (record: TransitionRecord) => void): void {
    this.onTransition = listener;
  }

  /** Writes accepted and not yet settled. */
  get pending(): number {
    return this.pendingWrites;
  }

  /** See StatusStore.pendingFound. */
  get pendingFound(): number {
    return this.found;
  }
}
