import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Client } from '@opensearch-project/opensearch';
import type { Config } from '../config/schema.js';
import { connect } from '../opensearch/client.js';
import { embeddedPort } from '../opensearch/embedded.js';
import { ensureIndices, type IndexOutcome, planIndices } from '../opensearch/indices.js';
import { OPENSEARCH_SCRIPT } from '../opensearch/paths.js';
import { type RenderSummary, renderSummary } from '../opensearch/render-decisions.js';
import { type CrawlStats, crawlStats } from '../opensearch/stats.js';
import { systemClock } from '../util/clock.js';
import type { Logger } from '../util/log.js';
import { type MemberRow, memberRows } from './members.js';

/*
 * The short commands over the cluster (init, stats, opensearch, and the client for the demo): each
 * connects, does its one thing and closes; cli/ prints what they return.
 */

/** Runs `fn` with a connection to the configured cluster (its first address too), closed after. */
export async function withCluster<T>(
  config: Config,
  log: Logger,
  fn: (client: Client, url: string | undefined) => Promise<T>,
): Promise<T> {
  const { client, url } = await connect(config, log);
  try {
    return await fn(client, url);
  } finally {
    await client.close();
  }
}

/** `crawler init`: the crawl's indices created (or dropped and created), as each ended. */
export function initIndices(
  config: Config,
  log: Logger,
  recreate: boolean,
): Promise<{ url: string | undefined; outcomes: IndexOutcome[] }> {
  return withCluster(config, log, async (client, url) => ({
    url,
    outcomes: await ensureIndices(client, planIndices(config), { recreate }),
  }));
}

export interface StatsReport {
  readonly stats: CrawlStats;
  /** Undefined when the hosts index cannot be read. */
  readonly rendering: RenderSummary | undefined;
  readonly members: MemberRow[];
}

/** `crawler stats`: the status index's counts as of now (refreshed first), rendering and members. */
export function statsReport(config: Config, log: Logger, host: string | undefined): Promise<StatsReport> {
  return withCluster(config, log, async (client) => {
    // Counts as of now, not as of the last periodic refresh.
    await client.indices.refresh({ index: config['opensearch.status.index.name'] });
    const stats = await crawlStats(client, config['opensearch.status.index.name'], {
      host,
      now: systemClock.now(),
    });
    const rendering = await renderSummary(client, config['opensearch.hosts.index.name']).catch(
      () => undefined,
    );
    const members = await memberRows(client, config, systemClock.now()).catch(() => []);
    return { stats, rendering, members };
  });
}

/**
 * `crawler opensearch status|stop|start`: scripts/opensearch on the embedded node's port, its
 * answer lines to `out`; resolves to the script's exit code.
 */
export function embeddedNode(action: string, out: (line: string) => void): Promise<number> {
  const child = spawn(OPENSEARCH_SCRIPT, [action], {
    env: { ...process.env, OPENSEARCH_PORT: String(embeddedPort()) },
    // The script's progress lines go to stderr as they come; its answer is the command's output.
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  createInterface({ input: child.stdout! }).on('line', (line) => out(line));
  return new Promise<number>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve(code ?? 1));
  });
}
