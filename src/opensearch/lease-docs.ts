import { readFileSync, readlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@opensearch-project/opensearch';
import type { Logger } from '../util/log.js';
import { MAPPINGS_DIR } from './paths.js';

/*
 * The lease documents (lease.ts): the scripts that take, renew and release them on the cluster, who
 * holds one, how another crawl tells whether that holder is still alive, and who blocks it.
 */

/** Who holds a lease, as its document says. */
export interface Holder {
  readonly token: string;
  readonly host: string;
  /** Where its pid names a process: its machine's boot id and pid namespace ("" when unknown). */
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
  /**
   * The Linux boot id and this process's pid namespace: two containers of one machine (one boot id,
   * maybe one host name when they share a network namespace) each have their own pids, so a pid is
   * checked only by a process of the same namespace. "" when unknown.
   */
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
    const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    // "pid:[4026531836]": the namespace's inode, the same for every process that shares it.
    const ns = readlinkSync('/proc/self/ns/pid');
    return boot === '' || ns === '' ? '' : `${boot}/${ns}`;
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

/** The lease document of one status shard. */
export const leaseId = (statusIndex: string, shard: number) => `${statusIndex}#${shard}`;

export function holderOf(source: Record<string, unknown>): Holder {
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

/**
 * Takes the lease when nobody holds it, when it expired, when it is ours (a renewal), or when it is
 * held by `params.stale` (a holder of this machine whose process is gone). Otherwise nothing.
 */
export const TAKE = [
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

export const RELEASE =
  "if (ctx._source.token == params.token) { ctx.op = 'delete'; } else { ctx.op = 'none'; }";

/** Renews the lease while it is still this crawl's (expired or not: nobody took it meanwhile). */
export const RENEW = [
  "if (ctx._source.token != params.token) { ctx.op = 'none'; } else {",
  '  ctx._source.renewedAt = ctx._now; ctx._source.expiresAt = ctx._now + params.ttl;',
  '}',
].join('\n');

/** Creates the lease index when missing, with one line saying so. */
export async function ensureLeaseIndex(client: Client, index: string, log: Logger): Promise<void> {
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
