import type { TestProject } from 'vitest/node';
import { buildCli } from './child.js';
import { type ClusterInfo, clusterPort, startCluster, stopCluster } from './cluster.js';

const NODES = 3;

async function answers(address: string): Promise<boolean> {
  try {
    const res = await fetch(`${address}/_cluster/health`, { signal: AbortSignal.timeout(2000) });
    return res.ok;
  } catch {
    return false;
  }
}

/**
 * The `cluster` project's set-up: a three-node cluster (scripts/opensearch with OPENSEARCH_NODES=3)
 * on OPENSEARCH_CLUSTER_TEST_PORT (default: the test node's port + 10, so 9309-9311), each node with
 * OPENSEARCH_CLUSTER_HEAP (default 512m). Its start is only begun here: the cluster tests wait for it
 * in their own `beforeAll` (the start script serialises starts, so theirs finds the nodes this one
 * launched). Stopped at the end unless
 * it was running before or OPENSEARCH_KEEP=1.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // The integration project's set-up builds dist/ for the whole run; alone, this project does.
  buildCli();
  process.env.CRAWLER_TEST_DIST_BUILT = '1';
  const port = clusterPort();
  const info: ClusterInfo = {
    port,
    nodes: NODES,
    addresses: Array.from({ length: NODES }, (_, i) => `http://127.0.0.1:${port + i}`),
    heap: process.env.OPENSEARCH_CLUSTER_HEAP ?? '512m',
  };
  const running = (await Promise.all(info.addresses.map(answers))).every(Boolean);
  // Not awaited: the tests wait for it. Its failure is theirs to report (their start says why).
  const starting = running ? Promise.resolve() : startCluster(info).catch(() => {});
  project.provide('cluster', info);
  return async () => {
    await starting;
    if (!running && process.env.OPENSEARCH_KEEP !== '1') await stopCluster(info);
  };
}
