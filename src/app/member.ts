import { randomBytes } from 'node:crypto';
import type { Client } from '@opensearch-project/opensearch';
import type { Config } from '../config/schema.js';
import type { PoliteHost } from '../fetch/fetcher.js';
import type { TransitionRecord } from '../model/transition.js';
import type { WriteFence } from '../opensearch/fence.js';
import { ShareLease, thisProcess } from '../opensearch/lease.js';
import { type MemberRow, memberRows } from '../opensearch/member-rows.js';
import {
  type MemberDoc,
  type MemberInfo,
  Membership,
  memberShare,
  type ShardLease,
} from '../opensearch/membership.js';
import { type Clock, systemClock } from '../util/clock.js';
import { CrawlerError, errorMessage } from '../util/errors.js';
import type { Logger } from '../util/log.js';
import { buildCrawl, type Crawl } from './compose.js';
import { crawlSettings, differingSettings, plan } from './fair-share.js';
import { statusShardCount } from './shards.js';

/*
 * A member of an elastic crawl (`crawler run --join`). It heartbeats a member document, and every
 * third of opensearch.lease.ttl compares the shards it holds with its fair share (fair-share.ts):
 * it takes free or expired shards through the fenced leases (one ShareLease per shard), and gives up
 * those over its share. The crawl runs in generations: each is a crawl (compose.ts) of the shards
 * held then. A change stops the generation (no URL in flight, every write acknowledged: the safe
 * point), writes the handover of what it gives up (how long its hosts' delays still run), releases
 * it, and starts the next generation, which starts where the last one's politeness queues left off.
 * A shard taken from a handover is fetched no sooner than the handover says; one taken from an
 * expired lease no sooner than the lease's expiry plus the longest delay its holder published.
 */

export interface MemberOptions {
  readonly log: Logger;
  readonly client: Client;
  /** Injected by the first generation. */
  readonly seeds?: readonly string[];
  /** Told of each generation's crawl once built (the console, the status line). */
  readonly onGeneration?: (crawl: Crawl) => void;
  /** Sees every transition record once written (the console's tail). */
  readonly onTransition?: (record: TransitionRecord) => void;
  /** This machine's time (the system clock by default); its generations' crawls run on it too. */
  readonly clock?: Clock;
  /** Worker w of `crawler run --join --workers N` on this machine: its name says so ("-w<w>-"). */
  readonly worker?: number;
}

/**
 * A member's name: the machine, the worker on it (when one of `--workers N`), the process, and a
 * random tail (a pid is reused after a restart; the member document is not).
 */
export function memberName(host: string, pid: number, worker: number | undefined, tail: string): string {
  return `${host}-${worker === undefined ? '' : `w${worker}-`}${pid}-${tail}`;
}

interface Generation {
  readonly crawl: Crawl;
  readonly shards: readonly number[];
  readonly done: Promise<void>;
  /** The crawl stopped by itself (a lease lost, a failure): the next round starts another. */
  ended: boolean;
}

export class ElasticMember {
  readonly id: string;
  private readonly membership: Membership;
  private readonly leases = new Map<number, ShareLease>();
  private readonly lost: { shard: number; to: string; at: number }[] = [];
  private gen: Generation | undefined;
  private stopping = false;
  private wake: (() => void) | undefined;
  private total = 0;
  private seedsLeft: readonly string[];
  private fetchedBefore = 0;
  private readonly clock: Clock;
  private lastBeat: { at: number; fetched: number };
  /** The cluster's clock less this machine's, as of the last heartbeat. */
  private offset = 0;
  private readonly ttlMs: number;
  /** The hosts whose delay still ran when the last generation stopped (local clock ms). */
  private carried: readonly PoliteHost[] = [];
  private readonly settings: Record<string, string>;

  constructor(
    private readonly config: Config,
    private readonly options: MemberOptions,
  ) {
    this.id = memberName(thisProcess.host, thisProcess.pid, options.worker, randomBytes(3).toString('hex'));
    this.clock = options.clock ?? systemClock;
    this.lastBeat = { at: this.clock.now(), fetched: 0 };
    this.ttlMs = config['opensearch.lease.ttl'];
    this.membership = new Membership(
      options.client,
      config['opensearch.lease.index.name'],
      config['opensearch.status.index.name'],
      this.ttlMs,
    );
    this.seedsLeft = options.seeds ?? [];
    this.settings = crawlSettings(config);
  }

  /**
   * Registers this member. Throws a CrawlerError when the live members run other settings (naming
   * the keys) or a plain `crawler run` holds shards of the crawl.
   */
  async join(): Promise<void> {
    const { log } = this.options;
    await this.membership.prepare(log);
    this.total = await statusShardCount(this.options.client, this.config);
    const now = await this.membership.heartbeat(this.id, thisProcess, this.info());
    const others = (await this.membership.members()).filter((m) => m.member !== this.id && m.expiresAt > now);
    const statusIndex = this.config['opensearch.status.index.name'];
    for (const m of others) {
      const keys = differingSettings(this.settings, m.info.settings ?? {});
      if (keys.length === 0) continue;
      await this.membership.leave(this.id);
      throw new CrawlerError(
        'SETTINGS_DIFFER',
        `status index "${statusIndex}": member ${m.member} (pid ${m.pid} on host ${m.host}) crawls with other ` +
          `settings; members of one crawl must share them. Keys that differ: ${keys.join(', ')}`,
      );
    }
    const plain = (await this.membership.leases(this.total)).filter(
      (l) => l.member === '' && l.expiresAt > now,
    );
    if (plain.length > 0) {
      await this.membership.leave(this.id);
      throw new CrawlerError(
        'SHARE_LEASED',
        `status index "${statusIndex}": a crawl that did not join (no --join) holds status shards ` +
          `${plain.map((l) => l.shard).join(',')} (pid ${plain[0]!.pid} on host ${plain[0]!.host}, ${plain[0]!.share}); ` +
          'stop it and start it again with --join to share the crawl',
      );
    }
    log.info(
      { member: this.id, members: others.length + 1, statusShards: this.total },
      `joined the crawl of "${statusIndex}" as member ${this.id} with ${others.length} other live member${others.length === 1 ? '' : 's'}`,
    );
  }

  /** Runs until `requestStop`: then stops the generation, hands its shards over and leaves. */
  async run(): Promise<void> {
    const every = Math.max(500, Math.floor(this.ttlMs / 3));
    // The heartbeat has a timer of its own: a round may wait for a generation to drain or start.
    const beat = setInterval(() => void this.beat(), every);
    beat.unref();
    try {
      await this.rounds(every);
    } finally {
      clearInterval(beat);
    }
    await this.stopGeneration();
    await this.handOver([...this.leases.keys()]);
    await this.membership.leave(this.id);
    this.options.log.info({ member: this.id }, 'left the crawl: shards handed over');
  }

  private beating: Promise<number> | undefined;

  /** One heartbeat at a time; answers the cluster's clock. */
  private beat(): Promise<number> {
    this.beating ??= this.membership
      .heartbeat(this.id, thisProcess, this.info())
      .then((now) => {
        this.offset = now - this.clock.now();
        return now;
      })
      .finally(() => {
        this.beating = undefined;
      });
    return this.beating.catch((e) => {
      this.options.log.debug({ err: errorMessage(e) }, 'heartbeat failed');
      return this.clock.now() + this.offset;
    });
  }

  private async rounds(every: number): Promise<void> {
    while (!this.stopping) {
      try {
        await this.tick();
      } catch (e) {
        // The cluster did not answer: the leases fence the writes meanwhile; the next tick retries.
        this.options.log.warn(
          { err: errorMessage(e) },
          'elastic crawl: membership round failed; trying again',
        );
      }
      if (!this.stopping) await this.nap(every);
    }
  }

  requestStop(): void {
    this.stopping = true;
    this.gen?.crawl.crawler.requestStop();
    this.wake?.();
  }

  /** Every member of the crawl as operators see them (the console). */
  rows(): Promise<MemberRow[]> {
    return memberRows(
      this.options.client,
      {
        leaseIndex: this.config['opensearch.lease.index.name'],
        statusIndex: this.config['opensearch.status.index.name'],
        shards: this.total,
      },
      this.clock.now(),
    );
  }

  /** The shards held now. */
  get shards(): number[] {
    return [...this.leases.keys()].sort((a, b) => a - b);
  }

  /** One round: heartbeat, read the members and leases, take or release, restart when changed. */
  private async tick(): Promise<void> {
    const now = await this.beat();
    const all = await this.membership.members();
    const live = all.filter((m) => m.expiresAt > now);
    const leases = await this.membership.leases(this.total);
    const next = plan(
      { total: this.total, members: live, leases },
      { member: this.id, mine: this.shards },
      now,
    );
    const taken: number[] = [];
    for (const shard of next.take) if (await this.take(shard)) taken.push(shard);
    const want = this.shards.filter((s) => !next.release.includes(s));
    const running = this.gen?.shards ?? [];
    if (this.stopping || (sameSet(want, running) && this.gen !== undefined && !this.gen.ended)) return;
    if (want.length === 0 && running.length === 0 && next.release.length === 0) return;
    await this.stopGeneration();
    await this.handOver(next.release);
    await this.politeWait(taken, leases, all);
    if (!this.stopping) await this.startGeneration(this.shards);
  }

  /** Tries to take one shard's lease; false when another member was quicker. */
  private async take(shard: number): Promise<boolean> {
    const { log, client } = this.options;
    try {
      const lease = await ShareLease.acquire(
        client,
        {
          index: this.config['opensearch.lease.index.name'],
          statusIndex: this.config['opensearch.status.index.name'],
          shards: [shard],
          share: memberShare(this.id),
          ttlMs: this.ttlMs,
        },
        log,
      );
      this.leases.set(shard, lease);
      lease.onLost((by) => {
        if (this.leases.get(shard) !== lease) return;
        this.leases.delete(shard);
        this.lost.unshift({ shard, to: by, at: this.clock.now() });
        this.lost.splice(8);
        log.warn(
          { member: this.id, shard, to: by },
          `lost status shard ${shard} to ${by} (not renewed within opensearch.lease.ttl): its URLs in flight ` +
            'keep their previous state; the crawl goes on with the other shards',
        );
        this.gen?.crawl.crawler.requestStop();
        this.wake?.();
      });
      log.info({ member: this.id, shard }, `took status shard ${shard}`);
      return true;
    } catch (e) {
      if (e instanceof CrawlerError && e.code === 'SHARE_LEASED') return false;
      throw e;
    }
  }

  /** At the safe point (no generation running): records the handover, then releases the leases. */
  private async handOver(shards: readonly number[]): Promise<void> {
    if (shards.length === 0) return;
    // From the handover on, the taker waits as long as the longest delay that still runs here.
    const delayMs = Math.max(this.serverDelayMs(), this.carriedUntil() - this.clock.now());
    try {
      await this.membership.handOver(this.id, shards, Math.round(delayMs));
    } catch (e) {
      this.options.log.warn({ err: errorMessage(e) }, 'could not write the handover of status shards');
    }
    for (const shard of shards) {
      const lease = this.leases.get(shard);
      this.leases.delete(shard);
      await lease?.release();
    }
    this.options.log.info({ member: this.id, shards }, `released status shards ${shards.join(',')}`);
  }

  /**
   * Before crawling shards just taken: their hosts' delay since the last fetch by the previous
   * holder. A handover says until when. An expired lease's holder fetched only while its lease was
   * fresh (app/fetch-gate.ts), so at the latest a third of the TTL before it expired; its request may
   * reach the host later than that (a loaded machine), so the wait counts from the expiry itself, plus
   * the longest delay that holder published (a robots.txt Crawl-delay included).
   */
  private async politeWait(
    taken: readonly number[],
    before: readonly ShardLease[],
    members: readonly MemberDoc[],
  ): Promise<void> {
    if (taken.length === 0) return;
    const handovers = await this.membership.handovers(taken);
    let until = 0;
    for (const shard of taken) {
      const prev = before[shard];
      if (prev?.member !== undefined) {
        const info = members.find((m) => m.member === prev.member)?.info;
        until = Math.max(until, prev.expiresAt + Math.max(this.serverDelayMs(), info?.politeMs ?? 0));
      }
      until = Math.max(until, handovers.get(shard) ?? 0);
    }
    const wait = until - (this.clock.now() + this.offset);
    if (wait > 0 && !this.stopping) await this.nap(wait);
  }

  private serverDelayMs(): number {
    return this.config['fetcher.server.delay'] * 1000;
  }

  /** When the last of the carried hosts' delays runs out (local clock ms; 0: none). */
  private carriedUntil(): number {
    let until = 0;
    for (const h of this.carried) until = Math.max(until, h.notBefore);
    return until;
  }

  private async startGeneration(shards: readonly number[]): Promise<void> {
    if (shards.length === 0) return;
    // The last writes to these shards (ours, the giver's, a dead holder's) were acknowledged but may
    // not be searchable yet: a spout that queried now would see a page just FETCHED as still due
    // and fetch it again (seen: a page fetched twice 0.9 s apart across a generation change).
    const index = this.config['opensearch.status.index.name'];
    await this.options.client.indices
      .refresh({ index })
      .catch((e) => this.options.log.debug({ err: errorMessage(e) }, 'status index refresh failed'));
    const held = new Map(shards.map((s) => [s, this.leases.get(s)!]));
    const fence: WriteFence = {
      admit() {
        const answers = [...held.values()].map((l) => l.admit());
        if (answers.every((a) => a === true)) return true;
        return Promise.all(answers).then((all) => all.every((a) => a === true));
      },
    };
    const seeds = this.seedsLeft;
    const crawl = await buildCrawl(this.config, {
      client: this.options.client,
      log: this.options.log.child({ member: this.id }),
      shards,
      fence,
      fetchGate: () => fence.admit(),
      seeds,
      clock: this.clock,
      ...(this.options.onTransition ? { onTransition: this.options.onTransition } : {}),
    });
    this.seedsLeft = [];
    // The hosts this member kept: fetched no sooner than their delay from the last generation's fetch.
    const now = this.clock.now();
    crawl.crawler.remember(this.carried.filter((h) => h.notBefore > now));
    const done = crawl.crawler
      .run({ drainDeadlineMs: this.config['shutdown.deadline'] })
      .catch((e) => this.options.log.error({ err: errorMessage(e) }, 'a generation of the crawl failed'))
      .finally(async () => {
        gen.ended = true;
        this.fetchedBefore += crawl.crawler.snapshot().fetched;
        await crawl.close().catch(() => {});
      });
    const gen: Generation = { crawl, shards: [...shards], done, ended: false };
    this.gen = gen;
    this.options.onGeneration?.(crawl);
    this.options.log.info({ member: this.id, shards }, `crawling status shards ${shards.join(',')}`);
  }

  /** Stops the running generation at its safe point: fetches done, writes acknowledged, closed. */
  private async stopGeneration(): Promise<void> {
    const gen = this.gen;
    if (!gen) return;
    gen.crawl.crawler.requestStop();
    await gen.done;
    this.gen = undefined;
    // The safe point: nothing in flight, so each queue's delay counts from its host's last fetch.
    this.carried = gen.crawl.crawler.politeness();
  }

  private fetched(): number {
    return this.fetchedBefore + (this.gen ? this.gen.crawl.crawler.snapshot().fetched : 0);
  }

  private info(): MemberInfo {
    const fetched = this.fetched();
    const now = this.clock.now();
    const secs = Math.max(0.001, (now - this.lastBeat.at) / 1000);
    const pagesPerSec = Math.round(((fetched - this.lastBeat.fetched) / secs) * 100) / 100;
    this.lastBeat = { at: now, fetched };
    // A loop, not a spread: a member may carry the delays of more hosts than a call takes arguments.
    let politeMs = Math.max(this.serverDelayMs(), this.gen?.crawl.crawler.maxDelayMs() ?? 0);
    for (const h of this.carried) politeMs = Math.max(politeMs, h.delayMs);
    return {
      settings: this.settings,
      shards: this.shards,
      pagesPerSec,
      fetched,
      lost: [...this.lost],
      politeMs: Math.round(politeMs),
    };
  }

  private nap(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(done, ms);
      const self = this;
      function done() {
        clearTimeout(t);
        if (self.wake === done) self.wake = undefined;
        resolve();
      }
      this.wake = done;
    });
  }
}

const sameSet = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length && a.every((x) => b.includes(x));
