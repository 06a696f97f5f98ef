import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import type {} from 'vitest';
import type { TestProject } from 'vitest/node';
import { buildCli } from './child.js';
import { testNodePort } from './test-node.js';
import { startSharedTika } from './tika-server.js';

const run = promisify(execFile);
const SCRIPT = new URL('../../scripts/opensearch', import.meta.url).pathname;

declare module 'vitest' {
  export interface ProvidedContext {
    opensearchUrl: string;
    /** The shared Tika server (test/support/tika.ts waits for it). */
    tikaUrl: string;
  }
}

async function answers(url: string): Promise<boolean> {
  try {
    const res = await fetch(`${url}/_cluster/health`, { signal: AbortSignal.timeout(2000) });
    return res.ok;
  } catch {
    return false;
  }
}

function dockerAnswers(): boolean {
  try {
    execFileSync('docker', ['info'], { stdio: 'ignore', timeout: 5000 });
    return true;
  } catch {
    return false;
  }
}

/**
 * Where integration tests get OpenSearch, in order: OPENSEARCH_URL when set; else a testcontainers
 * OpenSearch 2.19 when a Docker engine answers; else the project's own node (scripts/opensearch) on
 * OPENSEARCH_TEST_PORT (default 9299, never the 9200 of the user's own crawls; see test-node.ts),
 * started here if nothing answers and stopped at the end unless it was already running or
 * OPENSEARCH_KEEP=1.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // dist/ once for the whole run, before any test file starts: files that spawn the CLI would
  // otherwise rebuild it while another file's child process is loading it.
  buildCli();
  process.env.CRAWLER_TEST_DIST_BUILT = '1';
  // Tika is started in the background once OpenSearch is up (test/support/tika.ts).
  let stopTika: () => Promise<void> = async () => {};
  const startTika = () => {
    stopTika = startSharedTika(project);
  };
  const given = process.env.OPENSEARCH_URL;
  if (given) {
    project.provide('opensearchUrl', given.replace(/\/$/, ''));
    startTika();
    return () => stopTika();
  }
  if (dockerAnswers()) {
    const { GenericContainer, Wait } = await import('testcontainers');
    const container = await new GenericContainer('opensearchproject/opensearch:2.19.1')
      .withEnvironment({
        'discovery.type': 'single-node',
        DISABLE_SECURITY_PLUGIN: 'true',
        DISABLE_INSTALL_DEMO_CONFIG: 'true',
        OPENSEARCH_JAVA_OPTS: '-Xms1g -Xmx1g',
      })
      .withExposedPorts(9200)
      .withWaitStrategy(Wait.forHttp('/_cluster/health', 9200).forStatusCode(200))
      .withStartupTimeout(180_000)
      .start();
    project.provide('opensearchUrl', `http://${container.getHost()}:${container.getMappedPort(9200)}`);
    startTika();
    return async () => {
      await stopTika();
      await container.stop();
    };
  }
  const port = testNodePort(process.env);
  const url = `http://127.0.0.1:${port}`;
  const env = { ...process.env, OPENSEARCH_PORT: port };
  let started = false;
  if (!(await answers(url))) {
    await run(SCRIPT, ['start'], { env, timeout: 600_000 });
    started = true;
  }
  project.provide('opensearchUrl', url);
  // A crawler started by a test without an address goes to this node too, never to 9200.
  process.env.OPENSEARCH_PORT = port;
  startTika();
  return async () => {
    await stopTika();
    if (started && process.env.OPENSEARCH_KEEP !== '1')
      await run(SCRIPT, ['stop'], { env, timeout: 120_000 });
  };
}
