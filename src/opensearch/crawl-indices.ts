import type { Client } from '@opensearch-project/opensearch';
import { distance } from '../config/nearest.js';
import type { Logger } from '../util/log.js';
import { count } from '../util/plural.js';
import { ensureIndices, type IndexOutcome, type IndicesConfig, planIndices } from './indices.js';

/** Other status indices named at most in the line (the closest names first). */
const NAMED_AT_MOST = 5;

/** A status index of the cluster: its name and how many URLs it holds. */
export interface StatusIndexInfo {
  readonly name: string;
  readonly docs: number;
}

/**
 * The indices of a crawl, created when missing, never silently: one line names those created, and
 * the other status indices of the cluster, closest names first, so that a mistyped
 * opensearch.status.index.name is seen at once rather than as a crawl that starts from nothing.
 */
export async function ensureCrawlIndices(
  client: Client,
  config: IndicesConfig,
  log: Logger,
): Promise<IndexOutcome[]> {
  const outcomes = await ensureIndices(client, planIndices(config));
  const created = outcomes.filter((o) => o.action === 'created');
  if (created.length === 0) return outcomes;
  const statusName = config['opensearch.status.index.name'];
  const others = (await statusIndices(client).catch(() => [])).filter((i) => i.name !== statusName);
  log.info({ created: created.map((o) => o.name) }, createdLine(created, statusName, others));
  return outcomes;
}

/** The line `ensureCrawlIndices` logs. */
export function createdLine(
  created: readonly IndexOutcome[],
  statusName: string,
  others: readonly StatusIndexInfo[],
): string {
  const names = created.map((o) => `"${o.name}" (${o.role})`).join(', ');
  const line = `created the ${created.length === 1 ? 'index' : 'indices'} ${names}`;
  if (!created.some((o) => o.role === 'status')) return line;
  if (others.length === 0) return `${line}: a new crawl`;
  const closest = [...others]
    .sort((a, b) => distance(statusName, a.name) - distance(statusName, b.name) || b.docs - a.docs)
    .slice(0, NAMED_AT_MOST);
  const shown = closest.map((i) => `"${i.name}" (${count(i.docs, 'URL')})`).join(', ');
  const more = others.length > closest.length ? ` and ${others.length - closest.length} more` : '';
  return (
    `${line}: a new crawl, while this cluster holds other status indices: ${shown}${more}; ` +
    'if you meant one of them, stop and set opensearch.status.index.name'
  );
}

/** The cluster's status indices: those whose mapping has the status document's fields. */
export async function statusIndices(client: Client): Promise<StatusIndexInfo[]> {
  const mappings = await client.indices.getMapping({ index: '*', expand_wildcards: 'open' });
  const names = Object.entries(
    mappings.body as unknown as Record<string, { mappings?: { properties?: Record<string, unknown> } }>,
  )
    .filter(([, m]) => {
      const p = m.mappings?.properties ?? {};
      return 'nextFetchDate' in p && 'status' in p && 'url' in p && 'key' in p;
    })
    .map(([name]) => name);
  if (names.length === 0) return [];
  const counts = await client.cat.indices({ format: 'json', h: ['index', 'docs.count'] });
  const docs = new Map(
    (counts.body as unknown as { index: string; 'docs.count': string }[]).map((r) => [
      r.index,
      Number(r['docs.count']) || 0,
    ]),
  );
  return names.map((name) => ({ name, docs: docs.get(name) ?? 0 }));
}
