import type { Client } from '@opensearch-project/opensearch';
import type { Config } from '../config/schema.js';
import { type MemberDoc, Membership } from '../opensearch/membership.js';
import { statusShardCount } from './shards.js';

/*
 * `crawler stats`: the members of the elastic crawl of the status index (`crawler run --join`), as
 * their heartbeats tell: their shards (as the leases say), rates, last heartbeat, and the shards a
 * member lost and to whom. Nothing when no member ever joined.
 */

export interface MemberRow {
  readonly member: string;
  readonly host: string;
  readonly pid: number;
  readonly live: boolean;
  /** The shards whose lease this member holds now. */
  readonly shards: readonly number[];
  readonly pagesPerSec: number;
  readonly fetched: number;
  readonly heartbeatSecAgo: number;
  readonly lost: MemberDoc['info']['lost'];
}

/** The members, oldest first; [] when none ever joined (or the lease index does not exist). */
export async function memberRows(client: Client, config: Config, now = Date.now()): Promise<MemberRow[]> {
  const index = config['opensearch.lease.index.name'];
  if ((await client.indices.exists({ index })).body !== true) return [];
  const membership = new Membership(client, index, config['opensearch.status.index.name'], 0);
  const members = await membership.members().catch(() => [] as MemberDoc[]);
  if (members.length === 0) return [];
  const leases = await membership.leases(await statusShardCount(client, config));
  return members.map((m) => ({
    member: m.member,
    host: m.host,
    pid: m.pid,
    live: m.expiresAt > now,
    shards: leases.filter((l) => l.member === m.member && l.expiresAt > now).map((l) => l.shard),
    pagesPerSec: m.info.pagesPerSec ?? 0,
    fetched: m.info.fetched ?? 0,
    heartbeatSecAgo: Math.max(0, Math.round((now - m.renewedAt) / 1000)),
    lost: m.info.lost ?? [],
  }));
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
