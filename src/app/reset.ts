import type { Config } from '../config/schema.js';
import {
  previewReset,
  type ResetPreview,
  type ResetSelection,
  resetTargets,
  runReset,
} from '../opensearch/reset.js';
import { systemClock } from '../util/clock.js';
import type { Logger } from '../util/log.js';
import { withCluster } from './admin.js';

/*
 * `crawler reset-errors`: the selected URLs made due again (ERROR/FETCH_ERROR to DISCOVERED, or
 * deferred ones due now), each written to the transition log first; or, dry, how many and a sample.
 */

export type ResetOutcome =
  | { readonly dryRun: true; readonly count: number; readonly sample: ResetPreview['sample'] }
  | { readonly dryRun: false; readonly updated: number; readonly conflicts: number };

export function resetErrors(
  config: Config,
  log: Logger,
  selection: ResetSelection,
  dryRun: boolean,
): Promise<ResetOutcome> {
  const index = config['opensearch.status.index.name'];
  return withCluster(config, log, async (client) => {
    await client.indices.refresh({ index });
    const preview = await previewReset(client, index, selection);
    if (dryRun) return { dryRun: true, count: preview.count, sample: preview.sample };
    const now = systemClock.now();
    const at = new Date(now).toISOString();
    for await (const t of resetTargets(client, index, selection)) {
      log.info(
        {
          event: 'transition',
          url: t.url,
          previousStatus: t.status,
          status: selection.deferred ? t.status : 'DISCOVERED',
          nextFetchDate: at,
          reason: 'reset-errors',
        },
        'transition',
      );
    }
    const result = await runReset(client, index, selection, {
      now,
      progress: (done, total) => log.info({ done, total }, `reset ${done} of ${total}`),
    });
    return { dryRun: false, updated: result.updated, conflicts: result.conflicts };
  });
}
