import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@opensearch-project/opensearch';
import type { Config } from '../config/schema.js';
import { MAPPINGS_DIR } from './paths.js';

/** The indices whose definitions are in mappings/ (metrics: the daily metrics indices, src/metrics). */
export type IndexRole = 'status' | 'content' | 'transitions' | 'hosts' | 'metrics';

/** The keys that name the crawl's indices and size them. */
export type IndicesConfig = Pick<
  Config,
  | 'opensearch.status.index.name'
  | 'opensearch.status.shards'
  | 'opensearch.status.replicas'
  | 'opensearch.indexer.index.name'
  | 'opensearch.indexer.shards'
  | 'opensearch.indexer.replicas'
  | 'opensearch.hosts.index.name'
  | 'status.transitions.index.name'
>;

export interface IndexBody {
  settings: { index: Record<string, unknown> };
  mappings: Record<string, unknown>;
}

export interface IndexPlan {
  readonly role: IndexRole;
  readonly name: string;
  readonly body: IndexBody;
}

export type IndexAction = 'created' | 'exists' | 'recreated';

export interface IndexOutcome {
  readonly role: IndexRole;
  readonly name: string;
  readonly action: IndexAction;
}

export function readMapping(role: IndexRole): IndexBody {
  return JSON.parse(readFileSync(join(MAPPINGS_DIR, `${role}.json`), 'utf8')) as IndexBody;
}

/**
 * The replica settings of an index: a number as given, or `auto`: OpenSearch's own
 * auto_expand_replicas 0-1, so one replica whenever the cluster has more than one data node and
 * none on a single node, adjusted by the cluster itself as data nodes join or leave (a node that
 * grows into a cluster gets its replicas without a `crawler init --recreate`).
 */
export function replicaSettings(replicas: number | 'auto'): Record<string, unknown> {
  return replicas === 'auto'
    ? { auto_expand_replicas: '0-1' }
    : { number_of_replicas: replicas, auto_expand_replicas: false };
}

/**
 * The indices with names and shard/replica counts from the config: status, content, the hosts index
 * (one document per host: soft-404 probes) and the transitions index when one is named.
 */
export function planIndices(config: IndicesConfig): IndexPlan[] {
  const plan = (role: IndexRole, name: string, shards: number, replicas: number | 'auto'): IndexPlan => {
    const body = readMapping(role);
    body.settings.index.number_of_shards = shards;
    delete body.settings.index.number_of_replicas;
    Object.assign(body.settings.index, replicaSettings(replicas));
    return { role, name, body };
  };
  const plans = [
    plan(
      'status',
      config['opensearch.status.index.name'],
      config['opensearch.status.shards'],
      config['opensearch.status.replicas'],
    ),
    plan(
      'content',
      config['opensearch.indexer.index.name'],
      config['opensearch.indexer.shards'],
      config['opensearch.indexer.replicas'],
    ),
  ];
  plans.push(plan('hosts', config['opensearch.hosts.index.name'], 1, config['opensearch.status.replicas']));
  const transitions = config['status.transitions.index.name'];
  if (transitions !== '')
    plans.push(plan('transitions', transitions, 1, config['opensearch.status.replicas']));
  return plans;
}

/**
 * The per-host index (opensearch.hosts.index.name): one document per host, id = the host, each
 * feature's facts under an object of its own (`render`...). Small: one shard. Not in `planIndices`:
 * the features that use it create it when they first write (a crawl that renders nothing never does).
 */
export function planHostsIndex(config: IndicesConfig): IndexPlan {
  const body = readMapping('hosts');
  delete body.settings.index.number_of_replicas;
  Object.assign(body.settings.index, replicaSettings(config['opensearch.status.replicas']));
  return { role: 'hosts', name: config['opensearch.hosts.index.name'], body };
}

async function exists(client: Client, name: string): Promise<boolean> {
  const res = await client.indices.exists({ index: name });
  return res.body === true;
}

/**
 * Fields of the mapping file an existing index lacks (added by a newer version, such as the
 * near-duplicate fields of the content index) are added to it: new fields only, which OpenSearch
 * allows on a live index; nothing else is compared or changed.
 */
async function addMissingFields(client: Client, name: string, body: IndexBody): Promise<void> {
  const wanted = (body.mappings.properties ?? {}) as Record<string, unknown>;
  const res = await client.indices.getMapping({ index: name });
  const current = Object.values(res.body)[0] as { mappings?: { properties?: Record<string, unknown> } };
  const have = current?.mappings?.properties ?? {};
  const missing = Object.fromEntries(Object.entries(wanted).filter(([k]) => !(k in have)));
  if (Object.keys(missing).length === 0) return;
  await client.indices.putMapping({ index: name, body: { properties: missing } as never });
}

/**
 * Creates the indices that are missing; with `recreate`, drops and creates them. Idempotent: an
 * existing index is left as it is, but for the fields of its mapping file it lacks (added).
 */
export async function ensureIndices(
  client: Client,
  plans: readonly IndexPlan[],
  options: { recreate?: boolean } = {},
): Promise<IndexOutcome[]> {
  const out: IndexOutcome[] = [];
  for (const { role, name, body } of plans) {
    const present = await exists(client, name);
    if (present && !options.recreate) {
      await addMissingFields(client, name, body);
      out.push({ role, name, action: 'exists' });
      continue;
    }
    if (present) await client.indices.delete({ index: name });
    try {
      await client.indices.create({ index: name, body: body as never, wait_for_active_shards: '1' });
    } catch (e) {
      // Another process (a second instance starting at the same time) may have won the race.
      const type = (e as { meta?: { body?: { error?: { type?: string } } } }).meta?.body?.error?.type;
      if (type !== 'resource_already_exists_exception') throw e;
      out.push({ role, name, action: 'exists' });
      continue;
    }
    out.push({ role, name, action: present ? 'recreated' : 'created' });
  }
  return out;
}
