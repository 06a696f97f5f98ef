import type { Client } from '@opensearch-project/opensearch';
import { MD } from '../model/keys.js';
import { metadataField } from './status-doc.js';

export interface CrawlStats {
  readonly total: number;
  readonly byStatus: Record<string, number>;
  /** ERROR and FETCH_ERROR by error.cause (NO_CAUSE when missing). */
  readonly errorsByCause: Record<string, Record<string, number>>;
  /** ERROR and FETCH_ERROR by error.source, the stage that ended them (NO_SOURCE when missing). */
  readonly errorsBySource: Record<string, Record<string, number>>;
  /** ERROR and FETCH_ERROR by fetch.exception, when it is persisted. */
  readonly errorsByException: Record<string, Record<string, number>>;
  /** ERROR and FETCH_ERROR by the HTTP status of their last fetch (fetch.statusCode; none when there was no answer). */
  readonly errorsByStatusCode: Record<string, Record<string, number>>;
  readonly dueNow: number;
  /** Due within the next hour, those due now included: the console's and /metrics' meaning. */
  readonly dueWithinHour: number;
  readonly topHosts: { host: string; urls: number }[];
  readonly topErrorHosts: { host: string; errors: number }[];
  /** Per day (YYYY-MM-DD of lastProcessedDate, when persisted): ERROR counts by cause. */
  readonly errorsPerDay: { day: string; byCause: Record<string, number> }[];
  /** URLs put back unfetched (defer.cause), by cause, whatever their status. */
  readonly deferredByCause: Record<string, number>;
  /** Hosts (status keys) with deferred URLs, most first, each with its causes. */
  readonly deferredHosts: { host: string; urls: number; causes: Record<string, number> }[];
  /** Near-duplicates (duplicate.of) and the hosts with most of them. */
  readonly duplicates: { total: number; hosts: { host: string; urls: number }[] };
  /** Pages indexed as like another but not the same (similar.to) and the hosts with most of them. */
  readonly similar: { total: number; hosts: { host: string; urls: number }[] };
  /** Soft 404s (soft404.evidence, FETCH_ERROR and ERROR) and the hosts with most of them. */
  readonly soft404: { total: number; hosts: { host: string; urls: number }[] };
}

interface Bucket {
  key: string;
  doc_count: number;
  [sub: string]: unknown;
}
type Terms = { buckets: Bucket[] };

/**
 * The bucket of documents without the field: most FETCH_ERRORs (their reason is fetch.exception),
 * and pages the parsers ended (their stage is in error.source).
 */
export const NO_CAUSE = '(no error.cause)';
export const NO_SOURCE = '(no error.source)';

const counts = (t: Terms | undefined): Record<string, number> =>
  Object.fromEntries((t?.buckets ?? []).map((b) => [b.key, b.doc_count]));

// lastProcessedDate is a keyword (ISO-8601 string) in metadata; its first 10 characters are the day.
const DAY_SCRIPT = `def f = '${metadataField(MD.lastProcessedDate)}'; if (!doc.containsKey(f) || doc[f].size() == 0) return null; return doc[f].value.substring(0, 10);`;

/** Counts that explain a crawl: one search with aggregations on the status index. */
export async function crawlStats(
  client: Client,
  index: string,
  options: { host?: string; now: number; top?: number },
): Promise<CrawlStats> {
  const now = new Date(options.now).toISOString();
  const hour = new Date(options.now + 3_600_000).toISOString();
  const top = options.top ?? 10;
  const byCause = {
    cause: { terms: { field: metadataField(MD.errorCause), size: 50, missing: NO_CAUSE } },
    source: { terms: { field: metadataField(MD.errorSource), size: 20, missing: NO_SOURCE } },
    exception: { terms: { field: metadataField(MD.fetchException), size: 50 } },
    statusCode: { terms: { field: metadataField(MD.fetchStatusCode), size: 50 } },
  };
  const res = await client.search({
    index,
    body: {
      size: 0,
      track_total_hits: true,
      query: options.host ? { term: { key: options.host } } : { match_all: {} },
      aggs: {
        byStatus: { terms: { field: 'status', size: 10 } },
        errors: {
          filter: { terms: { status: ['ERROR', 'FETCH_ERROR'] } },
          aggs: {
            byStatus: { terms: { field: 'status', size: 2 }, aggs: byCause },
            hosts: { terms: { field: 'key', size: top } },
          },
        },
        deferred: {
          filter: { exists: { field: metadataField(MD.deferCause) } },
          aggs: {
            cause: { terms: { field: metadataField(MD.deferCause), size: 20 } },
            hosts: {
              terms: { field: 'key', size: top },
              aggs: { cause: { terms: { field: metadataField(MD.deferCause), size: 20 } } },
            },
          },
        },
        duplicates: {
          filter: { exists: { field: metadataField(MD.duplicateOf) } },
          aggs: { hosts: { terms: { field: 'key', size: top } } },
        },
        similar: {
          filter: { exists: { field: metadataField(MD.similarTo) } },
          aggs: { hosts: { terms: { field: 'key', size: top } } },
        },
        soft404: {
          filter: { exists: { field: metadataField(MD.soft404Evidence) } },
          aggs: { hosts: { terms: { field: 'key', size: top } } },
        },
        dueNow: { filter: { range: { nextFetchDate: { lte: now } } } },
        dueHour: { filter: { range: { nextFetchDate: { lte: hour } } } },
        hosts: { terms: { field: 'key', size: top } },
        perDay: {
          filter: { term: { status: 'ERROR' } },
          aggs: {
            day: {
              terms: { script: { source: DAY_SCRIPT, lang: 'painless' }, size: 60, order: { _key: 'desc' } },
              aggs: { cause: byCause.cause },
            },
          },
        },
      },
    } as never,
  });
  const body = res.body as unknown as {
    hits: { total: { value: number } };
    aggregations: Record<string, { doc_count?: number } & Partial<Terms> & Record<string, unknown>>;
  };
  const a = body.aggregations;
  const errors = a.errors as unknown as { byStatus: Terms; hosts: Terms };
  const perDay = a.perDay as unknown as { day: Terms };
  const deferred = a.deferred as unknown as { cause: Terms; hosts: Terms };
  const byHost = (agg: unknown) => {
    const f = agg as { doc_count: number; hosts: Terms };
    return { total: f.doc_count, hosts: f.hosts.buckets.map((b) => ({ host: b.key, urls: b.doc_count })) };
  };
  return {
    total: body.hits.total.value,
    byStatus: counts(a.byStatus as Terms),
    errorsByCause: Object.fromEntries(errors.byStatus.buckets.map((b) => [b.key, counts(b.cause as Terms)])),
    errorsBySource: Object.fromEntries(
      errors.byStatus.buckets.map((b) => [b.key, counts(b.source as Terms)]),
    ),
    errorsByException: Object.fromEntries(
      errors.byStatus.buckets.map((b) => [b.key, counts(b.exception as Terms)]),
    ),
    errorsByStatusCode: Object.fromEntries(
      errors.byStatus.buckets.map((b) => [b.key, counts(b.statusCode as Terms)]),
    ),
    dueNow: a.dueNow!.doc_count ?? 0,
    dueWithinHour: a.dueHour!.doc_count ?? 0,
    topHosts: (a.hosts as Terms).buckets.map((b) => ({ host: b.key, urls: b.doc_count })),
    topErrorHosts: errors.hosts.buckets.map((b) => ({ host: b.key, errors: b.doc_count })),
    errorsPerDay: perDay.day.buckets.map((b) => ({ day: b.key, byCause: counts(b.cause as Terms) })),
    deferredByCause: counts(deferred.cause),
    deferredHosts: deferred.hosts.buckets.map((b) => ({
      host: b.key,
      urls: b.doc_count,
      causes: counts(b.cause as Terms),
    })),
    duplicates: byHost(a.duplicates),
    similar: byHost(a.similar),
    soft404: byHost(a.soft404),
  };
}
