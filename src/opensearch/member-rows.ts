import type { Client } from '@opensearch-project/opensearch';
import { type MemberDoc, Membership } from './membership.js';

/*
 * The members of an elastic crawl (`crawler run --join`) as operators see them (`crawler stats`, the
 * console): their shards (as the leases say), rates, last heartbeat, and the shards a member lost and
 * to whom. Nothing when no member ever joined.
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

/**
 * The members of the crawl of `crawl.statusIndex` (its status index has `crawl.shards` shards), oldest
 * first; [] when none ever joined (or the lease index does not exist).
 */
export async function memberRows(
  client: Client,
  crawl: { readonly leaseIndex: string; readonly statusIndex: string; readonly shards: number },
  now: number,
): Promise<MemberRow[]> {
  const { leaseIndex, statusIndex, shards } = crawl;
  if ((await client.indices.exists({ index: leaseIndex })).body !== true) return [];
  const membership = new Membership(client, leaseIndex, statusIndex, 0);
  const members = await membership.members().catch(() => [] as MemberDoc[]);
  if (members.length === 0) return [];
  const leases = await membership.leases(shards);
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
