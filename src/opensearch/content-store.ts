import type { Metadata } from '../model/metadata.js';
import type { ContentWrite } from '../pipeline/ports.js';
import type { Clock } from '../util/clock.js';
import type { Logger } from '../util/log.js';
import type { BulkWriter } from './bulk-writer.js';
import {
  contentDocument,
  type IndexerOptions,
  indexable,
  isNoIndex,
  isSkippedDuplicate,
  parseMapping,
} from './content-doc.js';
import type { ContentDeleter } from './deleter.js';

export interface ContentWriterDeps {
  readonly bulk: BulkWriter;
  readonly index: string;
  readonly options: IndexerOptions;
  readonly deleter: ContentDeleter;
  readonly clock: Clock;
  readonly log: Logger;
}

/**
 * Writes the content documents of parsed pages (the pipeline's ContentStore). A page that is
 * noindex, that `indexer.md.filter` leaves out, or a near-duplicate with `dedup.mode` skip, is not
 * written; an earlier document of a noindex page or a near-duplicate is removed. A document OpenSearch refuses as invalid (400) is `rejected`; any other failure
 * (after the bulk writer's retries) is `failed`.
 */
export class ContentWriter {
  private readonly mapping;

  constructor(private readonly deps: ContentWriterDeps) {
    this.mapping = parseMapping(deps.options.mdMapping);
  }

  async index(
    page: {
      readonly url: string;
      readonly metadata: Metadata;
      readonly text: string;
      readonly markdown?: string;
    },
    settled: (outcome: ContentWrite) => void,
  ): Promise<void> {
    const d = this.deps;
    const { url, metadata, text } = page;
    const duplicate = isSkippedDuplicate(metadata, d.options);
    if (duplicate || !indexable(metadata, d.options)) {
      // A near-duplicate may have been indexed while it was a canonical: its document goes too.
      if (duplicate || isNoIndex(metadata)) d.deleter.delete(url);
      settled({ kind: 'skipped' });
      return;
    }
    await d.bulk.ready();
    const { id, doc } = contentDocument(
      { url, metadata, text, markdown: page.markdown },
      d.options,
      this.mapping,
      d.clock.now(),
    );
    void d.bulk.add({ op: 'index', index: d.index, id, doc }).then((result) => {
      if (result.ok) {
        settled({ kind: 'indexed' });
      } else if (result.status === 400) {
        settled({ kind: 'rejected', error: result.error });
      } else {
        // Given up at shutdown: counted in the crawl's one line of what was not written.
        if (!result.closed)
          d.log.warn(
            { url, httpStatus: result.status, err: result.error },
            'content write failed; the page comes back when due',
          );
        settled({ kind: 'failed', status: result.status, error: result.error });
      }
    });
  }
}
