import type { Client } from '@opensearch-project/opensearch';
import type { Config } from '../config/schema.js';
import { Metadata } from '../model/metadata.js';
import { seedRejected, urlProblem } from '../pipeline/inject.js';
import type { URLFilterChain } from '../urlfilters/chain.js';
import { loadURLFilters } from '../urlfilters/load.js';
import { type Clock, systemClock } from '../util/clock.js';
import { type Logger, silentLogger } from '../util/log.js';
import { shown } from '../util/shown.js';
import { onceLookAheadMs } from './options.js';
import { knownSeedLine, knownSeedsNotDue, rejudgeSettingRefusals, seedProblems } from './seed-checks.js';
import { buildStores, type StoreSet } from './stores.js';

/*
 * `crawler run --seed`: the seeds are checked before anything starts (`seedsRefused`), then written
 * as DISCOVERED through the URL filters, visible before the crawl (app/seed-checks.ts says what
 * happens to a seed the status index knows already).
 */

/** Why each seed cannot be crawled, through the configuration's URL filters; [] when all can. */
export function seedsRefused(config: Config, seeds: readonly string[]): string[] {
  if (seeds.length === 0) return [];
  return seedProblems(seeds, loadURLFilters(config, { logger: silentLogger }));
}

/** `--seed` URLs written once, before worker processes start (each then finds its own). */
export async function injectSeeds(
  client: Client,
  config: Config,
  seeds: readonly string[],
  log: Logger,
): Promise<void> {
  if (seeds.length === 0) return;
  const filter = loadURLFilters(config, { logger: log });
  const stores = buildStores({ client, config, clock: systemClock, log });
  try {
    await writeSeeds(client, config, { stores, filter, log, clock: systemClock }, seeds);
  } finally {
    stores.close();
  }
}

/** Seeds given on the command line: DISCOVERED through the URL filters, visible before the crawl. */
export async function writeSeeds(
  client: Client,
  config: Config,
  deps: {
    readonly stores: Pick<StoreSet, 'status' | 'flush'>;
    readonly filter: Pick<URLFilterChain, 'filter'>;
    readonly log: Logger;
    readonly clock: Clock;
  },
  seeds: readonly string[],
): Promise<void> {
  if (seeds.length === 0) return;
  const { stores, filter, log, clock } = deps;
  const written: string[] = [];
  for (const s of seeds) {
    const problem = urlProblem(s);
    const kept = problem === undefined ? filter.filter(null, new Metadata(), s) : null;
    if (kept === null) log.warn({ url: shown(s) }, `--seed ${problem ?? seedRejected(s)}; skipped`);
    else {
      await stores.status.inject({ url: kept, status: 'DISCOVERED', metadata: new Metadata() });
      written.push(kept);
    }
  }
  await stores.flush();
  const index = config['opensearch.status.index.name'];
  await rejudgeSettingRefusals(client, index, written, { now: clock.now(), log });
  await client.indices.refresh({ index });
  // A known seed keeps its status: say so for each one the crawl will not fetch now.
  const dueBy = clock.now() + onceLookAheadMs(config);
  for (const known of await knownSeedsNotDue(client, index, written, dueBy))
    log.warn({ url: shown(known.url), status: known.status }, knownSeedLine(known));
}
