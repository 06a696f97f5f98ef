import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ClusterError, ConfigError, errorMessage } from '../util/errors.js';
import { OPENSEARCH_SCRIPT, PACKAGE_ROOT } from './paths.js';

/*
 * The embedded node: the project's own single-node OpenSearch (scripts/opensearch), which the crawler
 * starts for a user who configured no cluster. It listens on 127.0.0.1:OPENSEARCH_PORT (9200 unless
 * set, as for the script) and stays up after the command, for the next one.
 */

type Env = Readonly<Record<string, string | undefined>>;

/** The cluster name scripts/opensearch gives its node: how the crawler knows the node is its own. */
export const EMBEDDED_CLUSTER_NAME = 'crawler-dev';

/** OPENSEARCH_PORT, as scripts/opensearch reads it (its transport port is PORT+100). */
export function embeddedPort(env: Env = process.env): number {
  const given = env.OPENSEARCH_PORT?.trim();
  if (!given) return 9200;
  const port = Number(given);
  if (!/^[1-9]\d{0,4}$/.test(given) || port > 65435) {
    throw new ConfigError([
      `OPENSEARCH_PORT has "${given}": expected a port number from 1 to 65435 (the embedded node's HTTP port)`,
    ]);
  }
  return port;
}

/** Where the embedded node answers. */
export function embeddedUrl(env: Env = process.env): string {
  return `http://127.0.0.1:${embeddedPort(env)}`;
}

/** The embedded node's own folder (data and logs), as scripts/opensearch lays it out. */
export function embeddedHome(env: Env = process.env): string {
  return join(env.OPENSEARCH_HOME || join(PACKAGE_ROOT, '.opensearch'), `node-${embeddedPort(env)}`);
}

/** What answers on the embedded node's address. */
export type Occupant =
  | { readonly kind: 'nothing' }
  | { readonly kind: 'ours' }
  | { readonly kind: 'opensearch'; readonly cluster: string; readonly version: string }
  | { readonly kind: 'other'; readonly what: string };

/** Looks at what answers `GET /` on `url`: nothing, the embedded node, another cluster, or else. */
export async function whoAnswers(url: string): Promise<Occupant> {
  let res: Response;
  try {
    res = await fetch(`${url}/`, { signal: AbortSignal.timeout(5000) });
  } catch (e) {
    const code = (e as { cause?: { code?: string } }).cause?.code;
    if (code === 'ECONNREFUSED') return { kind: 'nothing' };
    return {
      kind: 'other',
      what: `something that takes connections but does not answer HTTP (${code ?? errorMessage(e)})`,
    };
  }
  const server = res.headers.get('server');
  const text = await res.text().catch(() => '');
  if (res.status === 401 || res.status === 403) {
    return {
      kind: 'other',
      what: `a server that asks for credentials (HTTP ${res.status}), not the embedded node`,
    };
  }
  let body: { cluster_name?: unknown; version?: { number?: unknown; distribution?: unknown } } | undefined;
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    body = undefined;
  }
  if (body && typeof body.cluster_name === 'string') {
    if (body.cluster_name === EMBEDDED_CLUSTER_NAME) return { kind: 'ours' };
    const product = body.version?.distribution === 'opensearch' ? 'OpenSearch' : 'Elasticsearch';
    return {
      kind: 'opensearch',
      cluster: body.cluster_name,
      version: `${product} ${String(body.version?.number ?? '?')}`,
    };
  }
  return {
    kind: 'other',
    what: `an HTTP server that is not OpenSearch (HTTP ${res.status}${server ? `, Server: ${server}` : ''})`,
  };
}

/** Why the crawler does not use what answers on the embedded node's address, and what to do. */
export function occupiedMessage(
  occupant: Exclude<Occupant, { kind: 'nothing' | 'ours' }>,
  env: Env = process.env,
): string {
  const url = embeddedUrl(env);
  const port = embeddedPort(env);
  const what =
    occupant.kind === 'opensearch'
      ? `${occupant.version}, cluster "${occupant.cluster}", which is not the crawler's embedded node`
      : occupant.what;
  const next = port < 65435 ? port + 1 : port - 1;
  return (
    `${url} is taken by ${what}. With no OPENSEARCH_URL the crawler uses only its own node there: ` +
    `set OPENSEARCH_URL=${url} (or opensearch.addresses) to crawl into that cluster, ` +
    `or OPENSEARCH_PORT=${next} to start the embedded node on another port`
  );
}

/** The one line that says the embedded node is being started, for how long it stays and how to stop it. */
export function startingMessage(env: Env = process.env): string {
  return (
    `no OpenSearch answers at ${embeddedUrl(env)} and OPENSEARCH_URL is unset: starting the embedded node ` +
    `(scripts/opensearch start; heap ${env.OPENSEARCH_HEAP || '1g'}, data in ${embeddedHome(env)}; the first ` +
    'start downloads its jars with Maven). It stays up for the next commands: "crawler opensearch stop" stops it'
  );
}

/** Said when a crawl on the embedded node ends: the node is still running. */
export function stillRunningMessage(env: Env = process.env): string {
  return (
    `the embedded OpenSearch at ${embeddedUrl(env)} keeps running for the next commands ` +
    `(heap ${env.OPENSEARCH_HEAP || '1g'}); "crawler opensearch stop" stops it`
  );
}

const run = promisify(execFile);

/** Starts the embedded node with scripts/opensearch (idempotent; waits until it answers). */
export async function startEmbedded(env: Env = process.env): Promise<void> {
  const port = embeddedPort(env);
  try {
    await run(OPENSEARCH_SCRIPT, ['start'], {
      env: { ...process.env, ...env, OPENSEARCH_PORT: String(port) },
      timeout: 600_000,
    });
  } catch (e) {
    const out = (e as { stderr?: string; stdout?: string }).stderr || (e as { stdout?: string }).stdout || '';
    const last = out.trim().split('\n').slice(-5).join(' | ');
    throw new ClusterError(
      'EMBEDDED_START_FAILED',
      `could not start the embedded OpenSearch on port ${port} (${OPENSEARCH_SCRIPT} start): ` +
        `${last || errorMessage(e)}; or set OPENSEARCH_URL to a running cluster`,
    );
  }
}
