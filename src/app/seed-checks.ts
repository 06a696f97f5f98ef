import type { Client } from '@opensearch-project/opensearch';
import { MD } from '../model/keys.js';
import { Metadata } from '../model/metadata.js';
import { resetSettingRefusals } from '../opensearch/reset.js';
import { fromStatusSource } from '../opensearch/status-doc.js';
import { seedRejected, urlProblem } from '../pipeline/inject.js';
import type { URLFilterChain } from '../urlfilters/chain.js';
import type { Logger } from '../util/log.js';
import { shown } from '../util/shown.js';

/*
 * `crawler run --seed`: a seed that cannot be crawled stops the command before anything is done, and
 * a seed the status index knows already is not made due again (it keeps its status, as with
 * `crawler inject`): each such seed is reported with its status and what would fetch it now. The
 * exception is a seed that this crawl's own settings refused (error.cause names the key): settings
 * change, the web did not, so it is judged again (made due now) and one line says so.
 */

/** Why each `--seed` cannot be crawled (not a URL, not http(s), refused by the URL filters); [] when all can. */
export function seedProblems(seeds: readonly string[], filter: Pick<URLFilterChain, 'filter'>): string[] {
  const problems: string[] = [];
  for (const s of seeds) {
    const problem = urlProblem(s);
    if (problem !== undefined) {
      const hint = /^[a-z][a-z0-9+.-]*:\/\//i.test(s) ? '' : ': write it with http:// or https://';
      problems.push(`--seed ${problem}${hint}`);
    } else if (filter.filter(null, new Metadata(), s) === null) problems.push(`--seed ${seedRejected(s)}`);
  }
  return problems;
}

/** A known seed as the status index holds it. */
export interface KnownSeed {
  readonly url: string;
  readonly status: string;
  /** ISO-8601, or undefined for never. */
  readonly nextFetchDate: string | undefined;
  readonly cause: string | undefined;
}

/** The line for a seed that is known and not due: its status, when it is due, and what fetches it now. */
export function knownSeedLine(seed: KnownSeed): string {
  const cause = seed.cause ? ` (${seed.cause})` : '';
  const head = `--seed ${shown(seed.url)} is known already: ${seed.status}${cause}, next fetch ${seed.nextFetchDate ?? 'never'}`;
  if (seed.status === 'ERROR' || seed.status === 'FETCH_ERROR') {
    const status = seed.status === 'FETCH_ERROR' ? ' --status FETCH_ERROR' : '';
    return (
      `${head}; it is not fetched now. To fetch it again: crawler reset-errors${status} --url ${seed.url} ` +
      "(with this command's --conf and --set)"
    );
  }
  return seed.nextFetchDate ? `${head}; it is fetched then, not now` : `${head}; it is not fetched`;
}

/**
 * The seeds of `urls` that the status index holds and that are not due by `dueBy` (ms): those a
 * crawl will not fetch now. Call after the seeds were written and the index refreshed.
 */
export async function knownSeedsNotDue(
  client: Client,
  index: string,
  urls: readonly string[],
  dueBy: number,
): Promise<KnownSeed[]> {
  if (urls.length === 0) return [];
  const res = await client.search({
    index,
    body: { size: urls.length, query: { terms: { url: [...new Set(urls)] } } } as never,
  });
  const out: KnownSeed[] = [];
  for (const hit of res.body.hits.hits) {
    const doc = fromStatusSource(hit._source);
    if (!doc) continue;
    const next = doc.nextFetchDate ?? undefined;
    if (next !== undefined && next <= dueBy) continue;
    out.push({
      url: doc.url,
      status: doc.status ?? 'unknown',
      nextFetchDate: next === undefined ? undefined : new Date(next).toISOString(),
      cause: doc.metadata.getFirstValue(MD.errorCause),
    });
  }
  return out;
}

/** The line for a seed refused by a setting in an earlier run and now due again. */
export const rejudgedSeedLine = (url: string, key: string, how: string) =>
  `${how} ${shown(url)} was refused by ${key} in an earlier run: judged again under this run's settings (due now)`;

/**
 * Makes the seeds among `urls` that a setting refused before (SETTING_CAUSES) due now, one line
 * each (`how` is "--seed" or "inject"); returns how many.
 */
export async function rejudgeSettingRefusals(
  client: Client,
  index: string,
  urls: readonly string[],
  run: { readonly now: number; readonly log: Pick<Logger, 'info'>; readonly how?: string },
): Promise<number> {
  const { now, log, how = '--seed' } = run;
  const again = await resetSettingRefusals(client, index, urls, now);
  for (const r of again)
    log.info({ url: shown(r.url), cause: r.cause }, rejudgedSeedLine(r.url, r.cause, how));
  return again.length;
}
