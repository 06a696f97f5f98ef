/**
 * The forms of the spout's "due URLs, spread over keys" query; chosen by measurement (bench):
 * `keys-first` is the aggregation restricted to the keys a sorted page of the oldest due URLs names
 * (select.ts), so its cost does not grow with the due URLs of all the other keys; `per-key` reads
 * the chosen keys' URLs by routed per-key queries instead (per-key.ts), a bounded number of documents
 * in a status index sorted by nextFetchDate.
 */
export type QueryForm = 'collapse' | 'aggregation' | 'keys-first' | 'per-key';

export interface SpoutQueryParams {
  /** Due URLs are those whose nextFetchDate is at or before this date. */
  readonly queryDate: string;
  readonly maxBuckets: number;
  readonly maxUrlsPerBucket: number;
  readonly filterQueries: readonly string[];
  /** Seconds; -1 = none. */
  readonly timeoutSecs: number;
}

const SORT = [{ nextFetchDate: { order: 'asc' } }, { url: { order: 'asc' } }];

function filter(p: Pick<SpoutQueryParams, 'queryDate' | 'filterQueries'>, ...more: object[]): object {
  return {
    bool: {
      filter: [
        { range: { nextFetchDate: { lte: p.queryDate } } },
        ...more,
        ...p.filterQueries.map((q) => ({ query_string: { query: q } })),
      ],
    },
  };
}

/**
 * Collapse on `key`: the top hits are the keys with the oldest due URL first (one hit per key), and
 * each carries up to maxUrlsPerBucket of that key's due URLs as inner hits.
 */
export function collapseQuery(p: SpoutQueryParams): object {
  return {
    size: p.maxBuckets,
    track_total_hits: false,
    _source: false,
    query: filter(p),
    sort: [{ nextFetchDate: { order: 'asc' } }],
    // Versions tell a hit of an acknowledged update from one of the document before it (in-flight.ts).
    collapse: {
      field: 'key',
      inner_hits: { name: 'urls', size: p.maxUrlsPerBucket, sort: SORT, version: true },
    },
    ...(p.timeoutSecs >= 0 ? { timeout: `${p.timeoutSecs}s` } : {}),
  };
}

/** StormCrawler's AggregationSpout: terms on `key` ordered by the oldest due date, top_hits in each. */
export function aggregationQuery(p: SpoutQueryParams, ...more: object[]): object {
  return {
    size: 0,
    track_total_hits: false,
    query: filter(p, ...more),
    aggregations: {
      partition: {
        terms: { field: 'key', size: p.maxBuckets, order: { top_hit: 'asc' } },
        aggregations: {
          docs: { top_hits: { size: p.maxUrlsPerBucket, sort: SORT, version: true } },
          top_hit: { min: { field: 'nextFetchDate' } },
        },
      },
    },
    ...(p.timeoutSecs >= 0 ? { timeout: `${p.timeoutSecs}s` } : {}),
  };
}

/**
 * The oldest due URLs, `size` of them, with their keys only: the first page of a sort the date
 * index answers without visiting every due URL (keys-first's first step). Ties are ordered by key,
 * as the aggregation orders keys of the same oldest date; per-key leaves them unordered (`none`:
 * the date alone, a prefix of the status index's own sort, so each segment stops after the page;
 * at 10 M documents a third of the time of the same page tie-broken by url, whose comparisons
 * across segments dominate) and leaves out the keys it named already.
 */
export function oldestDueQuery(
  p: Omit<SpoutQueryParams, 'maxBuckets' | 'maxUrlsPerBucket'>,
  size: number,
  by: { tieBreak: 'key' | 'none'; without?: readonly string[] } = { tieBreak: 'key' },
): object {
  const query = filter(p) as { bool: Record<string, unknown> };
  if (by.without && by.without.length > 0) query.bool.must_not = [{ terms: { key: by.without } }];
  return {
    size,
    track_total_hits: false,
    _source: false,
    stored_fields: '_none_',
    docvalue_fields: ['key'],
    query,
    sort: [
      { nextFetchDate: { order: 'asc' } },
      ...(by.tieBreak === 'none' ? [] : [{ [by.tieBreak]: { order: 'asc' } }]),
    ],
    ...(p.timeoutSecs >= 0 ? { timeout: `${p.timeoutSecs}s` } : {}),
  };
}

/** The keys of an `oldestDueQuery`'s hits, each once, in the order of their oldest due URL. */
export function oldestKeysOf(body: unknown): { keys: string[]; hits: number } {
  const hits = (body as { hits?: { hits?: { fields?: { key?: unknown[] } }[] } }).hits?.hits ?? [];
  const keys = new Set<string>();
  for (const h of hits) {
    const key = h.fields?.key?.[0];
    if (typeof key === 'string') keys.add(key);
  }
  return { keys: [...keys], hits: hits.length };
}

/**
 * One key's oldest URLs after `after` (the sort values of the last hit the spout saw of it):
 * HybridSpout's per-key query, routed to the key's shard. The filter queries apply. It has no date
 * range: sorted as the index is, a key's oldest URLs come first and each segment stops after `size`
 * of them, and the hits not due yet are dropped by `dueHits` (the range clause, whose scorer is
 * built on every segment, doubled the query's cost at 10 M documents: RESULTS.md).
 */
export function keyQuery(
  p: Pick<SpoutQueryParams, 'filterQueries' | 'timeoutSecs'>,
  key: string,
  size: number,
  after: readonly unknown[] | undefined,
): object {
  return {
    size,
    track_total_hits: false,
    version: true,
    query: {
      bool: { filter: [{ term: { key } }, ...p.filterQueries.map((q) => ({ query_string: { query: q } }))] },
    },
    sort: SORT,
    ...(after ? { search_after: after } : {}),
    ...(p.timeoutSecs >= 0 ? { timeout: `${p.timeoutSecs}s` } : {}),
  };
}

export interface Hit {
  readonly _source: unknown;
  readonly _version?: number;
  /** The sort values of the hit (nextFetchDate, url), for `search_after`. */
  readonly sort?: readonly unknown[];
}

/** The hits of either form, key by key, oldest key first. */
export function hitsOf(form: QueryForm, body: unknown): Hit[][] {
  const b = body as {
    hits?: { hits?: { inner_hits?: { urls?: { hits?: { hits?: Hit[] } } } }[] };
    aggregations?: { partition?: { buckets?: { docs?: { hits?: { hits?: Hit[] } } }[] } };
  };
  if (form === 'collapse') return (b.hits?.hits ?? []).map((h) => h.inner_hits?.urls?.hits?.hits ?? []);
  // per-key answers with its `_msearch` responses, one per key (keys whose query found nothing left out).
  if (form === 'per-key')
    return ((body as { perKey?: { hits?: { hits?: Hit[] } }[] }).perKey ?? [])
      .map((r) => r.hits?.hits ?? [])
      .filter((hits) => hits.length > 0);
  // keys-first answers with its aggregation.
  return (b.aggregations?.partition?.buckets ?? []).map((bucket) => bucket.docs?.hits?.hits ?? []);
}

/**
 * The due hits of a `keyQuery` (due by `queryDate`): the hits sorted by nextFetchDate, so the due
 * ones are a prefix; a document without nextFetchDate (an ERROR) sorts last and is never due.
 */
export function keyHitsOf(body: unknown, queryDate: string): Hit[] {
  return dueHits((body as { hits?: { hits?: Hit[] } }).hits?.hits ?? [], Date.parse(queryDate));
}

function dueHits(hits: readonly Hit[], dueBy: number): Hit[] {
  let n = 0;
  while (n < hits.length && Number(hits[n]!.sort?.[0]) <= dueBy) n++;
  return hits.slice(0, n);
}
