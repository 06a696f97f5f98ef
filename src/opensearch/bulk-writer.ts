import type { Client } from '@opensearch-project/opensearch';
import type { Clock } from '../util/clock.js';
import { errorMessage } from '../util/errors.js';
import type { Logger } from '../util/log.js';
import type { WriteFence } from './fence.js';
import { documentJson } from './json-line.js';
import { ClusterOutage, errorType, shardUnavailable, statusOf } from './outage.js';

export interface BulkAction {
  readonly op: 'index' | 'create' | 'delete';
  readonly index: string;
  /** Empty: OpenSearch generates one (append-only indices such as transitions). */
  readonly id: string;
  readonly routing?: string;
  readonly doc?: object;
  /**
   * Retried after every temporary failure (429, 5xx), not `maxAttempts` times only: for writes that
   * must not be lost, such as the deletion of an ERROR page's content.
   */
  readonly untilWritten?: true;
}

export type BulkResult =
  | {
      readonly ok: true;
      readonly status: number;
      readonly result: string;
      /** The document's version after the write (absent for a 409 on create, a delete). */
      readonly version?: number;
    }
  | {
      readonly ok: false;
      readonly status: number;
      readonly error: string;
      /** The writer was closed before OpenSearch acknowledged the action (shutdown): not its fault. */
      readonly closed?: true;
    };

const CLOSED: BulkResult = {
  ok: false,
  status: 0,
  error: 'not written: the writer was closed first',
  closed: true,
};

const FENCED: BulkResult = {
  ok: false,
  status: 0,
  error: "not written: the crawl's lease on its status shards was lost",
  closed: true,
};

export interface BulkWriterOptions {
  /** Flush when this many actions are buffered (opensearch.<type>.bulkActions). */
  readonly maxActions: number;
  /** Flush when the buffered request body reaches this many bytes. */
  readonly maxBytes: number;
  /** Flush at least this often, ms (opensearch.<type>.flushInterval). */
  readonly flushIntervalMs: number;
  /** Bulk requests in flight at once (opensearch.<type>.concurrentRequests). */
  readonly concurrency: number;
  /** Actions accepted but not settled, at most; `add` waits beyond it (backpressure). */
  readonly maxPending: number;
  /** Attempts for an item the cluster rejected as temporary (429, 5xx) before it is given up. */
  readonly maxAttempts: number;
  readonly backoffMs: { readonly base: number; readonly max: number };
  /**
   * How long a bulk waits for a shard that is not available (the `_bulk` timeout) before its items
   * fail with 503 and are retried: below the client's request timeout, so that a red shard is an
   * answer (the other items of the bulk are written) rather than a request that timed out.
   */
  readonly shardWaitMs?: number;
  /** Told the duration in ms of each bulk request OpenSearch answered (metrics). */
  readonly onRequest?: (ms: number) => void;
  /**
   * Asked before each request (the crawl's lease, fence.ts): a request waits while it says wait, and
   * when it says never the writer closes, every action it holds settling as not written (`closed`).
   */
  readonly fence?: WriteFence;
}

interface Pending {
  readonly action: BulkAction;
  /**
   * The action's NDJSON lines (action, then document) in UTF-8, encoded once as the action is added:
   * a request's body is these bytes put together, not a string joined, measured and encoded again
   * by the client (with the document's JSON, ~130 -> ~57 us a bench page, scripts/bench/json-line.mjs).
   */
  readonly line: Buffer;
  attempts: number;
  /** Retries while its shard was unavailable (not counted against maxAttempts; they set the backoff). */
  waits: number;
  settle(r: BulkResult): void;
}

const BULK_FILTER_PATH = ['items.*.status', 'items.*._version', 'items.*.error.type', 'items.*.error.reason'];

const NEWLINE = Buffer.from('\n');

const TEMPORARY = (status: number) => status === 429 || status >= 500;

/**
 * Buffers actions into `_bulk` requests and settles each action from its own item result. A 409 on
 * `create` is success (the existing document wins). Items the cluster rejects as temporary are retried
 * with backoff up to `maxAttempts`; while the cluster cannot be reached at all, whole requests are
 * retried without limit, and so are items whose shard is unavailable (a node holding its only copy
 * is down, a primary is failing over): an outage of part of the cluster is waited out as one of all
 * of it, and `add` makes callers wait once `maxPending` actions are unsettled, so an
 * outage pauses the pipeline instead of growing memory or dropping updates. `close` ends all of it:
 * every action not yet acknowledged settles as not written (`closed`), retries stop, and nothing
 * is left to keep the process alive.
 */
export class BulkWriter {
  private buffer: Pending[] = [];
  private bytes = 0;
  private pendingCount = 0;
  private inFlight = 0;
  private readonly roomWaiters: (() => void)[] = [];
  private readonly slotWaiters: (() => void)[] = [];
  private timer: NodeJS.Timeout | undefined;
  private readonly flushes = new Set<Promise<void>>();
  /** Actions waiting for a retry of their own (temporary item failures). */
  private readonly retrying = new Set<Pending>();
  /** Actions whose last attempt found their shard unavailable, until one succeeds or fails otherwise. */
  private readonly waitingForShards = new Set<Pending>();
  /** Wakes the requests sleeping before their next attempt. */
  private readonly sleepers = new Set<() => void>();
  private closed = false;
  /** What actions not written settle with once closed: closed by the owner, or by the fence. */
  private closedWith = CLOSED;
  /** `sendNow` found every request slot taken: the buffer goes when a request returns. */
  private sendWhenFree = false;
  private readonly outage: ClusterOutage;

  private readonly clock: Clock;

  constructor(
    private readonly client: Client,
    private readonly options: BulkWriterOptions,
    deps: {
      readonly clock: Clock;
      readonly log: Logger;
      /** Shared with the other parts that talk to the cluster, so an outage is logged once. */
      readonly outage?: ClusterOutage;
    },
  ) {
    this.clock = deps.clock;
    this.outage = deps.outage ?? new ClusterOutage(deps.clock, deps.log);
  }

  /** Actions accepted and not yet settled. */
  get pending(): number {
    return this.pendingCount;
  }

  /** True while requests fail because the cluster cannot be reached. */
  get inOutage(): boolean {
    return this.outage.isDown;
  }

  /**
   * Resolves when the writer has room for another action: callers await it before `add`, so that
   * an outage or a slow cluster slows them down instead of growing memory (backpressure).
   */
  async ready(): Promise<void> {
    while (this.pendingCount >= this.options.maxPending && !this.closed) {
      await new Promise<void>((resolve) => this.roomWaiters.push(resolve));
    }
  }

  /** Sends everything buffered and resolves when every accepted action is settled. */
  async flush(): Promise<void> {
    // Items waiting for a retry are in neither the buffer nor a request: count on pendingCount.
    while (this.pendingCount > 0) {
      if (this.buffer.length > 0) this.send();
      if (this.flushes.size > 0) await Promise.race([...this.flushes]);
      else await sleep(20);
    }
  }

  /**
   * Sends what is buffered now instead of at the flush interval, without waiting: for a crawl with
   * nothing else to do. While `concurrency` requests are out already, it is sent as soon as one
   * returns, so the buffer fills into one bulk meanwhile instead of many tiny ones.
   */
  sendNow(): void {
    if (this.buffer.length === 0) return;
    if (this.flushes.size < this.options.concurrency) this.send();
    else this.sendWhenFree = true;
  }

  /**
   * Stops for good: timers cleared, retries ended, and every action not acknowledged yet settles as
   * not written (`closed`). Requests in flight settle theirs when they return.
   */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    const buffered = this.buffer;
    this.buffer = [];
    this.bytes = 0;
    for (const p of [...buffered, ...this.retrying]) p.settle(this.closedWith);
    this.retrying.clear();
    this.waitingForShards.clear();
    for (const wake of [...this.sleepers]) wake();
    for (const resolve of this.roomWaiters.splice(0)) resolve();
    for (const resolve of this.slotWaiters.splice(0)) resolve();
  }

  /** Queues an action (after `ready`); resolves when OpenSearch settled it, never rejects. */
  add(action: BulkAction): Promise<BulkResult> {
    if (this.closed) return Promise.resolve(this.closedWith);
    this.pendingCount++;
    const meta: Record<string, string> = { _index: action.index };
    if (action.id !== '') meta._id = action.id;
    if (action.routing !== undefined) meta.routing = action.routing;
    const head = JSON.stringify({ [action.op]: meta });
    const line = Buffer.from(action.doc === undefined ? head : `${head}\n${documentJson(action.doc)}`);
    return new Promise<BulkResult>((resolve) => {
      this.push({
        action,
        line,
        attempts: 0,
        waits: 0,
        settle: (r) => {
          this.pendingCount--;
          this.roomWaiters.shift()?.();
          resolve(r);
        },
      });
    });
  }

  private push(p: Pending): void {
    if (this.closed) {
      p.settle(this.closedWith);
      return;
    }
    this.buffer.push(p);
    this.bytes += p.line.length + 1;
    if (this.buffer.length >= this.options.maxActions || this.bytes >= this.options.maxBytes) this.send();
    else if (!this.timer) this.timer = setTimeout(() => this.send(), this.options.flushIntervalMs);
  }

  private send(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.buffer.length === 0) return;
    const batch = this.buffer;
    this.buffer = [];
    this.bytes = 0;
    this.sendWhenFree = false;
    const p = this.request(batch).finally(() => {
      this.flushes.delete(p);
      if (this.sendWhenFree) this.sendNow();
    });
    this.flushes.add(p);
  }

  private async request(batch: Pending[]): Promise<void> {
    while (this.inFlight >= this.options.concurrency && !this.closed) {
      await new Promise<void>((resolve) => this.slotWaiters.push(resolve));
    }
    this.inFlight++;
    try {
      for (let attempt = 0; ; attempt++) {
        const fence = this.options.fence?.admit() ?? true;
        if (fence !== true && !(await fence) && !this.closed) {
          // The lease was lost: another crawl owns these shards now. Nothing more is written; the
          // URLs keep their previous state and come back when due, to their new owner.
          this.closedWith = FENCED;
          this.close();
        }
        if (this.closed) {
          for (const p of batch) p.settle(this.closedWith);
          return;
        }
        try {
          const parts: Buffer[] = [];
          for (const p of batch) parts.push(p.line, NEWLINE);
          const body = Buffer.concat(parts);
          // Prepared NDJSON bytes pass through the client unchanged. Only the item statuses
          // and errors are read (and versions, which tell the spout when an update became
          // searchable): the rest of each item (index, id, shards...) is not sent.
          const wait = this.options.shardWaitMs;
          const sent = this.clock.now();
          const res = await this.client.bulk({
            body: body as never,
            filter_path: BULK_FILTER_PATH,
            ...(wait === undefined ? {} : { timeout: `${wait}ms` }),
          });
          this.options.onRequest?.(this.clock.now() - sent);
          this.outage.up();
          this.settleItems(batch, res.body.items as unknown as Record<string, ItemResponse>[]);
          return;
        } catch (e) {
          const status = statusOf(e);
          if (status > 0 && shardUnavailable(status, errorType(e))) {
            // The cluster answered that it cannot take writes now (no cluster manager, say).
            this.outage.up();
            this.outage.shardsUnavailable(this, 'bulk write', errorMessage(e));
            for (const p of batch) this.waitingForShards.add(p);
          } else if (status > 0 && status < 500 && status !== 429) {
            // The request itself is bad (e.g. 413 too large): retrying cannot help.
            for (const p of batch) p.settle({ ok: false, status, error: errorMessage(e) });
            return;
          } else {
            this.outage.down('bulk write', e);
          }
          await this.sleep(this.backoff(attempt));
        }
      }
    } finally {
      this.inFlight--;
      this.slotWaiters.shift()?.();
    }
  }

  private settleItems(batch: Pending[], items: Record<string, ItemResponse>[]): void {
    const retry: Pending[] = [];
    let unavailable: ItemResponse | undefined;
    batch.forEach((p, i) => {
      this.waitingForShards.delete(p);
      const item = items[i] ? Object.values(items[i])[0] : undefined;
      if (!item) {
        p.settle({ ok: false, status: 0, error: 'no item in the bulk response' });
        return;
      }
      const status = item.status;
      if (shardUnavailable(status, item.error?.type) && !this.closed) {
        // Waited out without limit, as an unreachable cluster is; not counted as an attempt.
        unavailable ??= item;
        p.waits++;
        this.waitingForShards.add(p);
        retry.push(p);
      } else if (status < 300 || (status === 409 && p.action.op === 'create')) {
        const result = item.result ?? (status === 409 ? 'exists' : 'ok');
        p.settle(
          status < 300 && item._version !== undefined
            ? { ok: true, status, result, version: item._version }
            : { ok: true, status, result },
        );
      } else if (status === 404 && p.action.op === 'delete') {
        p.settle({ ok: true, status, result: 'not_found' });
      } else if (TEMPORARY(status) && (++p.attempts < this.options.maxAttempts || p.action.untilWritten)) {
        retry.push(p);
      } else {
        p.settle({
          ok: false,
          status,
          error: item.error ? `${item.error.type}: ${item.error.reason}` : `HTTP ${status}`,
        });
      }
    });
    if (unavailable) {
      const e = unavailable.error;
      this.outage.shardsUnavailable(
        this,
        'bulk write',
        e ? `${e.type}: ${e.reason}` : `HTTP ${unavailable.status}`,
      );
    } else if (this.waitingForShards.size === 0) {
      this.outage.shardsAvailable(this);
    }
    if (retry.length > 0 && this.closed) {
      for (const p of retry) p.settle(this.closedWith);
    } else if (retry.length > 0) {
      for (const p of retry) this.retrying.add(p);
      const first = retry[0]!;
      const wait = this.backoff(this.waitingForShards.has(first) ? first.waits - 1 : first.attempts);
      setTimeout(() => {
        for (const p of retry) if (this.retrying.delete(p)) this.push(p);
      }, wait).unref();
    }
  }

  private backoff(attempt: number): number {
    const { base, max } = this.options.backoffMs;
    return Math.min(max, base * 2 ** Math.min(attempt, 20));
  }

  /** Waits before the next attempt; `close` cuts the wait short. */
  private sleep(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(t);
        this.sleepers.delete(wake);
        resolve();
      };
      const t = setTimeout(wake, ms);
      this.sleepers.add(wake);
    });
  }
}

interface ItemResponse {
  status: number;
  _version?: number;
  result?: string;
  error?: { type: string; reason: string };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
