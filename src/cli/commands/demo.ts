import { isAbsolute, relative } from 'node:path';
import { withCluster } from '../../app/admin.js';
import {
  DEMO_CONF,
  DEMO_ROUNDS,
  DEMO_SETTINGS,
  DEMO_TABLE_WIDTH,
  describeTika,
  formatDemoTable,
  runDemo,
  startDemoSite,
} from '../../app/demo.js';
import { buildConfig, parseSet } from '../../config/load.js';
import { KEYS, type KeyName } from '../../config/schema.js';
import { TOPOLOGY } from '../../pipeline/topology.js';
import type { Command } from '../command.js';

/** A word as a POSIX shell reads it back unchanged: bare when safe, else single-quoted. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

/** A command as lines of at most `width` columns, continued with a backslash: pasted, it runs. */
export function commandLines(parts: readonly string[], width = DEMO_TABLE_WIDTH): string[] {
  const lines: string[] = [];
  let line = `  ${parts[0]}`;
  for (const part of parts.slice(1)) {
    if (line.length + 1 + part.length + 2 > width) {
      lines.push(`${line} \\`);
      line = `      ${part}`;
    } else line += ` ${part}`;
  }
  lines.push(line);
  return lines;
}

/** conf/demo.yaml as the user may type it: relative to where they are when that is below, else absolute. */
function demoConfPath(): string {
  const rel = relative(process.cwd(), DEMO_CONF);
  return rel.startsWith('..') || isAbsolute(rel) ? DEMO_CONF : rel;
}

export const demoCommand: Command = {
  usage: 'crawler demo [options]',
  options: {},
  details:
    'Serves a small site on 127.0.0.1 (a good page, a 404, a page failing twice with 503, a redirect,\n' +
    'a robots.txt-blocked path, a page slower than http.timeout, an RSS feed, a PDF for Apache Tika)\n' +
    `and crawls it at simulated minutes ${DEMO_ROUNDS.join(', ')}, into its own indices demo-status,\n` +
    'demo-content and demo-transitions (recreated on each run). Uses the embedded OpenSearch unless\n' +
    'OPENSEARCH_URL is set, and says which Apache Tika reads the PDF (whose, when another checkout started it).',
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
    // Connected first: a cluster that cannot be reached must not leave the demo site listening.
    return withCluster(cfg, log, async (client, url) => {
      const { origin, server } = await startDemoSite();
      // The crawl's own log lines (parse filters, dropped-key warnings, progress) would interleave with
      // the table; they stay out unless a log level was asked for.
      const explicit = values['log-level'] !== undefined || process.env.LOG_LEVEL !== undefined;
      const crawlLog = explicit ? log : log.child({}, { level: 'error' });
      try {
        out(`Crawling the demo site ${origin} into ${url} at simulated minutes ${DEMO_ROUNDS.join(', ')}...`);
        for (const line of await describeTika(cfg)) out(line);
        const rows = await runDemo(client, cfg, origin, crawlLog);
        out('');
        for (const line of formatDemoTable(rows)) out(line);
        out('');
        // The same cluster and settings as this run (the user's --conf and --set), pointed at every
        // index of the demo by one file; runnable as printed from the project after npm ci.
        const own = (values.conf as string[] | undefined) ?? [];
        const sets = ((values.set as string[] | undefined) ?? []).map((e) => `--set ${shellWord(e)}`);
        const demoConf = `--conf ${shellWord(demoConfPath())}`;
        const options = [...own.map((f) => `--conf ${shellWord(f)}`), demoConf, ...sets];
        out(`Where to look next (${demoConf} points a command at all the demo's indices):`);
        for (const l of commandLines(['npx crawler stats', ...options])) out(l);
        for (const l of commandLines([`npx crawler url ${origin}/missing`, ...options])) out(l);
        for (const l of commandLines([`npx crawler url ${origin}/good --text`, ...options])) out(l);
        out(
          '  OpenSearch Dashboards: scripts/import-dashboards, then the "Crawl status (os-crawler)" dashboard',
        );
        out('  (index patterns status, content, transitions*; for the demo indices add patterns');
        out(
          `  ${cfg['opensearch.status.index.name']}, ${cfg['opensearch.indexer.index.name']} and ${cfg['status.transitions.index.name']}).`,
        );
        return 0;
      } finally {
        server.close();
      }
    });
  },
};
