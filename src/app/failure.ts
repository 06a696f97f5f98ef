import { clusterFailure } from '../opensearch/failures.js';
import { CrawlerError } from '../util/errors.js';

/*
 * Kept apart from the use cases: cli/run.ts loads it for every command that fails, and it must not
 * load the OpenSearch client with it.
 */

/** A failure an operator can act on (the crawler's own, or the cluster's refusal), else undefined. */
export function knownFailure(e: unknown): CrawlerError | undefined {
  return e instanceof CrawlerError ? e : clusterFailure(e);
}
