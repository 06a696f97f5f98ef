import { buildConfig, parseSet } from '../../config/load.js';
import { KEYS, type KeyName } from '../../config/schema.js';
import { connect } from '../../opensearch/client.js';
import { DEMO_ROUNDS, DEMO_SETTINGS, formatDemoTable, runDemo, startDemoSite } from '../../pipeline/demo.js';
import { TOPOLOGY } from '../../pipeline/topology.js';
import type { Command } from '../command.js';

export const demoCommand: Command = {
  name: 'demo',
  summary: "crawl a built-in site in simulated rounds and show every URL's transitions (start here)",
  usage: 'crawler demo [options]',
  options: {},
  details:
    'Serves a small site on 127.0.0.1 (a good page, a 404, a page failing twice with 503, a redirect,\n' +
    'a robots.txt-blocked path, a page slower than http.timeout) and crawls it at simulated minutes\n' +
    `${DEMO_ROUNDS.join(', ')}, into its own indices demo-status, demo-content and demo-transitions\n` +
    '(recreated on each run). Uses the embedded OpenSearch unless OPENSEARCH_URL is set.',
  async run({ values, config, log, out }) {
    const user = config();
    // The demo's settings over what the user configured (their cluster), under their --set.
    const entries: Record<string, unknown> = {};
    for (const k of user.origin.keys()) entries[k] = k in KEYS ? user[k as KeyName] : undefined;
    for (const e of user.patterned) entries[e.key] = e.value;
    const cfg = buildConfig([
      { source: 'your configuration', entries },
      { source: 'demo', entries: DEMO_SETTINGS },
      ...((values.set as string[] | undefined) ?? []).map(parseSet),
    ]).config;
    out(TOPOLOGY);
    out('');
    const { origin, server } = await startDemoSite();
    const { client, url } = await connect(cfg, log);
    try {
      out(`Crawling the demo site ${origin} into ${url} at simulated minutes ${DEMO_ROUNDS.join(', ')}...`);
      const rows = await runDemo(client, cfg, origin, log);
      out('');
      for (const line of formatDemoTable(rows)) out(line);
      out('');
      out('Where to look next:');
      out(`  crawler stats --set opensearch.status.index.name=demo-status`);
      out(
        `  crawler url ${origin}/missing --set opensearch.status.index.name=demo-status --set status.transitions.index.name=demo-transitions`,
      );
      out(
        '  OpenSearch Dashboards: scripts/import-dashboards, then the "Crawl status" dashboard (index patterns status, content, transitions*;',
      );
      out('  for the demo indices add patterns demo-status, demo-content and demo-transitions).');
      return 0;
    } finally {
      server.close();
      await client.close();
    }
  },
};
