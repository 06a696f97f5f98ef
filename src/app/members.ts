import type { Client } from '@opensearch-project/opensearch';
import type { Config } from '../config/schema.js';
import { type MemberRow, memberRows as rowsOf } from '../opensearch/member-rows.js';
import { statusShardCount } from './shards.js';

/*
 * `crawler stats`: the members of the elastic crawl of the status index (`crawler run --join`), as
 * their heartbeats tell (opensearch/member-rows.ts). Nothing when no member ever joined.
 */

export type { MemberRow };

/** The members, oldest first; [] when none ever joined (or the lease index does not exist). */
/** The members of the configured crawl as of `now` (ms). */
export async function memberRows(client: Client, config: Config, now: number): Promise<MemberRow[]> {
  const index = config['opensearch.lease.index.name'];
  if ((await client.indices.exists({ index })).body !== true) return [];
  const shards = await statusShardCount(client, config);
  return rowsOf(
    client,
    { leaseIndex: index, statusIndex: config['opensearch.status.index.name'], shards },
    now,
  );
}

/** The lines `crawler stats` prints for the members. */
export function memberLines(rows: readonly MemberRow[]): string[] {
  if (rows.length === 0) return [];
  const live = rows.filter((r) => r.live).length;
  const out = [`  members of the elastic crawl (crawler run --join): ${live} live of ${rows.length}`];
  for (const r of rows) {
    const state = r.live ? 'live' : 'gone';
    const shards = r.shards.length > 0 ? `shards ${r.shards.join(',')}` : 'no shards';
    out.push(
      `    ${r.member}  ${state}  ${shards}  ${r.pagesPerSec} pages/s  ${r.fetched} fetched  ` +
        `last heartbeat ${r.heartbeatSecAgo} s ago`,
    );
    for (const l of r.lost)
      out.push(`      lost shard ${l.shard} to ${l.to} at ${new Date(l.at).toISOString()}`);
  }
  return out;
}
