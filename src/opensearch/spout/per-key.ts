import type { Client } from '@opensearch-project/opensearch';
import { CrawlerError } from '../../util/errors.js';
import { keyHitsOf, keyQuery, oldestDueQuery, oldestKeysOf, type SpoutQueryParams } from './query.js';

/*
 * The `per-key` form of the spout's timed query: it reads a bounded number of documents whatever the
 * status index holds, when the index is sorted by nextFetchDate then url (mappings/status.json):
 * 1. a page of the oldest due URLs, sorted by the index's first sort field, so each segment stops
 *    after the page's size (Lucene's early termination), names up to max.buckets keys in the order
 *    of their oldest due URL (the keys the aggregation would choose);
 * 2. one `_msearch` of each chosen key's oldest URLs (routed to its shard, sorted as the index is:
 *    each segment stops after max.urls.per.bucket of the key's postings), those not due dropped.
 * About max.buckets x SCAN_PER_BUCKET documents per shard and max.urls.per.bucket per key (measured at
 * 1 M: 1,000-1,300 documents visited per shard for a page of 1,000; 9 for a key query of 2). Without the index
 * sort the same queries visit every due URL (the spout warns: `indexSortWarning`).
 */

/** The first page: this many of the oldest due URLs per bucket asked for... */
const SCAN_PER_BUCKET = 5;
/**
 * ...and at most this many pages after it while they name fewer keys than max.buckets, each without
 * the keys named so far (a host holding all the oldest URLs does not hide the others; its URLs are
 * skipped by its postings, not collected).
 */
const SCAN_PAGES_MORE = 3;

/** The status index's sort, which makes the first step stop early (mappings/status.json). */
export const STATUS_INDEX_SORT = ['nextFetchDate', 'url'] as const;

/** The answer of the per-key form: one response of the `_msearch` per chosen key, oldest key first (hitsOf reads it). */
export interface PerKeyAnswer {
  readonly perKey: readonly unknown[];
}

/** An `_msearch` item's error, thrown as the client throws a failed search (outage.ts reads it). */
class ItemError extends CrawlerError {
  readonly meta: { statusCode: number; body: { error: unknown } };
  constructor(status: number, error: unknown) {
    const e = error as { type?: string; reason?: string } | undefined;
    super('SEARCH_FAILED', `${e?.type ?? 'error'}: ${e?.reason ?? JSON.stringify(error)}`);
    this.meta = { statusCode: status, body: { error } };
  }
}

/**
 * Runs the per-key form. `answers` are every search answer taken (their shard failures count); an
 * `_msearch` item that failed throws as a failed search would.
 */
export async function selectPerKey(
  client: Client,
  params: SpoutQueryParams,
  search: { readonly index: string; readonly preference?: string },
): Promise<{ body: PerKeyAnswer; answers: unknown[] }> {
  const answers: unknown[] = [];
  const size = params.maxBuckets * SCAN_PER_BUCKET;
  const keys = new Set<string>();
  for (let page = 0; page <= SCAN_PAGES_MORE && keys.size < params.maxBuckets; page++) {
    const body = oldestDueQuery(params, size, { tieBreak: 'none', without: [...keys] });
    const res = await client.search({ ...search, body: body as never });
    answers.push(res.body);
    const found = oldestKeysOf(res.body);
    for (const k of found.keys) keys.add(k);
    // A page not full holds every due URL of the keys not named before: no more keys to find.
    if (found.hits < size) break;
  }
  const chosen = [...keys].slice(0, params.maxBuckets);
  if (chosen.length === 0) return { body: { perKey: [] }, answers };
  const lines = chosen.flatMap((key) => [
    { routing: key, ...(search.preference ? { preference: search.preference } : {}) },
    keyQuery(params, key, params.maxUrlsPerBucket, undefined),
  ]);
  const res = await client.msearch({ index: search.index, body: lines as never });
  const responses = (res.body as { responses: { error?: unknown; status?: number }[] }).responses;
  for (const r of responses) {
    if (r.error) throw new ItemError(r.status ?? 500, r.error);
    answers.push(r);
  }
  // The key queries have no date range (keyQuery): each key's hits not due yet are dropped here.
  const perKey = responses.map((r) => ({ hits: { hits: keyHitsOf(r, params.queryDate) } }));
  return { body: { perKey }, answers };
}

/**
 * Why a status index makes the per-key form read every due URL (it is not sorted by
 * nextFetchDate, url: made before the sort was in the mapping), or undefined when it is sorted or
 * its settings cannot be read. With several indices behind the name, the first unsorted one.
 */
export async function indexSortWarning(client: Client, index: string): Promise<string | undefined> {
  try {
    // All settings: filtered by name, an index without the setting is left out of the answer.
    const res = await client.indices.getSettings({ index, flat_settings: true });
    for (const [name, s] of Object.entries(
      res.body as Record<string, { settings?: Record<string, unknown> }>,
    )) {
      const raw = s.settings?.['index.sort.field'];
      const fields = Array.isArray(raw) ? raw : raw === undefined ? [] : [raw];
      if (STATUS_INDEX_SORT.some((f, i) => fields[i] !== f))
        return `status index ${name} is not sorted by ${STATUS_INDEX_SORT.join(', ')} (index.sort.field: ${JSON.stringify(raw ?? null)})`;
    }
    return undefined;
  } catch {
    return undefined;
  }
}
