import type { Logger } from '../util/log.js';
import type { Stores } from './crawl-parts.js';
import type { CrawlMetrics } from './metrics.js';
import type { TakenUrls } from './taken.js';

/** What a drain waits for, in order: fetches, then pages, then the writes they made. */
export interface Draining {
  readonly fetcher: { idle(): Promise<void>; close(): void };
  readonly pages: { idle(): Promise<void>; clear(): void };
  readonly stores: Pick<Stores, 'flush' | 'status'>;
  readonly taken: TakenUrls;
  readonly metrics: CrawlMetrics;
  readonly log: Logger;
  /** Called at the deadline, before anything is given up: late outcomes write nothing from then. */
  readonly close: () => void;
}

/**
 * The end of a run: the fetches in flight finish, their pages are parsed and indexed, and every
 * pending write is flushed, within `deadlineMs`. Past the deadline (OpenSearch down, say) what is
 * left is given up unchanged: each URL still taken is released without an acknowledgement (it keeps
 * its previous state and comes back when due), counted in `metrics.abandoned` with the discovered
 * links not written, and one warning says how many. The fetcher is closed either way.
 */
export async function drain(d: Draining, deadlineMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), deadlineMs);
  });
  const done = (async () => {
    await d.fetcher.idle();
    await d.pages.idle();
    await d.stores.flush();
    return 'done' as const;
  })();
  const outcome = await Promise.race([done, deadline]);
  clearTimeout(timer);
  d.fetcher.close();
  if (outcome === 'done') return;
  d.close();
  d.pages.clear();
  const urls = d.taken.urls();
  const discovered = d.stores.status.pendingFound;
  for (const url of urls) d.taken.release(url);
  d.metrics.abandoned += urls.length;
  d.metrics.discoveredNotWritten += discovered;
  d.log.warn(
    { notWritten: urls.length, discoveredNotWritten: discovered },
    `shutdown deadline reached: ${urls.length} status updates of URLs in flight were not written ` +
      '(those URLs keep their previous state and come back when due)' +
      (discovered > 0 ? `, nor ${discovered} newly discovered links` : ''),
  );
}
