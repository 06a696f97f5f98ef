import { MD } from '../model/keys.js';
import type { Status } from '../model/status.js';
import type { StatusEvent } from '../model/status-updater.js';
import { errorMessage } from '../util/errors.js';
import type { Logger } from '../util/log.js';
import type { CrawlMetrics } from './metrics.js';
import type { Acknowledged, CrawlObserver, UrlSource } from './ports.js';
import type { StatusWrites } from './status-writes.js';

/** A URL taken from the source and not released yet. */
interface Taken {
  /** Its status before this round, for the transition log. */
  readonly previous: Status | undefined;
  /** Its document's key, when the source gave one. */
  readonly key: string | undefined;
  /** Its own status event was handed to the status store. */
  settling: boolean;
}

/**
 * The crawl's ledger of the URLs it took from the source (the "nothing lost" contract): each gets
 * exactly one status event of its own (`settle`), whatever happens to it, and is released back to
 * the source once the store settled that event, or when it is given up unchanged (`release` without
 * an acknowledgement: a content write that failed, a stage that broke, the shutdown deadline). A
 * second event for the same URL is ignored. It also counts, by key, the URLs on their way to the
 * fetch queues (what the source is told a host holds, FetchDemand.waiting).
 */
export class TakenUrls {
  private readonly taken = new Map<string, Taken>();
  /** URLs handed to the fetcher (or adopted, about to be) and not started yet, by key. */
  private readonly waitingByKey = new Map<string, number>();

  constructor(
    private readonly parts: {
      readonly source: UrlSource;
      readonly status: Pick<StatusWrites, 'settle'>;
      readonly metrics: CrawlMetrics;
      readonly log: Logger;
      readonly observe?: CrawlObserver | undefined;
      /** True after the shutdown deadline: late outcomes of abandoned URLs write nothing. */
      readonly closed: () => boolean;
    },
  ) {}

  /** URLs taken and not released. */
  get size(): number {
    return this.taken.size;
  }

  /** True while the URL is taken: emitted by the source and its status not yet acknowledged. */
  holds(url: string): boolean {
    return this.taken.has(url);
  }

  /** The URLs taken and not released, in the order they were taken. */
  urls(): string[] {
    return [...this.taken.keys()];
  }

  /** A URL handed over by the source, with its status before this round and its key. */
  take(url: string, previous: Status | undefined, key: string | undefined): void {
    this.taken.set(url, { previous, key, settling: false });
  }

  /** URLs of the key on their way to the fetch queues or in them, not started. */
  waiting(key: string): number {
    return this.waitingByKey.get(key) ?? 0;
  }

  /** A URL of the key is on its way to the fetch queues. */
  waits(key: string | undefined): void {
    if (key !== undefined) this.waitingByKey.set(key, (this.waitingByKey.get(key) ?? 0) + 1);
  }

  /** A URL of the key left the fetch queues (its fetch starts, or it went back unfetched). */
  left(key: string | undefined): void {
    if (key === undefined) return;
    const n = (this.waitingByKey.get(key) ?? 1) - 1;
    if (n > 0) this.waitingByKey.set(key, n);
    else this.waitingByKey.delete(key);
    this.parts.source.short?.(key);
  }

  /** The event that settles a URL taken from the source. Resolves once the store accepted it. */
  async settle(event: StatusEvent): Promise<void> {
    const { log, metrics, observe, status } = this.parts;
    const taken = this.taken.get(event.url);
    if (!taken || taken.settling || this.parts.closed()) {
      log.debug(
        { url: event.url, status: event.status },
        'an outcome for a URL already settled or given up; ignored',
      );
      return;
    }
    taken.settling = true;
    // A URL deferred once still carries its persisted defer.cause when it is fetched later: that
    // fetch counts under its status, as only the typed field says this event is a deferral.
    const deferred = event.deferral?.cause;
    if (deferred !== undefined) metrics.defer(deferred);
    else {
      const cause =
        event.metadata.getFirstValue(MD.errorCause) ?? event.metadata.getFirstValue(MD.fetchException);
      metrics.status(event.status, cause);
      if (event.status === 'ERROR' || event.status === 'FETCH_ERROR') observe?.error(event.metadata);
    }
    try {
      const written = await status.settle({ ...event, previousStatus: taken.previous });
      written.done.then(
        (ack) => this.release(event.url, ack),
        (e: unknown) => this.failed(event.url, e),
      );
    } catch (e) {
      this.failed(event.url, e);
    }
  }

  /** The URL's fate is settled (`ack`: what was acknowledged) or given up: back to the source. */
  release(url: string, ack?: Acknowledged): void {
    if (this.taken.delete(url)) this.parts.source.settle(url, ack);
  }

  /** A bug in a stage (a store or parser broke its contract): the URL is given up, not lost. */
  failed(url: string, e: unknown): void {
    this.parts.log.error(
      { url, err: errorMessage(e) },
      'the crawl loop failed on this URL; it is given up unchanged and comes back when due',
    );
    this.release(url);
  }
}
