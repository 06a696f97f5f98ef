import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@opensearch-project/opensearch';
import { ClusterError, CrawlerError, errorMessage } from '../util/errors.js';
import type { Logger } from '../util/log.js';
import { MAPPINGS_DIR } from './paths.js';

/*
 * One owner per share of the status index. A crawl takes a lease on the status shards it reads: one
 * small document per shard in the lease index, written by a script that runs on the cluster (so the
 * cluster's clock decides expiry, whatever the clocks of the crawl machines say). It renews the lease
 * every third of opensearch.lease.ttl while it runs and releases it at exit. A second process whose
 * shards overlap refuses to start. Nothing here runs per URL.
 */

/** Who holds a lease, as its document says. */
export interface Holder {
  readonly token: string;
  readonly host: string;
  /** The Linux boot id of the holder's machine ("" when unknown). */
  readonly boot: string;
  readonly pid: number;
  /** Its share in words, e.g. "all shards", "instance 0 of 2". */
  readonly share: string;
  readonly shards: readonly number[];
  /** Epoch ms, by the cluster's clock. */
  readonly since: number;
  readonly renewedAt: number;
  readonly expiresAt: number;
}

/** This process as a holder (its token is new for each lease). */
export interface Self {
  readonly host: string;
  readonly boot: string;
  readonly pid: number;
  /** Whether a process of this machine is alive. */
  alive(pid: number): boolean;
}

export interface LeaseRequest {
  /** The lease index (opensearch.lease.index.name). */
  readonly index: string;
  readonly statusIndex: string;
  readonly shards: readonly number[];
  /** The share in words, for the holder's document and the messages of others. */
  readonly share: string;
  readonly ttlMs: number;
}

function bootId(): string {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return '';
  }
}

export const thisProcess: Self = {
  host: hostname(),
  boot: bootId(),
  pid: process.pid,
  alive(pid) {
    try {
      process.kill(pid, 0);
      return true;
    } catch (e) {
      return (e as NodeJS.ErrnoException).code === 'EPERM';
    }
  },
};

/**
 * Takes the lease when nobody holds it, when it expired, when it is ours (a renewal), or when it is
 * held by `params.stale` (a holder of this machine whose process is gone). Otherwise nothing.
 */
const TAKE = [
  'def s = ctx._source;',
  'boolean free = s.token == null || s.token == params.token',
  '  || (params.stale != null && s.token == params.stale) || s.expiresAt == null || s.expiresAt < ctx._now;',
  "if (!free) { ctx.op = 'none'; } else {",
  '  if (s.token != params.token) { s.since = ctx._now; }',
  '  s.token = params.token; s.statusIndex = params.statusIndex; s.shard = params.shard;',
  '  s.host = params.host; s.boot = params.boot; s.pid = params.pid; s.share = params.share;',
  '  s.shards = params.shards; s.renewedAt = ctx._now; s.expiresAt = ctx._now + params.ttl;',
  '}',
].join('\n');

const RELEASE = "if (ctx._source.token == params.token) { ctx.op = 'delete'; } else { ctx.op = 'none'; }";

/** The lease document of one status shard. */
export const leaseId = (statusIndex: string, shard: number) => `${statusIndex}#${shard}`;

function holderOf(source: Record<string, unknown>): Holder {
  const num = (v: unknown) => (typeof v === 'number' ? v : Number(v) || 0);
  return {
    token: String(source.token ?? ''),
    host: String(source.host ?? '?'),
    boot: String(source.boot ?? ''),
    pid: num(source.pid),
    share: String(source.share ?? '?'),
    shards: Array.isArray(source.shards) ? source.shards.map(num) : [],
    since: num(source.since),
    renewedAt: num(source.renewedAt),
    expiresAt: num(source.expiresAt),
  };
}

/** True when `holder` ran on this machine (same host and boot) and its process is gone. */
export function deadHere(holder: Holder, self: Self): boolean {
  return (
    holder.boot !== '' && holder.host === self.host && holder.boot === self.boot && !self.alive(holder.pid)
  );
}

/** Why a crawl cannot start: who holds which of its shards, and what to do. */
export function refusal(request: LeaseRequest, held: ReadonlyMap<number, Holder>, now: number): string {
  const byHolder = new Map<string, { holder: Holder; shards: number[] }>();
  for (const [shard, holder] of [...held].sort((a, b) => a[0] - b[0])) {
    const entry = byHolder.get(holder.token) ?? { holder, shards: [] };
    entry.shards.push(shard);
    byHolder.set(holder.token, entry);
  }
  const ttl = Math.round(request.ttlMs / 1000);
  const holders = [...byHolder.values()].map(({ holder: h, shards }) => {
    const since = Math.min(...shards.map((s) => held.get(s)!.since));
    const ago = Math.max(0, Math.round((now - h.renewedAt) / 1000));
    return (
      `shard${shards.length === 1 ? '' : 's'} ${shards.join(',')} to pid ${h.pid} on host ${h.host} (${h.share}) ` +
      `since ${new Date(since).toISOString()}, renewed ${ago} s ago`
    );
  });
  return (
    `status index "${request.statusIndex}": this crawl's share (${request.share}) overlaps one another ` +
    `crawl holds: ${holders.join('; ')}. Two crawls reading the same shards fetch the same hosts and ` +
    "overwrite each other's statuses. Stop that crawl first, or give each its own --instances M " +
    `--instance I; a holder that was killed lets go ${ttl} s after its last renewal (opensearch.lease.ttl), ` +
    'at once when it ran on this machine'
  );
}

type BulkItem = { update?: { status?: number; result?: string; error?: { type?: string; reason?: string } } };

/**
 * A lease on a share of the status shards. `acquire` takes it or throws a CrawlerError naming the
 * holder; it is then renewed until `release`. If a renewal finds the lease taken by another (this
 * process stalled past the TTL and another crawl started), `onLost` listeners are told once.
 */
export class ShareLease {
  private readonly token = randomBytes(12).toString('hex');
  private timer: NodeJS.Timeout | undefined;
  private lost = false;
  private released = false;
  private renewing: Promise<void> | undefined;
  private readonly lostListeners: ((by: string) => void)[] = [];

  private constructor(
    private readonly client: Client,
    private readonly request: LeaseRequest,
    private readonly log: Logger,
    private readonly self: Self,
  ) {}

  static async acquire(
    client: Client,
    request: LeaseRequest,
    log: Logger,
    self: Self = thisProcess,
  ): Promise<ShareLease> {
    await ensureLeaseIndex(client, request.index, log);
    const lease = new ShareLease(client, request, log, self);
    await lease.take();
    lease.timer = setInterval(() => void lease.renew(), Math.max(1000, Math.floor(request.ttlMs / 3)));
    lease.timer.unref();
    return lease;
  }

  /** Called once if the lease is found taken by another crawl, with who took it. */
  onLost(listener: (by: string) => void): void {
    this.lostListeners.push(listener);
  }

  /** Stops renewing and deletes the lease documents that are still ours. Never throws. */
  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    clearInterval(this.timer);
    // A renewal in flight would write the documents again after their deletion.
    await this.renewing;
    const { index, statusIndex, shards } = this.request;
    try {
      await this.client.bulk({
        body: shards.flatMap((shard) => [
          { update: { _index: index, _id: leaseId(statusIndex, shard), retry_on_conflict: 3 } },
          { script: { source: RELEASE, lang: 'painless', params: { token: this.token } } },
        ]),
      });
    } catch (e) {
      this.log.warn(
        { err: errorMessage(e) },
        `could not release the lease on the status shards; it expires ${Math.round(this.request.ttlMs / 1000)} s after its last renewal`,
      );
    }
  }

  private async take(): Promise<void> {
    let pending = [...this.request.shards];
    for (let attempt = 1; ; attempt++) {
      const results = await this.update(pending);
      pending = pending.filter((_, i) => results[i] === 'noop');
      if (pending.length === 0) return;
      const holders = await this.holders(pending);
      // A holder of this machine whose process is gone (SIGKILL) lets go at once.
      const dead = new Map<string, { holder: Holder; shards: number[] }>();
      for (const [shard, h] of holders) {
        if (!deadHere(h, this.self)) continue;
        const entry = dead.get(h.token) ?? { holder: h, shards: [] };
        entry.shards.push(shard);
        dead.set(h.token, entry);
      }
      for (const { holder, shards } of dead.values()) {
        const results = await this.update(shards, holder.token);
        const taken = shards.filter((_, i) => results[i] !== 'noop');
        for (const shard of taken) holders.delete(shard);
        pending = pending.filter((s) => !taken.includes(s));
        if (taken.length > 0) {
          this.log.info(
            { shards: taken, holderPid: holder.pid },
            `took over the lease on status shard${taken.length === 1 ? '' : 's'} ${taken.join(',')} from pid ` +
              `${holder.pid}, which is no longer running`,
          );
        }
      }
      if (pending.length === 0) return;
      // A document gone meanwhile (its holder let go) is tried again; one still held is a refusal.
      if (holders.size > 0 || attempt >= 3) {
        await this.release();
        throw new CrawlerError('SHARE_LEASED', refusal(this.request, holders, Date.now()));
      }
    }
  }

  private renew(): Promise<void> {
    this.renewing ??= this.renewOnce().finally(() => {
      this.renewing = undefined;
    });
    return this.renewing;
  }

  private async renewOnce(): Promise<void> {
    if (this.released || this.lost) return;
    let results: string[];
    try {
      results = await this.update(this.request.shards);
    } catch (e) {
      // The cluster does not answer: the next renewal tries again (the crawl logs the outage).
      this.log.debug({ err: errorMessage(e) }, 'lease renewal failed');
      return;
    }
    const lostShards = this.request.shards.filter((_, i) => results[i] === 'noop');
    if (lostShards.length === 0 || this.released) return;
    this.lost = true;
    clearInterval(this.timer);
    const holders = await this.holders(lostShards).catch(() => new Map<number, Holder>());
    const by = [...new Set([...holders.values()].map((h) => `pid ${h.pid} on host ${h.host}`))].join(', ');
    for (const l of this.lostListeners) l(by || 'another crawl');
  }

  /** Runs TAKE on each shard's document; the result of each ('created', 'updated' or 'noop'). */
  private async update(shards: readonly number[], stale?: string): Promise<string[]> {
    const { index, statusIndex, share, ttlMs } = this.request;
    const { host, boot, pid } = this.self;
    const res = await this.client.bulk({
      body: shards.flatMap((shard) => [
        { update: { _index: index, _id: leaseId(statusIndex, shard), retry_on_conflict: 3 } },
        {
          scripted_upsert: true,
          upsert: {},
          script: {
            source: TAKE,
            lang: 'painless',
            params: {
              token: this.token,
              stale: stale ?? null,
              statusIndex,
              shard,
              host,
              boot,
              pid,
              share,
              shards: [...this.request.shards],
              ttl: ttlMs,
            },
          },
        },
      ]),
    });
    const items = (res.body as unknown as { items: BulkItem[] }).items;
    return items.map((item) => {
      const u = item.update;
      if (u?.error) {
        throw new ClusterError(
          'LEASE_FAILED',
          `OpenSearch refused the lease on the status shards (index "${index}"): ${u.error.reason ?? u.error.type}`,
        );
      }
      return u?.result ?? 'noop';
    });
  }

  /** The holders of these shards' lease documents (those that still exist). */
  private async holders(shards: readonly number[]): Promise<Map<number, Holder>> {
    const { index, statusIndex } = this.request;
    const res = await this.client.mget({
      index,
      body: { ids: shards.map((s) => leaseId(statusIndex, s)) },
    });
    const docs = (res.body as unknown as { docs: { found?: boolean; _source?: Record<string, unknown> }[] })
      .docs;
    const out = new Map<number, Holder>();
    docs.forEach((d, i) => {
      if (d.found && d._source) out.set(shards[i]!, holderOf(d._source));
    });
    return out;
  }
}

/** Creates the lease index when missing, with one line saying so. */
async function ensureLeaseIndex(client: Client, index: string, log: Logger): Promise<void> {
  const exists = await client.indices.exists({ index });
  if (exists.body === true) return;
  try {
    const body = JSON.parse(readFileSync(join(MAPPINGS_DIR, 'leases.json'), 'utf8'));
    await client.indices.create({ index, body, wait_for_active_shards: '1' });
    log.info(`created the index "${index}" (leases: which crawl reads which status shards)`);
  } catch (e) {
    const type = (e as { meta?: { body?: { error?: { type?: string } } } }).meta?.body?.error?.type;
    if (type !== 'resource_already_exists_exception') throw e;
  }
}
