import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Client } from '@opensearch-project/opensearch';
import { inject } from 'vitest';
import { testNodePort } from './test-node.js';

const run = promisify(execFile);
export const OPENSEARCH_SCRIPT = new URL('../../scripts/opensearch', import.meta.url).pathname;

/** The three-node cluster of the `cluster` test project (test/support/cluster-setup.ts). */
export interface ClusterInfo {
  /** HTTP port of the first node; the others follow it. */
  readonly port: number;
  readonly nodes: number;
  /** Every node's address, in port order. */
  readonly addresses: readonly string[];
  /** JVM heap of each node. */
  readonly heap: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    cluster: ClusterInfo;
  }
}

/** The cluster's HTTP port: OPENSEARCH_CLUSTER_TEST_PORT, else ten above the single node's. */
export function clusterPort(env: NodeJS.ProcessEnv = process.env): number {
  if (env.OPENSEARCH_CLUSTER_TEST_PORT) return Number(env.OPENSEARCH_CLUSTER_TEST_PORT);
  return Number(testNodePort(env)) + 10;
}

export function clusterInfo(): ClusterInfo {
  return inject('cluster');
}

/**
 * Environment for scripts/opensearch to act on the test cluster. Its nodes run the JIT's first tier
 * only: a node then starts on about half the CPU (13 s instead of 24 s here), and the tests start
 * nodes five times; their queries are small enough not to miss the second tier.
 */
export function clusterEnv(info: ClusterInfo): NodeJS.ProcessEnv {
  return {
    ...process.env,
    OPENSEARCH_PORT: String(info.port),
    OPENSEARCH_NODES: String(info.nodes),
    OPENSEARCH_HEAP: info.heap,
    OPENSEARCH_JAVA_OPTS: `-XX:TieredStopAtLevel=1 ${process.env.OPENSEARCH_JAVA_OPTS ?? ''}`.trim(),
    OPENSEARCH_START_TIMEOUT: process.env.OPENSEARCH_START_TIMEOUT ?? '600',
  };
}

/**
 * `scripts/opensearch start` for the cluster: starts the nodes that are not running and waits until
 * all of them are in the cluster (yellow or green). A start already under way (the set-up's) is
 * waited for, not repeated.
 */
export async function startCluster(info: ClusterInfo): Promise<void> {
  await run(OPENSEARCH_SCRIPT, ['start'], { env: clusterEnv(info), timeout: 600_000 });
}

export async function stopCluster(info: ClusterInfo): Promise<void> {
  await run(OPENSEARCH_SCRIPT, ['stop'], { env: clusterEnv(info), timeout: 180_000 });
}

/** Node name (node-<port>) -> pid of its JVM, from `scripts/opensearch status`. */
export async function nodePids(info: ClusterInfo): Promise<Map<string, number>> {
  const out = await run(OPENSEARCH_SCRIPT, ['status'], { env: clusterEnv(info) }).then(
    (r) => r.stdout,
    (e: { stdout?: string }) => e.stdout ?? '',
  );
  const pids = new Map<string, number>();
  for (const m of out.matchAll(/^(node-\d+) running \S+ \(pid (\d+)/gm)) pids.set(m[1]!, Number(m[2]));
  return pids;
}

/** A client on every node of the cluster, as a crawler configured with all addresses has. */
export function clusterClient(info: ClusterInfo): Client {
  return new Client({ nodes: [...info.addresses], maxRetries: info.nodes, requestTimeout: 60_000 });
}

/** Resolves once the cluster has all its nodes and is green (every shard copy assigned). */
export async function waitGreen(client: Client, info: ClusterInfo, timeoutSecs = 300): Promise<void> {
  const res = await client.cluster.health({
    wait_for_status: 'green',
    wait_for_nodes: String(info.nodes),
    wait_for_no_initializing_shards: true,
    wait_for_no_relocating_shards: true,
    timeout: `${timeoutSecs}s`,
  });
  if (res.body.timed_out) {
    throw new Error(`the cluster did not turn green with ${info.nodes} nodes: ${JSON.stringify(res.body)}`);
  }
}

/** The node holding the primary of shard `shard` of `index`. */
export async function primaryNode(client: Client, index: string, shard = 0): Promise<string> {
  const res = await client.cat.shards({ index, format: 'json' });
  const rows = res.body as unknown as { shard: string; prirep: string; state: string; node?: string }[];
  const row = rows.find((r) => r.shard === String(shard) && r.prirep === 'p' && r.state === 'STARTED');
  if (!row?.node) throw new Error(`no started primary of ${index}[${shard}]: ${JSON.stringify(rows)}`);
  return row.node;
}

/** Sends `signal` to the node's JVM and resolves once it has exited. */
export async function signalNode(
  info: ClusterInfo,
  node: string,
  signal: 'SIGKILL' | 'SIGTERM',
): Promise<void> {
  const pid = (await nodePids(info)).get(node);
  if (pid === undefined) throw new Error(`${node} is not running`);
  process.kill(pid, signal);
  const end = Date.now() + 120_000;
  while (alive(pid)) {
    if (Date.now() > end) throw new Error(`${node} (pid ${pid}) did not exit after ${signal}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Every document of `index` (up to 10,000), refreshed first. */
export async function allDocs(client: Client, index: string): Promise<Record<string, unknown>[]> {
  await client.indices.refresh({ index });
  const res = await client.search({ index, body: { size: 10_000, query: { match_all: {} } } });
  return (res.body.hits.hits as { _source: Record<string, unknown> }[]).map((h) => h._source);
}
