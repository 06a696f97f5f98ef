import { ERROR_SOURCE, MD } from '../model/keys.js';
import type { Metadata } from '../model/metadata.js';
import type { StatusEvent } from '../model/status-updater.js';
import type { ContentStore } from './ports.js';

export interface IndexerStageDeps {
  readonly content: ContentStore;
  /**
   * Hands the page's own status event on (FETCHED, or ERROR for content the store refuses), to be
   * written once `linksStored` resolves, when given (see PageStage.settleAfter).
   */
  readonly emit: (event: StatusEvent, linksStored?: Promise<boolean>) => void;
  /** The content write failed for a reason that may pass: the URL is given up for now, unchanged. */
  readonly giveUp: (url: string) => void;
}

/**
 * Writes the content of a parsed page, then its FETCHED status: FETCHED is stored only after the
 * content store acknowledged the page (and the status store its outlinks), so a crash in between
 * fetches the page again rather than leaving a FETCHED URL without content (or links). A page the
 * store leaves out on purpose (noindex) is FETCHED without content; content refused as invalid
 * makes the page ERROR ("OpenSearch indexing").
 */
export class IndexerStage {
  constructor(private readonly deps: IndexerStageDeps) {}

  /**
   * Resolves once the content store accepted the page (backpressure). FETCHED goes on with
   * `linksStored`, when given: the page's outlinks still being stored.
   */
  index(
    parsed: {
      readonly url: string;
      readonly metadata: Metadata;
      readonly text: string;
      readonly markdown?: string;
    },
    linksStored?: Promise<boolean>,
  ): Promise<void> {
    const d = this.deps;
    const { url, metadata, text, markdown } = parsed;
    const page = markdown === undefined ? { url, metadata, text } : { url, metadata, text, markdown };
    return d.content.index(page, (outcome) => {
      switch (outcome.kind) {
        case 'indexed':
        case 'skipped': {
          d.emit({ url, status: 'FETCHED', metadata }, linksStored);
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
