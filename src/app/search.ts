import type { Config } from '../config/schema.js';
import { connect } from '../opensearch/client.js';
import { type SearchRequest, type SearchResult, searchContent } from '../opensearch/content-search.js';
import type { Logger } from '../util/log.js';

/*
 * `crawler search`: the content index of the crawl the config names, read only (no agent name, no
 * lease, no refresh: a page indexed in the last second may be missing, as in Dashboards).
 */

// The query as sent (--explain) and the highlight marks the snippets carry, for the command's output.
export { HIGHLIGHT, searchBody } from '../opensearch/content-search.js';

/** Results beyond this are out of OpenSearch's reach by from/size (index.max_result_window). */
export const MAX_RESULT_WINDOW = 10_000;

export async function searchCrawl(
  config: Config,
  log: Logger,
  request: SearchRequest,
): Promise<SearchResult> {
  const { client } = await connect(config, log, 'indexer');
  try {
    return await searchContent(client, config['opensearch.indexer.index.name'], request);
  } finally {
    await client.close();
  }
}
