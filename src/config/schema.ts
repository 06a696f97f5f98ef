import type { KeyDef, PatternDef, ValueOf } from './define.js';
import { agentKeys } from './keys/agent.js';
import { daemonKeys } from './keys/daemon.js';
import { dedupKeys } from './keys/dedup.js';
import { fetcherKeys } from './keys/fetcher.js';
import { filterKeys } from './keys/filters.js';
import { leaseKeys } from './keys/lease.js';
import { monitoringKeys } from './keys/monitoring.js';
import { opensearchKeys } from './keys/opensearch.js';
import { parseKeys } from './keys/parse.js';
import { protocolKeys } from './keys/protocol.js';
import { renderKeys } from './keys/render.js';
import { rulesKeys } from './keys/rules.js';
import { tikaKeys } from './keys/tika.js';
import { warcKeys } from './keys/warc.js';

/** Every known configuration key. Add a role's keys in `keys/<role>.ts` and list them here. */
export const KEYS = {
  ...opensearchKeys,
  ...agentKeys,
  ...rulesKeys,
  ...fetcherKeys,
  ...daemonKeys,
  ...protocolKeys,
  ...filterKeys,
  ...parseKeys,
  ...warcKeys,
  ...renderKeys,
  ...monitoringKeys,
  ...leaseKeys,
  ...dedupKeys,
  ...tikaKeys,
} as const satisfies Record<string, KeyDef>;

export type KeyName = keyof typeof KEYS;

/** Families of keys whose names carry data. Values keep the order of the merged config. */
export const PATTERNS: readonly PatternDef[] = [
  {
    // StormCrawler's regex: the optional status is lazy and the last "=" separates key from value.
    pattern: /^fetchInterval(\..+?)?\.(.+)=(.+)$/,
    kind: 'number',
    example: 'fetchInterval.FETCHED.isFeed=true',
    doc: 'custom interval in minutes for URLs whose metadata has key=value, optionally for one status',
  },
  {
    pattern: /^fetcher\.maxThreads\.(.+)$/,
    kind: 'integer',
    example: 'fetcher.maxThreads.example\\.com',
    doc: 'threads for fetch queues whose id matches the regex',
  },
  {
    pattern: /^opensearch\.(status|indexer|transitions)\.(addresses|user|password)$/,
    kind: 'string',
    example: 'opensearch.status.addresses',
    doc: 'per-index connection settings; fall back to opensearch.<name>',
  },
  {
    pattern: /^opensearch\.(status|indexer|transitions)\.sniff$/,
    kind: 'boolean',
    example: 'opensearch.status.sniff',
    doc: 'per-index sniffing; falls back to opensearch.sniff',
  },
];

export type ConfigValues = { readonly [K in KeyName]: ValueOf<(typeof KEYS)[K]> };

export interface PatternedEntry {
  readonly key: string;
  readonly value: number | string | boolean;
}

/** A validated configuration: typed known keys plus the patterned families, in config order. */
export type Config = ConfigValues & {
  readonly patterned: readonly PatternedEntry[];
  /** Where each key's value came from: "default", a file path, "env OPENSEARCH_URL" or "--set". */
  readonly origin: ReadonlyMap<string, string>;
};

export function defaultValues(): Record<KeyName, unknown> {
  const out = {} as Record<KeyName, unknown>;
  for (const [k, def] of Object.entries(KEYS) as [KeyName, KeyDef][]) out[k] = def.default;
  return out;
}
