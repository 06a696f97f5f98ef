import { embeddedNode } from '../../app/admin.js';
import { type Command, UsageError } from '../command.js';

const ACTIONS = ['status', 'stop', 'start'] as const;

export const opensearchCommand: Command = {
  usage: 'crawler opensearch status|stop|start',
  options: {},
  details:
    'The embedded node is the single-node OpenSearch the crawler starts when no cluster is configured\n' +
    '(no OPENSEARCH_URL, no opensearch.addresses) and nothing answers on 127.0.0.1:OPENSEARCH_PORT\n' +
    '(9200 unless set). It keeps running after a command, for the next one, until stopped here.\n' +
    'status: "running URL health H (pid, home)" and exit 0, or "not running" and exit 3.\n' +
    'stop: stops it (a clean shutdown, then SIGKILL after 30 s). start: starts it and waits until it\n' +
    'answers. The same as scripts/opensearch, whose environment (OPENSEARCH_PORT, OPENSEARCH_HOME,\n' +
    'OPENSEARCH_HEAP) applies.',
  async run({ positionals, out }) {
    const action = positionals[0];
    if (positionals.length !== 1 || !ACTIONS.includes(action as (typeof ACTIONS)[number])) {
      throw new UsageError(opensearchCommand.usage);
    }
    return embeddedNode(action!, out);
  },
};
