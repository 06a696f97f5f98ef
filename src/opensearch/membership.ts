import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@opensearch-project/opensearch';
import type { Logger } from '../util/log.js';
import { ensureLeaseIndex, holderOf, leaseId, type Self } from './lease-docs.js';
import { MAPPINGS_DIR } from './paths.js';

/*
 * The members of an elastic crawl (`crawler run --join`), as documents of the lease index: one per
 * member, renewed by a heartbeat written by a script on the cluster (so the cluster's clock decides
 * who is alive), next to the lease documents of the status shards (lease.ts) that say who holds what.
 * A member that hands a shard over writes a handover document first: when it last fetched and the
 * delay its hosts need, so that the taker does not fetch them sooner.
 */

/** What a member publishes with each heartbeat (stats, the console, the settings check). */
export interface MemberInfo {
  /** Each crawl setting's digest (app/crawl-settings.ts): members must run the same crawl. */
  readonly settings: Readonly<Record<string, string>>;
  /** The status shards it crawls now. */
  readonly shards: readonly number[];
  /** Pages fetched per second over the last heartbeat interval, and in all. */
  readonly pagesPerSec: number;
  readonly fetched: number;
  /**
   * The longest delay of its hosts now (ms; fetcher.server.delay at least, a robots.txt Crawl-delay
   * included): a member adopting its shards after its lease expired waits that long past the expiry.
   */
  readonly politeMs?: number;
  /** Shards it lost, and to whom (the latest first, a few). */
  readonly lost: readonly { readonly shard: number; readonly to: string; readonly at: number }[];
}

/** A member's document as read back. */
export interface MemberDoc {
  readonly member: string;
  readonly host: string;
  readonly pid: number;
  /** Epoch ms by the cluster's clock: first heartbeat, last heartbeat, expiry. */
  readonly since: number;
  readonly renewedAt: number;
  readonly expiresAt: number;
  readonly info: MemberInfo;
}

/** A status shard's lease as the members see it. */
export interface ShardLease {
  readonly shard: number;
  /** The member holding it ("" when held by a plain `crawler run`, undefined when free). */
  readonly member: string | undefined;
  /** The holder's share in words (a refusal names it). */
  readonly share: string;
  readonly host: string;
  readonly pid: number;
  readonly expiresAt: number;
}

/** The share words of a member's leases; `memberOfShare` reads them back. */
export const memberShare = (member: string) => `member ${member}`;
export function memberOfShare(share: string): string {
  return share.startsWith('member ') ? share.slice('member '.length) : '';
}

const memberId = (statusIndex: string, member: string) => `${statusIndex}@member@${member}`;
/** How far a script's `ctx._now` may lag behind the cluster's clock (see `handovers`). */
const CACHED_CLOCK_LAG_MS = 250;

const handoverId = (statusIndex: string, shard: number) => `${leaseId(statusIndex, shard)}@handover`;

const HEARTBEAT = [
  'def s = ctx._source;',
  'if (s.since == null) { s.since = ctx._now; }',
  "s.kind = 'member'; s.statusIndex = params.statusIndex; s.member = params.member;",
  's.host = params.host; s.boot = params.boot; s.pid = params.pid; s.info = params.info;',
  's.renewedAt = ctx._now; s.expiresAt = ctx._now + params.ttl;',
].join('\n');

const HANDOVER = [
  'def s = ctx._source;',
  "s.kind = 'handover'; s.statusIndex = params.statusIndex; s.shard = params.shard;",
  's.member = params.member; s.lastFetch = ctx._now; s.delayMs = params.delayMs;',
].join('\n');

const num = (v: unknown) => (typeof v === 'number' ? v : Number(v) || 0);

/** The member documents, handover documents and shard leases of one crawl. */
export class Membership {
  constructor(
    private readonly client: Client,
    private readonly index: string,
    private readonly statusIndex: string,
    private readonly ttlMs: number,
  ) {}

  /** Creates the lease index when missing, and adds the member fields to one made before them. */
  async prepare(log: Logger): Promise<void> {
    await ensureLeaseIndex(this.client, this.index, log);
    const mapping = JSON.parse(readFileSync(join(MAPPINGS_DIR, 'leases.json'), 'utf8')) as {
      mappings: Record<string, unknown>;
    };
    await this.client.indices.putMapping({ index: this.index, body: mapping.mappings as never });
  }

  /** Writes this member's heartbeat; answers the cluster's clock at that moment (epoch ms). */
  async heartbeat(member: string, self: Self, info: MemberInfo): Promise<number> {
    const res = await this.client.update({
      index: this.index,
      id: memberId(this.statusIndex, member),
      retry_on_conflict: 3,
      _source: true,
      body: {
        scripted_upsert: true,
        upsert: {},
        script: {
          source: HEARTBEAT,
          lang: 'painless',
          params: {
            statusIndex: this.statusIndex,
            member,
            host: self.host,
            boot: self.boot,
            pid: self.pid,
            info,
            ttl: this.ttlMs,
          },
        },
      } as never,
    });
    const got = (res.body as unknown as { get?: { _source?: { renewedAt?: unknown } } }).get;
    return num(got?._source?.renewedAt);
  }

  /** Deletes this member's document (it leaves). */
  async leave(member: string): Promise<void> {
    await this.client.delete({ index: this.index, id: memberId(this.statusIndex, member) }).catch(() => {});
  }

  /** Every member document of this crawl, live or expired, oldest member first. */
  async members(): Promise<MemberDoc[]> {
    await this.client.indices.refresh({ index: this.index });
    const res = await this.client.search({
      index: this.index,
      body: {
        size: 1000,
        query: {
          bool: { filter: [{ term: { kind: 'member' } }, { term: { statusIndex: this.statusIndex } }] },
        },
      } as never,
    });
    const hits = (res.body as unknown as { hits: { hits: { _source: Record<string, unknown> }[] } }).hits
      .hits;
    return hits
      .map(({ _source: s }) => ({
        member: String(s.member ?? ''),
        host: String(s.host ?? '?'),
        pid: num(s.pid),
        since: num(s.since),
        renewedAt: num(s.renewedAt),
        expiresAt: num(s.expiresAt),
        info: (s.info ?? { settings: {}, shards: [], pagesPerSec: 0, fetched: 0, lost: [] }) as MemberInfo,
      }))
      .sort((a, b) => a.since - b.since || a.member.localeCompare(b.member));
  }

  /** The lease of each status shard 0..total-1 (read in real time, not through a refresh). */
  async leases(total: number): Promise<ShardLease[]> {
    const ids = Array.from({ length: total }, (_, s) => leaseId(this.statusIndex, s));
    const res = await this.client.mget({ index: this.index, body: { ids } });
    const docs = (res.body as unknown as { docs: { found?: boolean; _source?: Record<string, unknown> }[] })
      .docs;
    return docs.map((d, shard) => {
      if (!d.found || !d._source || d._source.token == null)
        return { shard, member: undefined, share: '', host: '', pid: 0, expiresAt: 0 };
      const h = holderOf(d._source);
      return {
        shard,
        member: memberOfShare(h.share),
        share: h.share,
        host: h.host,
        pid: h.pid,
        expiresAt: h.expiresAt,
      };
    });
  }

  /** Before releasing shards: when this member last fetched their hosts (now), and their delay. */
  async handOver(member: string, shards: readonly number[], delayMs: number): Promise<void> {
    if (shards.length === 0) return;
    await this.client.bulk({
      body: shards.flatMap((shard) => [
        { update: { _index: this.index, _id: handoverId(this.statusIndex, shard), retry_on_conflict: 3 } },
        {
          scripted_upsert: true,
          upsert: {},
          script: {
            source: HANDOVER,
            lang: 'painless',
            params: { statusIndex: this.statusIndex, shard, member, delayMs },
          },
        },
      ]),
    });
  }

  /**
   * The handovers of these shards: when their hosts may be fetched again (cluster epoch ms). Their
   * `lastFetch` is the script's `ctx._now`, OpenSearch's cached clock (refreshed every
   * `thread_pool.estimated_time_interval`, 200 ms by default; measured on a local node 2 to 197 ms
   * behind the update's start), so it may say up to that much too early: CACHED_CLOCK_LAG_MS is
   * added (seen without it: two members fetching one host 1,986 ms apart under a 2 s Crawl-delay).
   */
  async handovers(shards: readonly number[]): Promise<Map<number, number>> {
    const out = new Map<number, number>();
    if (shards.length === 0) return out;
    const res = await this.client.mget({
      index: this.index,
      body: { ids: shards.map((s) => handoverId(this.statusIndex, s)) },
    });
    const docs = (res.body as unknown as { docs: { found?: boolean; _source?: Record<string, unknown> }[] })
      .docs;
    docs.forEach((d, i) => {
      if (d.found && d._source)
        out.set(shards[i]!, num(d._source.lastFetch) + CACHED_CLOCK_LAG_MS + num(d._source.delayMs));
    });
    return out;
  }
}
