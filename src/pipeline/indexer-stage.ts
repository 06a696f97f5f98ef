import { ERROR_SOURCE, MD } from '../model/keys.js';
import type { Metadata } from '../model/metadata.js';
import type { StatusEvent } from '../model/status-updater.js';
import type { ContentStore } from './ports.js';

export interface IndexerStageDeps {
  readonly content: ContentStore;
  /** Hands the page's own status event on (FETCHED, or ERROR for content the store refuses). */
  readonly emit: (event: StatusEvent) => void;
  /** The content write failed for a reason that may pass: the URL is given up for now, unchanged. */
  readonly giveUp: (url: string) => void;
}

/**
 * Writes the content of a parsed page, then its FETCHED status: FETCHED is stored only after the
 * content store acknowledged the page (and the status store its outlinks), so a crash in between
 * fetches the page again rather than leaving a FETCHED URL without content (or links). A page the store leaves out on purpose (noindex) is FETCHED
 * without content; content refused as invalid makes the page ERROR ("OpenSearch indexing").
 */
export class IndexerStage {
  constructor(private readonly deps: IndexerStageDeps) {}

  /**
   * Resolves once the content store accepted the page (backpressure). The status waits for
   * `linksWritten` too, when given: the page's outlinks still being stored (false: one was not, and
   * the page is given up, to be fetched again when due and its links found again).
   */
  index(url: string, metadata: Metadata, text: string, linksWritten?: Promise<boolean>): Promise<void> {
    const d = this.deps;
    return d.content.index({ url, metadata, text }, (outcome) => {
      switch (outcome.kind) {
        case 'indexed':
        case 'skipped': {
          const event: StatusEvent = { url, status: 'FETCHED', metadata };
          if (linksWritten) void linksWritten.then((stored) => (stored ? d.emit(event) : d.giveUp(url)));
          else d.emit(event);
          return;
        }
        case 'rejected': {
          const md = metadata.copy();
          md.setValue(MD.errorSource, ERROR_SOURCE.indexing);
          md.setValue(MD.errorMessage, `invalid content: ${outcome.error}`);
          d.emit({ url, status: 'ERROR', metadata: md });
          return;
        }
        case 'failed':
          d.giveUp(url);
      }
    });
  }
}
