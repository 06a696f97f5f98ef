import { createHash } from 'node:crypto';
import type { Config } from '../config/schema.js';

/*
 * The arithmetic of an elastic crawl (`crawler run --join`), pure: each live member's fair number of
 * status shards, what a member takes or releases to get there, and the settings members must share.
 */

/** A live member, in the order of its first heartbeat (the oldest first). */
export interface LiveMember {
  readonly member: string;
  readonly since: number;
}

/**
 * The fair share of `member`: shards / live members, the remainder going to the oldest members (so
 * that a join or a departure moves as few shards as it can). 0 for a member not in the list.
 */
export function quota(total: number, members: readonly LiveMember[], member: string): number {
  const i = members.findIndex((m) => m.member === member);
  if (i < 0 || members.length === 0) return 0;
  const base = Math.floor(total / members.length);
  return base + (i < total % members.length ? 1 : 0);
}

/** A shard's lease as the plan sees it: who holds it (undefined: nobody) and until when. */
export interface LeaseView {
  readonly shard: number;
  readonly member: string | undefined;
  readonly expiresAt: number;
}

export interface Plan {
  /** Shards this member crawls and should give up (over its share), the highest first. */
  readonly release: readonly number[];
  /** Shards nobody holds (or whose lease expired) this member should try to take. */
  readonly take: readonly number[];
}

/**
 * What `member`, crawling `mine`, does next: over its share, it releases the excess; under it, it
 * tries the free shards (the lease decides who gets one when two try). A shard held by another
 * member is never taken here: that member releases it, or its lease expires.
 */
export function plan(
  crawl: {
    readonly total: number;
    readonly members: readonly LiveMember[];
    readonly leases: readonly LeaseView[];
  },
  me: { readonly member: string; readonly mine: readonly number[] },
  now: number,
): Plan {
  const { total, members, leases } = crawl;
  const { member, mine } = me;
  const q = quota(total, members, member);
  const own = [...mine].sort((a, b) => a - b);
  if (own.length > q) return { release: own.slice(q).reverse(), take: [] };
  const free = leases
    .filter((l) => !own.includes(l.shard) && (l.member === undefined || l.expiresAt < now))
    .map((l) => l.shard);
  // Members under their share start at different free shards, so that two rarely race for one.
  const offset = Math.max(
    0,
    members.findIndex((m) => m.member === member),
  );
  const rotated = free.map((_, i) => free[(i + offset) % free.length]!);
  return { release: [], take: rotated.slice(0, q - own.length) };
}

/**
 * Keys that may differ between members: where this machine finds its cluster and helpers, its own
 * processes, ports, files and logs. Every other key is a setting of the crawl.
 */
const PER_MACHINE = [
  /^opensearch\.(addresses|user|password|connect\.timeout|sniff)$/,
  /^(topology|console|metrics|http\.proxy)\./,
  /^tika\.(server\.url|embedded\.|max\.concurrent)/,
  /^playwright\.(executable|cdp\.url)$/,
  /^warc\.(dir|prefix)$/,
  /^(fetcher\.threads\.number|parser\.threads)$/,
  /password|secret|token/i,
];

/** Each crawl setting's digest (not its value: settings may hold secrets), by key. */
export function crawlSettings(config: Config): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(config).sort((a, b) => a[0].localeCompare(b[0]))) {
    if (PER_MACHINE.some((re) => re.test(key))) continue;
    out[key] = createHash('sha256')
      .update(JSON.stringify(value) ?? 'undefined')
      .digest('hex')
      .slice(0, 16);
  }
  return out;
}

/** The keys whose digests differ (or that one side lacks), sorted. */
export function differingSettings(
  mine: Readonly<Record<string, string>>,
  theirs: Readonly<Record<string, string>>,
): string[] {
  const keys = new Set([...Object.keys(mine), ...Object.keys(theirs)]);
  return [...keys].filter((k) => mine[k] !== theirs[k]).sort();
}
