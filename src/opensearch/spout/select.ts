import type { Client } from '@opensearch-project/opensearch';
import { selectPerKey } from './per-key.js';
import {
  aggregationQuery,
  collapseQuery,
  oldestDueQuery,
  oldestKeysOf,
  type QueryForm,
  type SpoutQueryParams,
} from './query.js';

/** keys-first's first page: this many of the oldest due URLs per bucket asked for... */
const SCAN_PER_BUCKET = 20;
/** ...and, when they name fewer keys than that while more URLs are due, a second page this much larger. */
const SCAN_GROWTH = 10;

export interface Selected {
  /** The answer whose hits `hitsOf(form)` reads. */
  readonly body: unknown;
  /** Every answer the selection took (their shard failures count). */
  readonly answers: readonly unknown[];
}

/**
 * Runs the spout's timed query in its form. `aggregation` and `collapse` are one search each; their
 * cost grows with every due URL in the index (each one is aggregated or collapsed). `keys-first`
 * finds the keys with the oldest due URLs from a sorted page of them (the date index finds the
 * oldest without visiting the rest), then runs the aggregation restricted to those keys: the same
 * keys and URLs as the aggregation alone, since the first max.buckets keys of the oldest due URLs are
 * the max.buckets keys whose oldest due URL is oldest. When the page names fewer keys while more
 * URLs are due (one host holds all the oldest URLs), a larger page, then the plain aggregation.
 * `per-key` is per-key.ts: its cost does not grow with the index when it is sorted.
 */
export async function selectDue(
  client: Client,
  form: QueryForm,
  params: SpoutQueryParams,
  search: { readonly index: string; readonly preference?: string },
): Promise<Selected> {
  const send = async (body: object) =>
    (await client.search({ ...search, body: body as never })).body as unknown;
  if (form === 'collapse') {
    const body = await send(collapseQuery(params));
    return { body, answers: [body] };
  }
  if (form === 'per-key') return selectPerKey(client, params, search);
  if (form === 'aggregation') {
    const body = await send(aggregationQuery(params));
    return { body, answers: [body] };
  }
  const answers: unknown[] = [];
  let size = params.maxBuckets * SCAN_PER_BUCKET;
  for (let round = 0; round < 2; round++, size *= SCAN_GROWTH) {
    const page = await send(oldestDueQuery(params, size));
    answers.push(page);
    const { keys, hits } = oldestKeysOf(page);
    if (keys.length === 0 && hits < size) return { body: page, answers };
    if (keys.length >= params.maxBuckets || hits < size) {
      const chosen = keys.slice(0, params.maxBuckets);
      const body = await send(aggregationQuery(params, { terms: { key: chosen } }));
      answers.push(body);
      return { body, answers };
    }
  }
  const body = await send(aggregationQuery(params));
  answers.push(body);
  return { body, answers };
}
