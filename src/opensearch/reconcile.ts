import type { Client } from '@opensearch-project/opensearch';
import type { Clock } from '../util/clock.js';
import { errorMessage } from '../util/errors.js';
import type { Logger } from '../util/log.js';
import { errorType } from './outage.js';
import { documentId } from './status-doc.js';

/** The statuses whose URLs have no content document. */
const GONE_STATUSES = ['ERROR', 'REDIRECTION'];

export interface ReconcileOptions {
  readonly statusIndex: string;
  readonly contentIndex: string;
  /** This process's status shards (its share), or undefined for all. */
  readonly shards?: readonly number[];
  /** Status documents read per page. */
  readonly batch?: number;
  /** Between the start of two passes, ms; 0: no pass at all. */
  readonly intervalMs: number;
  /** True while the crawl holds the URL (fetched, parsed, its status not yet acknowledged). */
  readonly busy: (url: string) => boolean;
}

interface Hit {
  readonly _id: string;
  readonly _routing?: string;
  readonly _source?: { url?: string; status?: string };
  readonly sort?: unknown[];
}

/**
 * Finds content documents whose URL is ERROR or REDIRECTION in the status index and removes them:
 * the deletion that follows such a status write is lost when the process dies between the two.
 * A pass pages through the share's ERROR and REDIRECTION status documents (`batch` at a time, in
 * `url` order), looks their URLs up in the content index by its `url` field (which also finds a page
 * stored under its canonical URL's id) and deletes what it finds through the content bulk writer
 * (so the lease fences it and a temporary failure is retried). It runs at start-up and then every
 * `intervalMs`, and logs how many it removed.
 *
 * A page being crawled again must keep the content it is writing now, so a document is deleted only
 * when its URL was not held by the crawl when the batch began, its `fetchTime` is older than that,
 * and its status document still says ERROR or REDIRECTION when read again just before (a real-time
 * get, which sees writes the search does not yet). Only the process that holds the share's lease
 * writes its URLs, so a page neither held then nor fetched since has nothing in flight.
 */
export class ContentReconciler {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;
  private stopped = false;
  /** Documents removed by all passes so far. */
  removed = 0;

  private readonly clock: Clock;
  private readonly log: Logger;

  constructor(
    private readonly client: Client,
    /** Deletes one content document by id (the deleter's, through the bulk writer); true if it was there. */
    private readonly remove: (id: string) => Promise<boolean>,
    private readonly options: ReconcileOptions,
    deps: { readonly clock: Clock; readonly log: Logger },
  ) {
    this.clock = deps.clock;
    this.log = deps.log;
  }

  /** Starts the start-up pass now and the next ones every `intervalMs` (none when it is 0). */
  start(): void {
    if (this.options.intervalMs <= 0) return;
    this.running = this.pass();
    this.timer = setInterval(() => {
      this.running ??= this.pass();
    }, this.options.intervalMs);
    this.timer.unref();
  }

  /** No pass starts any more; the one running stops after its current page. */
  async close(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
  }

  /** One pass over the share; resolves to the documents it removed. Never throws. */
  async pass(): Promise<number> {
    let removed = 0;
    try {
      let after: unknown[] | undefined;
      while (!this.stopped) {
        const page = await this.statusPage(after);
        if (page.length === 0) break;
        removed += await this.reconcile(page);
        after = page[page.length - 1]!.sort;
        if (page.length < this.batch) break;
      }
      this.removed += removed;
      // A pass that found nothing to remove (every pass of a new crawl) is no news but at debug.
      this.log[removed > 0 ? 'info' : 'debug'](
        { removed },
        `reconcile: removed ${removed} content document${removed === 1 ? '' : 's'} whose URL is ERROR or ` +
          'REDIRECTION in the status index (opensearch.indexer.reconcile.interval)',
      );
    } catch (e) {
      // An index not created yet (a crawl given its client, as tests do) holds nothing to reconcile.
      if (errorType(e) === 'index_not_found_exception') return removed;
      this.log.warn(
        { removed, err: errorMessage(e) },
        'reconcile of the content index with the status index stopped; the next pass tries again',
      );
    } finally {
      this.running = undefined;
    }
    return removed;
  }

  private get batch(): number {
    return this.options.batch ?? 500;
  }

  private async statusPage(after: unknown[] | undefined): Promise<Hit[]> {
    const { statusIndex, shards } = this.options;
    const res = await this.client.search({
      index: statusIndex,
      ...(shards ? { preference: `_shards:${shards.join(',')}` } : {}),
      body: {
        size: this.batch,
        _source: ['url'],
        query: { terms: { status: GONE_STATUSES } },
        sort: [{ url: 'asc' }],
        ...(after ? { search_after: after } : {}),
      } as never,
    });
    return (res.body as unknown as { hits: { hits: Hit[] } }).hits.hits;
  }

  /** Removes the content of one page of ERROR/REDIRECTION URLs; resolves to how many went. */
  private async reconcile(page: readonly Hit[]): Promise<number> {
    const began = this.clock.now();
    const routing = new Map<string, string | undefined>();
    for (const h of page) {
      const url = h._source?.url;
      if (url !== undefined && !this.options.busy(url)) routing.set(url, h._routing);
    }
    if (routing.size === 0) return 0;
    const found = await this.client.search({
      index: this.options.contentIndex,
      body: {
        size: routing.size * 2,
        _source: ['url'],
        query: {
          bool: {
            filter: [
              { terms: { url: [...routing.keys()] } },
              { range: { fetchTime: { lt: new Date(began).toISOString() } } },
            ],
          },
        },
      } as never,
    });
    const docs = (found.body as unknown as { hits: { hits: Hit[] } }).hits.hits;
    if (docs.length === 0) return 0;
    const stillGone = await this.stillGone([...new Set(docs.map((d) => d._source!.url!))], routing);
    const results = await Promise.all(
      docs.filter((d) => stillGone.has(d._source!.url!)).map((d) => this.remove(d._id)),
    );
    return results.filter(Boolean).length;
  }

  /** Of these URLs, those whose status document says ERROR or REDIRECTION right now (real time). */
  private async stillGone(
    urls: readonly string[],
    routing: ReadonlyMap<string, string | undefined>,
  ): Promise<Set<string>> {
    const res = await this.client.mget({
      index: this.options.statusIndex,
      body: {
        docs: urls.map((url) => {
          const r = routing.get(url);
          return { _id: documentId(url), _source: ['url', 'status'], ...(r ? { routing: r } : {}) };
        }),
      },
    });
    const docs = (res.body as unknown as { docs: { found?: boolean; _source?: Hit['_source'] }[] }).docs;
    return new Set(
      docs
        .filter((d) => d.found && GONE_STATUSES.includes(d._source?.status ?? ''))
        .map((d) => d._source!.url!),
    );
  }
}
