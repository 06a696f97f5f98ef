import type { Client } from '@opensearch-project/opensearch';
import { MD, SETTING_CAUSES } from '../model/keys.js';
import { encodeMetadataKey, metadataField } from './status-doc.js';

export interface ResetSelection {
  /** error.cause values (defer.cause values with `deferred`); empty = any. */
  readonly causes?: readonly string[];
  /**
   * Deferred URLs instead of errors: those with a defer.cause, whatever their status (which the
   * reset keeps); `status` is then ignored.
   */
  readonly deferred?: boolean;
  readonly host?: string;
  /** Only these URLs (exactly as stored). */
  readonly urls?: readonly string[];
  /** ERROR (default) or FETCH_ERROR. */
  readonly status?: 'ERROR' | 'FETCH_ERROR';
  /** On lastProcessedDate (ISO-8601, compared as text, which orders ISO instants correctly). */
  readonly since?: string;
  readonly until?: string;
  /** A query_string query over the status documents. */
  readonly query?: string;
}

/** The status documents a reset touches. */
export function resetQuery(s: ResetSelection): object {
  const causeField = metadataField(s.deferred ? MD.deferCause : MD.errorCause);
  const filter: object[] = [
    s.deferred ? { exists: { field: causeField } } : { term: { status: s.status ?? 'ERROR' } },
  ];
  if (s.causes && s.causes.length > 0) filter.push({ terms: { [causeField]: s.causes } });
  if (s.host) filter.push({ term: { key: s.host } });
  if (s.urls && s.urls.length > 0) filter.push({ terms: { url: [...s.urls] } });
  if (s.since || s.until) {
    filter.push({
      range: {
        [metadataField(MD.lastProcessedDate)]: {
          ...(s.since ? { gte: s.since } : {}),
          ...(s.until ? { lt: s.until } : {}),
        },
      },
    });
  }
  if (s.query) filter.push({ query_string: { query: s.query } });
  return { bool: { filter } };
}

/**
 * Back to DISCOVERED and due now, without the error count and error.* keys: the URL starts afresh,
 * as a newly found one would. Safe while the daemon runs: conflicting versions are skipped.
 */
export const RESET_SCRIPT = [
  "ctx._source.status = 'DISCOVERED';",
  'ctx._source.nextFetchDate = params.now;',
  'if (ctx._source.metadata != null) {',
  `  for (k in [${[MD.fetchErrorCount, MD.errorCause, MD.errorMessage, MD.errorSource].map((k) => `'${encodeMetadataKey(k)}'`).join(', ')}]) { ctx._source.metadata.remove(k); }`,
  '}',
].join(' ');

/** A deferred URL made due now: its status and the rest of its metadata stay, defer.* go. */
export const DEFERRED_RESET_SCRIPT = [
  'ctx._source.nextFetchDate = params.now;',
  'if (ctx._source.metadata != null) {',
  `  for (k in [${[MD.deferCause, MD.deferDate, MD.deferMessage].map((k) => `'${encodeMetadataKey(k)}'`).join(', ')}]) { ctx._source.metadata.remove(k); }`,
  '}',
].join(' ');

export interface ResetPreview {
  readonly count: number;
  readonly sample: { url: string; cause?: string }[];
}

export async function previewReset(
  client: Client,
  index: string,
  s: ResetSelection,
  size = 10,
): Promise<ResetPreview> {
  const res = await client.search({
    index,
    body: {
      size,
      track_total_hits: true,
      query: resetQuery(s),
      _source: ['url', metadataField(s.deferred ? MD.deferCause : MD.errorCause)],
    } as never,
  });
  const body = res.body as unknown as {
    hits: {
      total: { value: number };
      hits: { _source: { url: string; metadata?: Record<string, string[]> } }[];
    };
  };
  return {
    count: body.hits.total.value,
    sample: body.hits.hits.map((h) => ({
      url: h._source.url,
      cause: h._source.metadata?.[encodeMetadataKey(s.deferred ? MD.deferCause : MD.errorCause)]?.[0],
    })),
  };
}

/** Each URL a reset is about to change, page by page (for the transition log). */
export async function* resetTargets(client: Client, index: string, s: ResetSelection) {
  let after: unknown[] | undefined;
  for (;;) {
    const res = await client.search({
      index,
      body: {
        size: 1000,
        query: resetQuery(s),
        sort: [{ url: 'asc' }],
        _source: ['url', 'status'],
        ...(after ? { search_after: after } : {}),
      } as never,
    });
    const hits = (
      res.body as unknown as {
        hits: { hits: { _source: { url: string; status: string }; sort: unknown[] }[] };
      }
    ).hits.hits;
    if (hits.length === 0) return;
    for (const h of hits) yield h._source;
    after = hits.at(-1)!.sort;
  }
}

/**
 * Runs the reset as a sliced `_update_by_query` task with conflicts=proceed, reporting progress
 * until it completes; resolves to the number of documents updated.
 */
export async function runReset(
  client: Client,
  index: string,
  s: ResetSelection,
  run: { readonly now: number; readonly progress: (done: number, total: number) => void },
): Promise<{ updated: number; conflicts: number }> {
  const { now, progress } = run;
  const res = await client.updateByQuery({
    index,
    conflicts: 'proceed',
    slices: 'auto',
    refresh: true,
    wait_for_completion: false,
    body: {
      query: resetQuery(s),
      script: {
        source: s.deferred ? DEFERRED_RESET_SCRIPT : RESET_SCRIPT,
        lang: 'painless',
        params: { now: new Date(now).toISOString() },
      },
    } as never,
  });
  const task = (res.body as unknown as { task: string }).task;
  // The task runs on the cluster whatever happens here; a cluster that stops answering for a minute
  // ends the wait (with the last error) instead of spinning on it.
  let failures = 0;
  for (;;) {
    const t = await client.tasks
      .get({ task_id: task, wait_for_completion: true, timeout: '2s' })
      .catch(async (e: unknown) => {
        if (++failures >= 30) throw e;
        await new Promise((r) => setTimeout(r, 2000));
        return undefined;
      });
    if (t) failures = 0;
    const body = t?.body as
      | {
          completed: boolean;
          task: { status: { total: number; updated: number } };
          response?: { updated: number; version_conflicts: number };
        }
      | undefined;
    if (body) progress(body.task.status.updated, body.task.status.total);
    if (body?.completed) {
      return {
        updated: body.response?.updated ?? body.task.status.updated,
        conflicts: body.response?.version_conflicts ?? 0,
      };
    }
  }
}

/**
 * The URLs of `urls` that this crawl's own settings refused (ERROR with an error.cause of
 * SETTING_CAUSES: the address filter, the accepted content types), made DISCOVERED and due now so
 * that this run judges them again under its settings; each with the key that refused it. Small
 * (the seeds of one command, in batches): a synchronous update, refreshed before it returns.
 */
export async function resetSettingRefusals(
  client: Client,
  index: string,
  urls: readonly string[],
  now: number,
): Promise<{ url: string; cause: string }[]> {
  if (urls.length === 0) return [];
  const s: ResetSelection = { urls, causes: SETTING_CAUSES, status: 'ERROR' };
  const found = await previewReset(client, index, s, urls.length);
  if (found.count === 0) return [];
  await client.updateByQuery({
    index,
    conflicts: 'proceed',
    refresh: true,
    body: {
      query: resetQuery(s),
      script: { source: RESET_SCRIPT, lang: 'painless', params: { now: new Date(now).toISOString() } },
    } as never,
  });
  return found.sample.map((x) => ({ url: x.url, cause: x.cause ?? '' }));
}
