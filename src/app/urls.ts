import type { Config } from '../config/schema.js';
import { connect } from '../opensearch/client.js';
import { decodeAfter, type ListedUrl, type UrlSelection, urlPage } from '../opensearch/url-list.js';
import type { Logger } from '../util/log.js';

/*
 * `crawler urls`: the status index read page by page (search_after), read only: no agent name, no
 * lease, no refresh (an update of the last second may not show yet).
 */

// A listing's --after TOKEN read back into the position it names (undefined when it names none).
export { decodeAfter } from '../opensearch/url-list.js';

export interface UrlListing {
  readonly total: number;
  /** Where the page after the last one shown starts; absent when nothing is left. */
  readonly next?: string;
}

/**
 * Hands each page of URLs to `paging.onPage`, one page from `after` (sort values) unless `all`, in
 * which case every page to the end.
 */
export async function listCrawlUrls(
  config: Config,
  log: Logger,
  selection: UrlSelection,
  paging: { size: number; after?: unknown[]; all: boolean; onPage: (urls: ListedUrl[]) => void },
): Promise<UrlListing> {
  const { onPage } = paging;
  const { client } = await connect(config, log);
  try {
    const index = config['opensearch.status.index.name'];
    let after = paging.after;
    for (;;) {
      const page = await urlPage(client, index, selection, { size: paging.size, after });
      onPage(page.urls);
      if (!paging.all || page.next === undefined)
        return { total: page.total, ...(page.next ? { next: page.next } : {}) };
      after = decodeAfter(page.next);
    }
  } finally {
    await client.close();
  }
}
