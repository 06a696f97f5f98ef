import { initIndices } from '../../app/admin.js';
import type { Command } from '../command.js';

export const initCommand: Command = {
  usage: 'crawler init [--recreate --yes] [options]',
  options: {
    recreate: { type: 'boolean', description: 'drop both indices and create them empty (needs --yes)' },
    yes: {
      type: 'boolean',
      short: 'y',
      description: 'confirm --recreate: every URL status and page is deleted',
    },
  },
  details:
    'Index names come from opensearch.status.index.name and opensearch.indexer.index.name; shard and\n' +
    'replica counts from opensearch.status.shards/.replicas and opensearch.indexer.shards/.replicas.\n' +
    'An index that exists is left unchanged; a second run changes nothing and says so.',
  async run({ values, config, log, out }) {
    const recreate = values.recreate === true;
    if (recreate && values.yes !== true) {
      out('crawler init --recreate deletes every URL status and page in both indices; add --yes to confirm.');
      return 2;
    }
    const { url, outcomes } = await initIndices(config(), log, recreate);
    for (const o of outcomes) {
      const verb = {
        created: 'created',
        exists: 'exists already, unchanged',
        recreated: 'dropped and recreated',
      }[o.action];
      out(`${o.role} index "${o.name}" at ${url}: ${verb}`);
    }
    if (outcomes.every((o) => o.action === 'exists')) out('nothing to do: both indices exist');
    return 0;
  },
};
