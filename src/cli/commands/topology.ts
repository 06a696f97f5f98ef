import { TOPOLOGY } from '../../pipeline/topology.js';
import type { Command } from '../command.js';

export const topologyCommand: Command = {
  name: 'topology',
  summary: 'print the pipeline: stages, bounded queues, the status and deletion paths',
  usage: 'crawler topology [options]',
  options: {},
  async run({ config, out }) {
    const c = config();
    out(TOPOLOGY);
    out('');
    out('Bounded hand-overs (the stage before waits when one is full):');
    out(
      `  spout buffer            ${c['opensearch.status.max.buckets'] * c['opensearch.status.max.urls.per.bucket']} URLs per query (opensearch.status.max.buckets x max.urls.per.bucket)`,
    );
    out(
      `  fetch queues            ${c['fetcher.max.urls.in.queues']} URLs queued or in fetch (fetcher.max.urls.in.queues), ${c['fetcher.threads.number']} fetches at once`,
    );
    out(`  parse backlog           ${Math.max(16, Math.ceil(c['fetcher.threads.number'] / 2))} pages`);
    out(
      `  status bulk writer      ${c['opensearch.status.bulkActions'] * (c['opensearch.status.concurrentRequests'] + 2)} unsettled updates`,
    );
    out(
      `  content bulk writer     ${c['opensearch.indexer.bulkActions'] * (c['opensearch.indexer.concurrentRequests'] + 2)} unsettled documents`,
    );
    out(
      `Indices: status "${c['opensearch.status.index.name']}", content "${c['opensearch.indexer.index.name']}"${c['status.transitions.index.name'] ? `, transitions "${c['status.transitions.index.name']}"` : ''}`,
    );
    return 0;
  },
};
