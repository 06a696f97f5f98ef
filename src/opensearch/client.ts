import { Client } from '@opensearch-project/opensearch';
import type { Config } from '../config/schema.js';
import { ClusterError, errorMessage } from '../util/errors.js';
import type { Logger } from '../util/log.js';
import { embeddedUrl, occupiedMessage, startEmbedded, startingMessage, whoAnswers } from './embedded.js';

/** Which set of connection settings: StormCrawler's `opensearch.<type>.*` falling back to `opensearch.*`. */
export type ConnectionType = 'status' | 'indexer' | 'transitions';

/** The keys a connection is made from (the opensearch.* and opensearch.<type>.* families). */
export type ConnectionConfig = Pick<
  Config,
  | 'patterned'
  | 'origin'
  | 'opensearch.addresses'
  | 'opensearch.sniff'
  | 'opensearch.embedded'
  | 'opensearch.user'
  | 'opensearch.password'
  | 'opensearch.disable.tls.validation'
  | 'opensearch.connect.timeout'
>;

export interface Connection {
  readonly client: Client;
  /** The first address, for messages. */
  readonly url: string;
}

/** Adds the scheme and port StormCrawler assumes: "host" means http://host:9200. */
export function normaliseAddress(address: string): string {
  const withScheme = /^https?:\/\//i.test(address) ? address : `http://${address}`;
  const u = new URL(withScheme);
  // Test the text, not u.port: URL drops a default port (":80") that the user did write.
  if (!/^https?:\/\/(\[[^\]]+\]|[^/:]+):\d+/i.test(withScheme)) u.port = '9200';
  return u.toString().replace(/\/$/, '');
}

function typed(
  config: ConnectionConfig,
  type: ConnectionType,
  name: 'addresses' | 'user' | 'password',
): string | undefined {
  const hit = config.patterned.find((e) => e.key === `opensearch.${type}.${name}`);
  return hit === undefined ? undefined : String(hit.value);
}

/** `opensearch.<type>.sniff`, falling back to `opensearch.sniff`. */
export function sniffFor(config: ConnectionConfig, type: ConnectionType): boolean {
  const hit = config.patterned.find((e) => e.key === `opensearch.${type}.sniff`);
  return hit === undefined ? config['opensearch.sniff'] : hit.value === true;
}

/** How often a sniffing client asks the cluster for its nodes (the Java client's Sniffer default). */
const SNIFF_INTERVAL_MS = 5 * 60_000;

export function addressesFor(config: ConnectionConfig, type: ConnectionType): string[] {
  const own = typed(config, type, 'addresses');
  // Nothing configured: the embedded node's address, whose port OPENSEARCH_PORT sets.
  const list =
    own !== undefined
      ? own.split(/ *[;,] */).filter(Boolean)
      : config.origin.has('opensearch.addresses')
        ? [...config['opensearch.addresses']]
        : [embeddedUrl()];
  return list.map(normaliseAddress);
}

/** True when the user configured no cluster at all, so the embedded node may be started for them. */
export function embeddedAllowed(config: ConnectionConfig): boolean {
  if (!config['opensearch.embedded']) return false;
  if (config.origin.has('opensearch.addresses')) return false;
  return !config.patterned.some((e) => /^opensearch\.\w+\.addresses$/.test(e.key));
}

export function createClient(config: ConnectionConfig, type: ConnectionType = 'status'): Connection {
  const nodes = addressesFor(config, type);
  const user = typed(config, type, 'user') ?? config['opensearch.user'];
  const password = typed(config, type, 'password') ?? config['opensearch.password'];
  const sniff = sniffFor(config, type);
  const client = new Client({
    nodes,
    auth: user ? { username: user, password } : undefined,
    ssl: config['opensearch.disable.tls.validation'] ? { rejectUnauthorized: false } : undefined,
    requestTimeout: config['opensearch.connect.timeout'],
    pingTimeout: Math.min(config['opensearch.connect.timeout'], 3000),
    // A request that gets no answer from one node (refused, reset, timed out) is sent to the next:
    // the client marks the node dead and tries it again later. With one node there is nothing to
    // try, and retries belong to the bulk writer's own backoff, which knows which items failed.
    maxRetries: sniff ? 3 : nodes.length - 1,
    ...(sniff ? { sniffOnStart: true, sniffInterval: SNIFF_INTERVAL_MS, sniffOnConnectionFault: true } : {}),
    compression: undefined,
  });
  return { client, url: nodes[0]! };
}

/** Why a ping failed: the cluster refused our credentials, or did not answer. */
interface ProbeFailure {
  readonly kind: 'credentials' | 'unreachable';
  /** In words an operator can act on. */
  readonly message: string;
}

async function probe(conn: Connection): Promise<ProbeFailure | undefined> {
  try {
    await conn.client.cluster.health({ timeout: '5s' });
    return undefined;
  } catch (e) {
    const status = (e as { meta?: { statusCode?: number } }).meta?.statusCode;
    if (status === 401 || status === 403) {
      return {
        kind: 'credentials',
        message: `refused our credentials (HTTP ${status}): set OPENSEARCH_USERNAME / OPENSEARCH_PASSWORD or opensearch.user / opensearch.password`,
      };
    }
    return { kind: 'unreachable', message: errorMessage(e) };
  }
}

/**
 * Returns a client whose cluster answers. With no cluster configured, only the crawler's own node
 * is used on 127.0.0.1:OPENSEARCH_PORT (9200 by default): started through scripts/opensearch when
 * nothing answers there (one log line says so and how to stop it), refused with what answers
 * instead when the port is taken by something else.
 */
export async function connect(
  config: ConnectionConfig,
  log: Logger,
  type: ConnectionType = 'status',
): Promise<Connection> {
  const conn = createClient(config, type);
  const problem = await probe(conn);
  if (!usesEmbedded(config, conn.url)) {
    if (problem === undefined) return conn;
    throw new ClusterError(
      'CLUSTER_UNREACHABLE',
      `cannot reach OpenSearch at ${conn.url}: ${problem.message}. ` +
        (problem.kind === 'credentials'
          ? ''
          : 'Start the cluster, or point OPENSEARCH_URL (or opensearch.addresses) at a running one; scripts/opensearch start runs a local node.'),
    );
  }
  const occupant = await whoAnswers(conn.url);
  if (occupant.kind === 'ours' && problem === undefined) return conn;
  if (occupant.kind !== 'ours' && occupant.kind !== 'nothing') {
    await conn.client.close();
    throw new ClusterError('PORT_TAKEN', occupiedMessage(occupant));
  }
  log.info(startingMessage());
  await startEmbedded();
  const again = await probe(conn);
  if (again === undefined) return conn;
  throw new ClusterError(
    'CLUSTER_UNREACHABLE',
    `the embedded OpenSearch at ${conn.url} started but does not answer: ${again.message}`,
  );
}

/** True when `url` is the embedded node's address and the user configured no cluster. */
export function usesEmbedded(config: ConnectionConfig, url: string): boolean {
  return embeddedAllowed(config) && url === embeddedUrl();
}
