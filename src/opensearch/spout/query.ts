/** The two forms of the spout's "due URLs, spread over keys" query; chosen by measurement (bench). */
export type QueryForm = 'collapse' | 'aggregation';

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
export function aggregationQuery(p: SpoutQueryParams): object {
  return {
    size: 0,
    track_total_hits: false,
    query: filter(p),
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
 * One key's due URLs after `after` (the sort values of the last hit the spout saw of it), oldest
 * first: HybridSpout's per-key query, routed to the key's shard. The filter queries apply.
 */
export function keyQuery(
  p: Omit<SpoutQueryParams, 'maxBuckets' | 'maxUrlsPerBucket'>,
  key: string,
  size: number,
  after: readonly unknown[] | undefined,
): object {
  return {
    size,
    track_total_hits: false,
    version: true,
    query: filter(p, { term: { key } }),
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
  return (b.aggregations?.partition?.buckets ?? []).map((bucket) => bucket.docs?.hits?.hits ?? []);
}

/** The hits of a `keyQuery`. */
export function keyHitsOf(body: unknown): Hit[] {
  return (body as { hits?: { hits?: Hit[] } }).hits?.hits ?? [];
}
