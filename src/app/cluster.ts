import type { Client } from '@opensearch-project/opensearch';
import type { Config } from '../config/schema.js';
import { connect, usesEmbedded } from '../opensearch/client.js';
import { ensureCrawlIndices } from '../opensearch/crawl-indices.js';
import { embeddedUrl, stillRunningMessage } from '../opensearch/embedded.js';
import { checkAgentName } from '../protocol/http/user-agent.js';
import type { Logger } from '../util/log.js';
import { statusShardCount } from './shards.js';

/*
 * The cluster a crawl runs against: connected (the embedded node started when nothing is
 * configured), its indices created when missing, and the line that says the embedded node is left
 * running after the crawl.
 */

/** A connection whose crawl indices exist; the caller closes the client. */
export interface OpenCluster {
  readonly client: Client;
  /** The cluster's first address, for logs. */
  readonly url: string | undefined;
}

/** Connects and creates the missing crawl indices; the client is closed again when that fails. */
export async function openCluster(config: Config, log: Logger): Promise<OpenCluster> {
  const { client, url } = await connect(config, log);
  try {
    await ensureCrawlIndices(client, config, log);
    return { client, url };
  } catch (e) {
    await client.close();
    throw e;
  }
}

/** The cluster as a supervisor of worker processes sees it before it starts them. */
export interface ClusterCheck extends OpenCluster {
  readonly statusShards: number;
}

/**
 * For `crawler run --workers`: connects (starting the embedded node when nothing is configured, so
 * that the workers do not race to), creates missing indices and reads the status shard count.
 * The caller closes the client.
 */
export async function checkCluster(config: Config, log: Logger): Promise<ClusterCheck> {
  checkAgentName(config['http.agent.name']);
  const { client, url } = await openCluster(config, log);
  try {
    return { client, url, statusShards: await statusShardCount(client, config) };
  } catch (e) {
    await client.close();
    throw e;
  }
}

/**
 * The line for after a crawl that ran on the embedded node (`url`, by default its address): the
 * node keeps running for the next command. Undefined when the crawl used a configured cluster.
 */
export function embeddedLeftRunning(config: Config, url: string = embeddedUrl()): string | undefined {
  return usesEmbedded(config, url) ? stillRunningMessage() : undefined;
}
