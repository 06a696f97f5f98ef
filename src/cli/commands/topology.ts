import { TOPOLOGY } from '../../pipeline/topology.js';
import type { Command } from '../command.js';

export const topologyCommand: Command = {
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
    if (c['tika.enabled'])
      out(
        `  Tika stage              ${c['tika.max.concurrent']} documents at Tika (tika.max.concurrent), ${Math.max(4, 2 * c['tika.max.concurrent'])} waiting, ${c['parser.tika.timeout']} ms each at most; ${c['tika.server.url'] || `embedded server on 127.0.0.1:${c['tika.embedded.port']}, started on the first document`}`,
      );
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
