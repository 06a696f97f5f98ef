import { randomBytes } from 'node:crypto';
import type { Client } from '@opensearch-project/opensearch';
import { ClusterError, CrawlerError, errorMessage } from '../util/errors.js';
import type { Logger } from '../util/log.js';
import { ageOf, FRESH_SHARE, type Instant, instantNow, type WriteFence } from './fence.js';
import {
  deadHere,
  ensureLeaseIndex,
  type Holder,
  holderOf,
  type LeaseRequest,
  leaseId,
  RELEASE,
  RENEW,
  refusal,
  type Self,
  TAKE,
  thisProcess,
} from './lease-docs.js';

export { deadHere, type Holder, type LeaseRequest, leaseId, refusal, type Self, thisProcess };

/*
 * One owner per share of the status index. A crawl takes a lease on the status shards it reads: one
 * small document per shard in the lease index, written by a script that runs on the cluster (so the
 * cluster's clock decides expiry, whatever the clocks of the crawl machines say). It renews the lease
 * every third of opensearch.lease.ttl while it runs and releases it at exit. A second process whose
 * shards overlap refuses to start. The lease is also the fence of the crawl's writes (fence.ts): a
 * check of two clocks per bulk request, nothing per URL.
 */

type BulkItem = { update?: { status?: number; result?: string; error?: { type?: string; reason?: string } } };

/** A renewal's per-shard result: 'noop' (another holds it) and 'missing' (deleted) mean lost. */
type Outcome = 'created' | 'updated' | 'noop' | 'missing';

/**
 * A lease on a share of the status shards, and the fence of the crawl's writes (fence.ts). `acquire`
 * takes it or throws a CrawlerError naming the holder; it is then renewed every third of the TTL
 * until `release`. `admit` lets writes go while the lease was confirmed less than two thirds of the
 * TTL ago (the moment a confirming request was sent counts, so at least a third of the TTL is left
 * on the cluster's clock); past that, writes wait for a renewal, asked for at once. A renewal that
 * finds the lease taken by another (this process stalled past the TTL and another crawl started)
 * or deleted makes it lost for good: `admit` answers false, and `onLost` listeners are told, those
 * registered later too.
 */
export class ShareLease implements WriteFence {
  private readonly token = randomBytes(12).toString('hex');
  private timer: NodeJS.Timeout | undefined;
  private lostBy: string | undefined;
  private released = false;
  private renewing: Promise<void> | undefined;
  private readonly lostListeners: ((by: string) => void)[] = [];
  private readonly confirmedListeners: ((at: Instant) => void)[] = [];
  /** When the last request that confirmed the whole lease was sent. */
  private confirmed: Instant = { wall: Number.NEGATIVE_INFINITY, mono: Number.NEGATIVE_INFINITY };
  /** Renewals failed in a row (the cluster did not answer): the first is a warning. */
  private failures = 0;

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

  /** Who took the lease, once it is lost. */
  get lost(): string | undefined {
    return this.lostBy;
  }

  /** Told once, with who took it, when the lease is lost: at once if it was lost already. */
  onLost(listener: (by: string) => void): void {
    if (this.lostBy !== undefined) listener(this.lostBy);
    else this.lostListeners.push(listener);
  }

  /** When the lease was last confirmed (the sending of the request that did). */
  get confirmedAt(): Instant {
    return this.confirmed;
  }

  /** Told each time a renewal confirms the lease (`run --workers` passes it on to its workers). */
  onConfirmed(listener: (at: Instant) => void): void {
    this.confirmedListeners.push(listener);
  }

  /** Renews now rather than at the next tick (a worker's writes wait for it). Never throws. */
  renewNow(): Promise<void> {
    return this.renew();
  }

  /** See WriteFence. */
  admit(): true | Promise<boolean> {
    if (this.fresh()) return true;
    return this.waitForRenewal();
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

  private fresh(): boolean {
    return (
      !this.released && this.lostBy === undefined && ageOf(this.confirmed) < this.request.ttlMs * FRESH_SHARE
    );
  }

  private async waitForRenewal(): Promise<boolean> {
    for (;;) {
      if (this.released || this.lostBy !== undefined) return false;
      if (this.fresh()) return true;
      await this.renew();
      // The renewal failed (the cluster did not answer): the writes keep waiting, and ask again.
      if (!this.fresh() && !this.released && this.lostBy === undefined)
        await sleep(Math.max(200, Math.floor(this.request.ttlMs / 10)));
    }
  }

  /** Takes every shard of the share, or none: what it took is released when any part fails. */
  private async take(): Promise<void> {
    const sent = instantNow();
    try {
      await this.takeAll();
      this.confirmed = sent;
    } catch (e) {
      await this.release();
      throw e;
    }
  }

  private async takeAll(): Promise<void> {
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
      if (holders.size > 0 || attempt >= 3)
        throw new CrawlerError('SHARE_LEASED', refusal(this.request, holders, instantNow().wall));
    }
  }

  private renew(): Promise<void> {
    this.renewing ??= this.renewOnce().finally(() => {
      this.renewing = undefined;
    });
    return this.renewing;
  }

  private async renewOnce(): Promise<void> {
    if (this.released || this.lostBy !== undefined) return;
    const sent = instantNow();
    let results: Outcome[];
    try {
      results = await this.update(this.request.shards, undefined, RENEW);
    } catch (e) {
      // The next renewal tries again; writes wait once the last one is two thirds of the TTL old.
      if (this.failures++ === 0) {
        const left = Math.max(0, Math.round((this.request.ttlMs - ageOf(this.confirmed)) / 1000));
        this.log.warn(
          { err: errorMessage(e) },
          `could not renew the lease on this crawl's status shards (index "${this.request.index}"); ` +
            `trying again, and writes wait once it is two thirds of opensearch.lease.ttl old (it expires in ${left} s)`,
        );
      } else this.log.debug({ err: errorMessage(e), failures: this.failures }, 'lease renewal failed again');
      return;
    }
    const lostShards = this.request.shards.filter(
      (_, i) => results[i] === 'noop' || results[i] === 'missing',
    );
    if (lostShards.length === 0) {
      this.confirmed = sent;
      for (const l of this.confirmedListeners) l(sent);
      if (this.failures > 0)
        this.log.info(
          `renewed the lease on this crawl's status shards again after ${this.failures} failed tries`,
        );
      this.failures = 0;
      return;
    }
    if (this.released) return;
    // Sticky from here: admit() answers false before the holders are even read.
    this.lostBy = 'another crawl';
    clearInterval(this.timer);
    const holders = await this.holders(lostShards).catch(() => new Map<number, Holder>());
    // A member of an elastic crawl is named too (its share words are "member <id>").
    const who = (h: Holder) =>
      h.share.startsWith('member ')
        ? `${h.share} (pid ${h.pid} on host ${h.host})`
        : `pid ${h.pid} on host ${h.host}`;
    const by = [...new Set([...holders.values()].map(who))].join(', ');
    if (by !== '') this.lostBy = by;
    else if (holders.size === 0) this.lostBy = 'nobody (its lease documents were deleted)';
    for (const l of this.lostListeners.splice(0)) l(this.lostBy);
  }

  /**
   * Runs TAKE (or `script`) on each shard's document: 'created', 'updated', 'noop' (held by another),
   * or 'missing' (a renewal found no document).
   */
  private async update(shards: readonly number[], stale?: string, script = TAKE): Promise<Outcome[]> {
    const { index, statusIndex, share, ttlMs } = this.request;
    const { host, boot, pid } = this.self;
    const take = script === TAKE;
    const res = await this.client.bulk({
      body: shards.flatMap((shard) => [
        { update: { _index: index, _id: leaseId(statusIndex, shard), retry_on_conflict: 3 } },
        {
          // A renewal never creates: a document deleted meanwhile is a lease lost.
          ...(take ? { scripted_upsert: true, upsert: {} } : {}),
          script: {
            source: script,
            lang: 'painless',
            params: take
              ? {
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
                }
              : { token: this.token, ttl: ttlMs },
          },
        },
      ]),
    });
    const items = (res.body as unknown as { items: BulkItem[] }).items;
    return items.map((item) => {
      const u = item.update;
      if (u?.error?.type === 'document_missing_exception' && !take) return 'missing';
      if (u?.error) {
        throw new ClusterError(
          'LEASE_FAILED',
          `OpenSearch refused the lease on the status shards (index "${index}"): ${u.error.reason ?? u.error.type}`,
        );
      }
      return (u?.result ?? 'noop') as Outcome;
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

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
