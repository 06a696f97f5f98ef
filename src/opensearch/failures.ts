import { ClusterError, errorMessage } from '../util/errors.js';

/*
 * What the OpenSearch client throws, in words an operator can act on. Commands meet these when the
 * cluster answers but refuses (a missing index, a query it cannot parse) or goes away mid-command;
 * none of them is a bug, so none of them should reach the user as a stack trace.
 */

interface Cause {
  type?: string;
  reason?: string;
  index?: string;
  caused_by?: Cause;
  root_cause?: Cause[];
}

interface ClientError {
  name?: string;
  meta?: { statusCode?: number | null; body?: unknown };
}

/** The first line of the innermost reason: Lucene's parse errors go on for twenty lines. */
function innermost(c: Cause | undefined): string | undefined {
  let reason: string | undefined;
  for (let cur = c, depth = 0; cur && depth < 10; cur = cur.caused_by, depth++) {
    if (cur.reason) reason = cur.reason;
  }
  return reason?.split('\n')[0]?.trim();
}

const CONNECTION_ERRORS = new Set(['ConnectionError', 'TimeoutError', 'NoLivingConnectionsError']);

/**
 * A ClusterError for an error of the OpenSearch client (code INDEX_NOT_FOUND, CLUSTER_REFUSED,
 * CLUSTER_CREDENTIALS or CLUSTER_UNREACHABLE), or undefined when `e` is not one.
 */
export function clusterFailure(e: unknown): ClusterError | undefined {
  if (e instanceof ClusterError) return e;
  const err = e as ClientError | null;
  const name = err?.name;
  if (name !== undefined && CONNECTION_ERRORS.has(name)) {
    return new ClusterError(
      'CLUSTER_UNREACHABLE',
      `lost the connection to OpenSearch (${errorMessage(e)}); check that the cluster is up and try again`,
      { cause: e },
    );
  }
  if (name !== 'ResponseError') return undefined;
  const status = err?.meta?.statusCode ?? 0;
  const body = err?.meta?.body as { error?: Cause | string } | undefined;
  const error = typeof body?.error === 'object' ? body.error : undefined;
  const root = error?.root_cause?.[0] ?? error;
  if (root?.type === 'index_not_found_exception' || error?.type === 'index_not_found_exception') {
    const index = root?.index ?? error?.index ?? '?';
    return new ClusterError(
      'INDEX_NOT_FOUND',
      `the index "${index}" does not exist: run "crawler init" to create the indices, or check the ` +
        'index name (opensearch.status.index.name, opensearch.indexer.index.name)',
      { cause: e },
    );
  }
  if (status === 401 || status === 403) {
    return new ClusterError(
      'CLUSTER_CREDENTIALS',
      `OpenSearch refused our credentials (HTTP ${status}): set OPENSEARCH_USERNAME / OPENSEARCH_PASSWORD ` +
        'or opensearch.user / opensearch.password',
      { cause: e },
    );
  }
  // The shard-level cause says what was wrong ("Failed to parse query [status:(]"); the innermost
  // one says why ("Encountered "<EOF>" at line 1, column 8.").
  const shard = (error as { failed_shards?: { reason?: Cause }[] } | undefined)?.failed_shards?.[0]?.reason;
  const what = root?.reason ?? (typeof body?.error === 'string' ? body.error : undefined);
  const why = innermost(shard ?? error);
  const reason = [what, why && why !== what ? why : undefined].filter(Boolean).join(': ');
  return new ClusterError(
    'CLUSTER_REFUSED',
    `OpenSearch refused the request (HTTP ${status}${root?.type ? `, ${root.type}` : ''}): ${reason || errorMessage(e)}`,
    { cause: e },
  );
}
