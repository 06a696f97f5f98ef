import type { Client } from '@opensearch-project/opensearch';
import { errorMessage } from '../util/errors.js';
import type { Logger } from '../util/log.js';
import type { BulkWriter } from './bulk-writer.js';
import { documentId } from './status-doc.js';

/**
 * Removes the content documents of URLs that turned ERROR (or REDIRECTION, or noindex). A page may
 * have been indexed under its canonical URL's id, so besides the delete by id, the URLs are also
 * removed by their `url` field, batched into one delete-by-query every few seconds. Deleting what
 * is not there is fine. `onDelete` hears of each URL (its near-duplicates become due).
 */
export class ContentDeleter {
  private pending = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly client: Client,
    private readonly bulk: BulkWriter,
    private readonly index: string,
    private readonly log: Logger,
    private readonly intervalMs = 2000,
    private readonly onDelete?: (url: string) => void,
  ) {}

  delete(url: string): void {
    this.onDelete?.(url);
    void this.bulk.add({ op: 'delete', index: this.index, id: documentId(url) }).then((r) => {
      if (!r.ok && !r.closed)
        this.log.warn({ url, status: r.status, err: r.error }, 'content deletion failed');
    });
    this.pending.add(url);
    if (this.pending.size >= 1000) void this.flushQuery();
    else this.timer ??= setTimeout(() => void this.flushQuery(), this.intervalMs);
  }

  /** Sends what is pending and waits for it. */
  async flush(): Promise<void> {
    await this.bulk.flush();
    await this.flushQuery();
  }

  close(): void {
    clearTimeout(this.timer);
  }

  private async flushQuery(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
    if (this.pending.size === 0) return;
    const urls = [...this.pending];
    this.pending = new Set();
    this.running = (async () => {
      try {
        await this.client.deleteByQuery({
          index: this.index,
          conflicts: 'proceed',
          refresh: false,
          body: { query: { terms: { url: urls } } },
        });
      } catch (e) {
        this.log.warn({ urls: urls.length, err: errorMessage(e) }, 'content deletion by url failed');
      }
    })();
    await this.running;
  }
}
