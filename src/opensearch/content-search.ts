import type { Client } from '@opensearch-project/opensearch';

/*
 * Searching what was crawled: the content index through OpenSearch's own query DSL, so that what
 * `crawler search` finds is what the same body finds in Dashboards' Dev Tools (README: Usage).
 */

export interface SearchRequest {
  /** simple_query_string syntax: words (all of them must match), "phrases", -not, a|b, prefix*. */
  readonly query: string;
  readonly host?: string;
  readonly lang?: string;
  /** fetchTime >= since and < until, ISO-8601 instants. */
  readonly since?: string;
  readonly until?: string;
  /** Results per page, and the page (1 = first). */
  readonly size: number;
  readonly page: number;
}

export interface SearchHit {
  readonly url: string;
  readonly title: string;
  /** The best matching passage of the text (or its start), matches between HIGHLIGHT tags. */
  readonly snippet: string;
  readonly host?: string;
  readonly lang?: string;
  readonly fetchTime?: string;
  /** The page a near-duplicate was judged a copy of (dedup.mode flag). */
  readonly duplicateOf?: string;
  readonly score: number;
}

export interface SearchResult {
  readonly total: number;
  /** True when there are more than `total` (OpenSearch counts exactly up to 10,000). */
  readonly totalIsLowerBound: boolean;
  readonly hits: SearchHit[];
}

/**
 * The marks around a match in a snippet: private-use characters, which a page's text shown on a
 * terminal has stripped (util/terminal-text.ts), so that no page can fake a highlight.
 */
export const HIGHLIGHT = { pre: '\ue000', post: '\ue001' } as const;

/** Fields searched, with their weights: a match in the title counts most. */
export const SEARCH_FIELDS = ['title^3', 'description^2', 'content', 'feed.title^2', 'feed.description'];

const SNIPPET_CHARS = 160;

/** The _search body of a request: also what `crawler search --show-query` prints. */
export function searchBody(r: SearchRequest): Record<string, unknown> {
  const filter: object[] = [];
  if (r.host) filter.push({ term: { host: r.host.toLowerCase() } });
  if (r.lang) filter.push({ term: { lang: r.lang } });
  if (r.since || r.until)
    filter.push({
      range: { fetchTime: { ...(r.since ? { gte: r.since } : {}), ...(r.until ? { lt: r.until } : {}) } },
    });
  return {
    from: (r.page - 1) * r.size,
    size: r.size,
    track_total_hits: true,
    _source: ['url', 'title', 'host', 'lang', 'fetchTime', 'duplicateOf'],
    query: {
      bool: {
        must: {
          simple_query_string: {
            query: r.query,
            fields: SEARCH_FIELDS,
            default_operator: 'and',
            // A field missing from an older index, or a keyword against text, is no error.
            lenient: true,
          },
        },
        filter,
      },
    },
    highlight: {
      pre_tags: [HIGHLIGHT.pre],
      post_tags: [HIGHLIGHT.post],
      fields: {
        content: { fragment_size: SNIPPET_CHARS, number_of_fragments: 1, no_match_size: SNIPPET_CHARS },
      },
    },
  };
}

interface Hit {
  _score: number | null;
  _source: {
    url: string;
    title?: string;
    host?: string;
    lang?: string;
    fetchTime?: string;
    duplicateOf?: string;
  };
  highlight?: { content?: string[] };
}

export async function searchContent(client: Client, index: string, r: SearchRequest): Promise<SearchResult> {
  const res = await client.search({ index, body: searchBody(r) });
  const total = res.body.hits.total as { value: number; relation: string };
  return {
    total: total.value,
    totalIsLowerBound: total.relation !== 'eq',
    hits: (res.body.hits.hits as unknown as Hit[]).map((h) => ({
      url: h._source.url,
      title: h._source.title ?? '',
      snippet: h.highlight?.content?.[0] ?? '',
      ...(h._source.host ? { host: h._source.host } : {}),
      ...(h._source.lang ? { lang: h._source.lang } : {}),
      ...(h._source.fetchTime ? { fetchTime: h._source.fetchTime } : {}),
      ...(h._source.duplicateOf ? { duplicateOf: h._source.duplicateOf } : {}),
      score: h._score ?? 0,
    })),
  };
}
