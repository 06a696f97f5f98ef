/** The two forms of the spout's "due URLs, spread over keys" query; chosen by measurement (bench). */
export type QueryForm = 'collapse' | 'aggregation';

export interface SpoutQueryParams {
  readonly queryDate: string;
  readonly maxBuckets: number;
  readonly maxUrlsPerBucket: number;
  readonly filterQueries: readonly string[];
  /** Seconds; -1 = none. */
  readonly timeoutSecs: number;
}

const SORT = [{ nextFetchDate: { order: 'asc' } }, { url: { order: 'asc' } }];

function filter(p: SpoutQueryParams): object {
  return {
    bool: {
      filter: [
        { range: { nextFetchDate: { lte: p.queryDate } } },
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
    collapse: { field: 'key', inner_hits: { name: 'urls', size: p.maxUrlsPerBucket, sort: SORT } },
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
          docs: { top_hits: { size: p.maxUrlsPerBucket, sort: SORT } },
          top_hit: { min: { field: 'nextFetchDate' } },
        },
      },
    },
    ...(p.timeoutSecs >= 0 ? { timeout: `${p.timeoutSecs}s` } : {}),
  };
}

export interface Hit {
  readonly _source: unknown;
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
