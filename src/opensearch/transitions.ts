import type { TransitionRecord } from '../model/transition.js';
import type { Clock } from '../util/clock.js';
import { errorMessage } from '../util/errors.js';
import type { Logger } from '../util/log.js';
import type { BulkWriter } from './bulk-writer.js';
import { encodeMetadataKey } from './status-doc.js';

/**
 * The document of one transition: the record, its host, the crawl (its status index: a transitions
 * index may be shared by several crawls) and a timestamp for Dashboards.
 */
export function transitionDocument(
  record: TransitionRecord,
  now: number,
  crawl: string,
): Record<string, unknown> {
  const metadata: Record<string, readonly string[]> = {};
  for (const [k, v] of Object.entries(record.metadata)) metadata[encodeMetadataKey(k)] = v;
  let host = '';
  try {
    host = new URL(record.url).hostname;
  } catch {
    // A malformed URL's record keeps an empty host.
  }
  return { ...record, metadata, host, crawl, timestamp: new Date(now).toISOString() };
}

/**
 * Writes transition records to `status.transitions.index.name`, best effort: a record that cannot be
 * written is logged and dropped, because the transition log is a view of the crawl, not its state.
 */
export class TransitionsIndex {
  constructor(
    private readonly bulk: BulkWriter,
    /** The transitions index, and the crawl's name: its status index (opensearch.status.index.name). */
    private readonly target: { readonly index: string; readonly crawl: string },
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {}

  record(record: TransitionRecord): void {
    void this.bulk
      .add({
        op: 'index',
        index: this.target.index,
        id: '',
        doc: transitionDocument(record, this.clock.now(), this.target.crawl),
      })
      .then((r) => {
        if (!r.ok && !r.closed)
          this.log.warn({ url: record.url, err: r.error }, 'transition record not written');
      })
      .catch((e: unknown) => this.log.warn({ err: errorMessage(e) }, 'transition record not written'));
  }
}
