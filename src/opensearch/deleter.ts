import type { Client } from '@opensearch-project/opensearch';
import { errorMessage } from '../util/errors.js';
import type { Logger } from '../util/log.js';
import type { BulkWriter } from './bulk-writer.js';
import { NO_FENCE, type WriteFence } from './fence.js';
import { documentId } from './status-doc.js';

/** URLs waiting for their delete-by-query at most; beyond, they are left to the reconcile. */
const MAX_PENDING = 10_000;
/** The longest wait between two tries of a failed delete-by-query. */
const MAX_BACKOFF_MS = 60_000;

export interface ContentDeleterOptions {
  /** How often pending URLs go out in one delete-by-query. */
  readonly intervalMs?: number;
  /** Hears of each URL (its near-duplicates become due). */
  readonly onDelete?: (url: string) => void;
  /** The crawl's lease: nothing is deleted unless it admits it. */
  readonly fence?: WriteFence;
}

/**
 * Removes the content documents of URLs that turned ERROR (or REDIRECTION, or noindex). A page may
 * have been indexed under its canonical URL's id, so besides the delete by id, the URLs are also
 * removed by their `url` field, batched into one delete-by-query every few seconds. Deleting what
 * is not there is fine. Neither is dropped on a failure: the delete by id goes through the bulk
 * writer without an attempt limit, and a failed delete-by-query keeps its URLs and is tried again,
 * with a doubling wait. What a crash loses between a status write and its deletion, the reconcile
 * (reconcile.ts) finds later.
 */
export class ContentDeleter {
  private pending = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  /** Delete-by-query failures in a row: they set the wait before the next try. */
  private failures = 0;
  private closed = false;
  private readonly intervalMs: number;
  /** URLs left to the reconcile because MAX_PENDING were waiting already (each counted, the first of a run logged). */
  private droppedCount = 0;
  private dropping = false;

  private readonly client: Client;
  private readonly bulk: BulkWriter;
  private readonly index: string;

  /** `target`: the content index `index`, written through `bulk` and searched through `client`. */
  constructor(
    target: { readonly client: Client; readonly bulk: BulkWriter; readonly index: string },
    private readonly log: Logger,
    private readonly options: ContentDeleterOptions = {},
  ) {
    this.client = target.client;
    this.bulk = target.bulk;
    this.index = target.index;
    this.intervalMs = options.intervalMs ?? 2000;
  }

  delete(url: string): void {
    this.options.onDelete?.(url);
    void this.bulk
      .add({ op: 'delete', index: this.index, id: documentId(url), untilWritten: true })
      .then((r) => {
        // Only a refusal no retry can change (a 4xx) ends here; the reconcile removes it later.
        if (!r.ok && !r.closed)
          this.log.warn(
            { url, status: r.status, err: r.error },
            'content deletion refused; the reconcile removes it later',
          );
      });
    if (!this.keep(url)) return;
    if (this.pending.size >= 1000 && this.failures === 0) void this.flushQuery();
    else this.schedule(this.intervalMs);
  }

  /** URLs whose delete-by-query was left to the reconcile (too many pending); the delete by id still went. */
  get dropped(): number {
    return this.droppedCount;
  }

  /**
   * Adds a URL to the next delete-by-query; false when MAX_PENDING wait already: then it is counted
   * and left to the reconcile, and the first of a run of such URLs says so in one line.
   */
  private keep(url: string): boolean {
    if (this.pending.size < MAX_PENDING) {
      this.pending.add(url);
      this.dropping = false;
      return true;
    }
    this.droppedCount++;
    if (!this.dropping) {
      this.dropping = true;
      this.log.warn(
        { pending: this.pending.size, dropped: this.droppedCount },
        `content deletion by url: ${MAX_PENDING} URLs wait already (the cluster is slow or failing); ` +
          'further ones are left to the reconcile (opensearch.indexer.reconcile.interval), their delete by id still sent',
      );
    }
    return false;
  }

  /**
   * Deletes one content document by its id, through the bulk writer (retried, fenced); resolves
   * true when it existed. For the reconcile, which counts what it removed.
   */
  async remove(id: string): Promise<boolean> {
    const r = await this.bulk.add({ op: 'delete', index: this.index, id, untilWritten: true });
    return r.ok && r.status < 300;
  }

  /** Sends what is pending and waits for it (one try: a failure is tried again later). */
  async flush(): Promise<void> {
    await this.bulk.flush();
    await this.flushQuery();
  }

  close(): void {
    if (this.droppedCount > 0 && !this.closed)
      this.log.info(
        { dropped: this.droppedCount },
        `content deletion by url: ${this.droppedCount} URLs were left to the reconcile (too many pending)`,
      );
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(ms: number): void {
    if (this.closed) return;
    this.timer ??= setTimeout(() => void this.flushQuery(), ms);
  }

  private async flushQuery(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
    if (this.pending.size === 0 || this.closed) return;
    const urls = [...this.pending];
    this.pending = new Set();
    this.running = this.query(urls);
    await this.running;
  }

  private async query(urls: string[]): Promise<void> {
    const fence = this.options.fence ?? NO_FENCE;
    const admitted = fence.admit();
    // The lease was lost: another crawl owns these URLs now (and its reconcile their content).
    if (admitted !== true && !(await admitted)) return;
    try {
      await this.client.deleteByQuery({
        index: this.index,
        conflicts: 'proceed',
        refresh: false,
        body: { query: { terms: { url: urls } } },
      });
      if (this.failures > 0) this.log.info('content deletion by url works again');
      this.failures = 0;
    } catch (e) {
      // Kept and tried again (as many as fit; the reconcile finds the rest).
      for (const u of urls) this.keep(u);
      const wait = Math.min(MAX_BACKOFF_MS, this.intervalMs * 2 ** Math.min(this.failures, 10));
      if (this.failures++ === 0)
        this.log.warn(
          { urls: urls.length, err: errorMessage(e) },
          `content deletion by url failed; trying again in ${Math.round(wait / 1000)} s, then less often`,
        );
      this.schedule(wait);
    }
  }
}
