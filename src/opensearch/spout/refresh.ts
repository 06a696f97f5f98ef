import type { Client } from '@opensearch-project/opensearch';
import { IndexRed } from './answers.js';

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** An OpenSearch time value ("1s", "500ms", "-1") in ms; undefined when it cannot be read. */
export function timeValueMs(value: unknown): number | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const m = /^(-?\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?$/.exec(String(value).trim());
  if (!m) return undefined;
  const n = Number(m[1]);
  return n < 0 ? -1 : n * (UNITS[m[2] ?? 'ms'] ?? 1);
}

/**
 * The refresh interval of an index (its own setting, else the cluster default) in ms, -1 when
 * refreshes happen only on demand; undefined when the settings cannot be read (the caller keeps its
 * assumption). With several indices behind a name (an alias), the longest.
 */
export async function refreshIntervalMs(client: Client, index: string): Promise<number | undefined> {
  try {
    const res = await client.indices.getSettings({
      index,
      name: 'index.refresh_interval',
      include_defaults: true,
      flat_settings: true,
    });
    let longest: number | undefined;
    for (const s of Object.values(res.body as Record<string, Record<string, Record<string, unknown>>>)) {
      const ms = timeValueMs(
        s.settings?.['index.refresh_interval'] ?? s.defaults?.['index.refresh_interval'],
      );
      if (ms === undefined) continue;
      if (ms < 0) return -1;
      longest = Math.max(longest ?? 0, ms);
    }
    return longest;
  } catch {
    return undefined;
  }
}

/**
 * Refreshes `index` so that every write acknowledged before is visible to queries; resolves to the
 * time the refresh started. Throws IndexRed rather than wait on a shard without an active copy.
 */
export async function refreshIndex(client: Client, index: string, now: () => number): Promise<number> {
  // A refresh waits for a shard without an active copy until it times out: ask first.
  const health = await client.cluster.health({ index, timeout: '0s' });
  if (health.body.status === 'red') throw new IndexRed(`index ${index} is red`);
  const startedAt = now();
  await client.indices.refresh({ index });
  return startedAt;
}
