import type { Client } from '@opensearch-project/opensearch';
import type { Config } from '../config/schema.js';
import type { ChecksStore } from '../dedup/build.js';
import { contentUrl, indexable } from '../opensearch/content-doc.js';
import { DedupIndex } from '../opensearch/dedup-index.js';
import type { ContentDeleter } from '../opensearch/deleter.js';
import { DueWriter } from '../opensearch/due.js';
import type { WriteFence } from '../opensearch/fence.js';
import { documentId } from '../opensearch/status-doc.js';
import type { Clock } from '../util/clock.js';
import type { Logger } from '../util/log.js';
import { indexerOptions } from './options.js';

/*
 * The OpenSearch side of near-duplicate and soft-404 detection (README: Duplicates and soft 404s;
 * the checks themselves are built by src/dedup/build.ts): the writer that makes near-duplicates due
 * when their canonical goes, and the store the checks look candidates and profiles up in.
 */

/**
 * The status-index writer that makes the near-duplicates of a deleted page due (the content
 * deleter calls it for every deletion), or undefined with `dedup.mode: off`.
 */
export function buildDueWriter(
  client: Client,
  config: Config,
  deps: { readonly clock: Clock; readonly log: Logger; readonly fence?: WriteFence | undefined },
): DueWriter | undefined {
  if (config['dedup.mode'] === 'off' && !config['soft404.enabled']) return undefined;
  const { clock, log, fence } = deps;
  return new DueWriter(
    client,
    config['opensearch.status.index.name'],
    { clock, log },
    { intervalMs: 2000, fence },
  );
}

/** The checks' store over the content, hosts and status indices; undefined without a due writer. */
export function checksStore(
  client: Client,
  config: Config,
  stores: { readonly due: DueWriter | undefined; readonly deleter: Pick<ContentDeleter, 'delete'> },
  log: Logger,
): ChecksStore | undefined {
  const { due, deleter } = stores;
  if (!due) return undefined;
  const index = new DedupIndex(
    client,
    {
      content: config['opensearch.indexer.index.name'],
      hosts: config['opensearch.hosts.index.name'],
    },
    (name) =>
      log.warn(
        { index: name },
        'content index made before the near-duplicate signatures had doc values: its lookups read each candidate from _source, which costs OpenSearch far more CPU; to speed them up, _reindex it into an index made from mappings/content.json and point opensearch.indexer.index.name at that',
      ),
  );
  const canonicalKey = config['indexer.canonical.name'];
  const indexing = indexerOptions(config);
  return {
    lookup: (request) => index.lookup(request),
    texts: (ids) => index.texts(ids),
    profile: (host) => index.profile(host),
    saveProfile: (host, p) => index.saveProfile(host, p),
    contentId: (url, md) => documentId(contentUrl(url, md, canonicalKey)),
    indexable: (md) => indexable(md, indexing),
    makeDue: (url) => due.url(url),
    releaseDuplicates: (url) => due.duplicatesOf(url),
    isGone: (url) => due.isGone(url),
    deleteContent: (url) => deleter.delete(url),
  };
}
