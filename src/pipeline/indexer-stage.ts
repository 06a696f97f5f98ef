import { ERROR_SOURCE, MD } from '../model/keys.js';
import type { Metadata } from '../model/metadata.js';
import type { Status } from '../model/status.js';
import type { StatusEvent } from '../model/status-updater.js';
import type { BulkWriter } from '../opensearch/bulk-writer.js';
import { contentDocument, type IndexerOptions, indexable, parseMapping } from '../opensearch/content-doc.js';
import type { ContentDeleter } from '../opensearch/deleter.js';
import type { Clock } from '../util/clock.js';
import type { Logger } from '../util/log.js';

export interface IndexerStageDeps {
  readonly bulk: BulkWriter;
  readonly index: string;
  readonly options: IndexerOptions;
  readonly deleter: ContentDeleter;
  readonly clock: Clock;
  readonly log: Logger;
  /** Hands the page's own status event on (FETCHED, or ERROR for content OpenSearch refuses). */
  readonly emit: (event: StatusEvent) => Promise<void>;
  /** The content write failed for a reason that may pass: the URL is given up for now, unchanged. */
  readonly giveUp: (url: string) => void;
}

/**
 * Writes the content document of a parsed page, then its FETCHED status: FETCHED is stored only
 * after OpenSearch acknowledged the content, so a crash in between fetches the page again rather
 * than leaving a FETCHED URL without content. A page that is noindex (or filtered out by
 * indexer.md.filter) is FETCHED without content, and an earlier content document of a noindex page
 * is removed.
 */
export class IndexerStage {
  private readonly mapping;

  constructor(private readonly deps: IndexerStageDeps) {
    this.mapping = parseMapping(deps.options.mdMapping);
  }

  async index(url: string, metadata: Metadata, text: string, previousStatus?: Status): Promise<void> {
    const d = this.deps;
    const fetched: StatusEvent = { url, status: 'FETCHED', metadata, previousStatus };
    if (!indexable(metadata, d.options)) {
      if (metadata.getFirstValue(MD.noIndex) === 'true') d.deleter.delete(url);
      await d.emit(fetched);
      return;
    }
    await d.bulk.ready();
    const { id, doc } = contentDocument(url, metadata, text, d.options, this.mapping, d.clock.now());
    void d.bulk.add({ op: 'index', index: d.index, id, doc }).then(async (result) => {
      if (result.ok) {
        await d.emit(fetched);
      } else if (result.status === 400) {
        const md = metadata.copy();
        md.setValue(MD.errorSource, ERROR_SOURCE.indexing);
        md.setValue(MD.errorMessage, `invalid content: ${result.error}`);
        await d.emit({ url, status: 'ERROR', metadata: md, previousStatus });
      } else {
        d.log.warn(
          { url, httpStatus: result.status, err: result.error },
          'content write failed; the page comes back when due',
        );
        d.giveUp(url);
      }
    });
  }
}
