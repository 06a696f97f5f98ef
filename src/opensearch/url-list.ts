import type { Client } from '@opensearch-project/opensearch';
import { MD } from '../model/keys.js';
import { metadataField } from './status-doc.js';

/*
 * URLs of the status index by status, cause, host and due time, page by page with search_after: a
 * listing of millions of URLs holds no scroll context open and costs each page the same.
 */

export interface UrlSelection {
  readonly statuses?: readonly string[];
  /** error.cause or fetch.exception, any of them. */
  readonly causes?: readonly string[];
  /** The status key (the host, under partition.url.mode byHost). */
  readonly host?: string;
  /** nextFetchDate < dueBefore and >= dueAfter, ISO-8601 instants. */
  readonly dueBefore?: string;
  readonly dueAfter?: string;
}

export interface ListedUrl {
  readonly url: string;
  readonly status: string;
  readonly key: string;
  /** Absent for a URL that is never fetched again. */
  readonly nextFetchDate?: string;
  readonly cause?: string;
  readonly exception?: string;
  readonly statusCode?: string;
}

export interface UrlPage {
  readonly total: number;
  readonly urls: ListedUrl[];
  /** Where the next page starts (`crawler urls --after`); absent on the last page. */
  readonly next?: string;
}

export function urlQuery(s: UrlSelection): object {
  const filter: object[] = [];
  if (s.statuses?.length) filter.push({ terms: { status: s.statuses } });
  if (s.causes?.length)
    filter.push({
      bool: {
        should: [
          { terms: { [metadataField(MD.errorCause)]: s.causes } },
          { terms: { [metadataField(MD.fetchException)]: s.causes } },
        ],
        minimum_should_match: 1,
      },
    });
  if (s.host) filter.push({ term: { key: s.host } });
  if (s.dueBefore || s.dueAfter)
    filter.push({
      range: {
        nextFetchDate: {
          ...(s.dueBefore ? { lt: s.dueBefore } : {}),
          ...(s.dueAfter ? { gte: s.dueAfter } : {}),
        },
      },
    });
  return { bool: { filter } };
}

/** A page's position as an opaque word for the command line. */
const encode = (sort: unknown[]) => Buffer.from(JSON.stringify(sort)).toString('base64url');

/** The sort values of a position, or undefined when `token` is not one `urlPage` made. */
export function decodeAfter(token: string): unknown[] | undefined {
  try {
    const v = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as unknown;
    return Array.isArray(v) && v.length === 2 ? v : undefined;
  } catch {
    return undefined;
  }
}

interface Source {
  url: string;
  status: string;
  key: string;
  nextFetchDate?: string;
  metadata?: Record<string, string[]>;
}

/** One page of URLs, soonest due first (never-due last), then by URL. */
export async function urlPage(
  client: Client,
  index: string,
  s: UrlSelection,
  page: { readonly size: number; readonly after?: unknown[] | undefined },
): Promise<UrlPage> {
  const { size, after } = page;
  const res = await client.search({
    index,
    body: {
      size,
      track_total_hits: true,
      query: urlQuery(s),
      _source: [
        'url',
        'status',
        'key',
        'nextFetchDate',
        ...[MD.errorCause, MD.fetchException, MD.fetchStatusCode].map(metadataField),
      ],
      sort: [{ nextFetchDate: { order: 'asc', missing: '_last' } }, { url: 'asc' }],
      ...(after ? { search_after: after as (string | number)[] } : {}),
    },
  });
  const hits = res.body.hits.hits as unknown as { _source: Source; sort: unknown[] }[];
  const md = (src: Source, key: string) => src.metadata?.[metadataField(key).slice('metadata.'.length)]?.[0];
  const urls = hits.map(({ _source: src }) => {
    const cause = md(src, MD.errorCause);
    const exception = md(src, MD.fetchException);
    const statusCode = md(src, MD.fetchStatusCode);
    return {
      url: src.url,
      status: src.status,
      key: src.key,
      ...(src.nextFetchDate ? { nextFetchDate: src.nextFetchDate } : {}),
      ...(cause ? { cause } : {}),
      ...(exception ? { exception } : {}),
      ...(statusCode ? { statusCode } : {}),
    };
  });
  const last = hits.at(-1);
  return {
    total: (res.body.hits.total as { value: number }).value,
    urls,
    ...(hits.length === size && last ? { next: encode(last.sort) } : {}),
  };
}
