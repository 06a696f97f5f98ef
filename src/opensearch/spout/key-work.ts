import type { Clock } from '../../util/clock.js';
import { MinHeap } from '../../util/heap.js';

/** What the spout knows of one key (host) beyond its buffer. */
interface KeyState {
  /** The index holds due URLs of the key from this time on (that no query has handed out yet). */
  dueAt: number | undefined;
  /** The earliest wake-up pending for the key, if any. */
  wakeAt: number | undefined;
  /** A URL settled back into the index is due again (a deferral that ends): worth a query of its own. */
  urgent: boolean;
  /** Sort values of the last hit seen of the key: where its next per-key query starts. */
  cursor: readonly unknown[] | undefined;
  refilling: boolean;
  /** Its fetch queue has had nothing to fetch since then (politeness delay included). */
  drainedAt: number | undefined;
  /** ... while due URLs of it were known: idle with work since then. */
  idleSince: number | undefined;
}

/**
 * Per-key knowledge of due work the spout has not handed out yet, with timers for work that becomes
 * due later (a deferral that ends, an update that becomes searchable), and the count of time a key's
 * fetch queue sat idle while such work was known: `idleWithWorkMs`, what the frontier cost the
 * crawl. Bounded: the least recently added keys are forgotten past `maxKeys`.
 */
export class KeyWork {
  private readonly keys = new Map<string, KeyState>();
  private readonly wakes = new MinHeap<string>();
  /** Host-ms of idle queues while their key had known due work; see `drained` and `fed`. */
  idleWithWorkMs = 0;

  constructor(
    private readonly clock: Clock,
    private readonly maxKeys = 10_000,
  ) {}

  get size(): number {
    return this.keys.size;
  }

  /** True when due URLs of the key are known to be in the index now. */
  hasDue(key: string): boolean {
    const at = this.keys.get(key)?.dueAt;
    return at !== undefined && at <= this.clock.now();
  }

  isRefilling(key: string): boolean {
    return this.keys.get(key)?.refilling === true;
  }

  refilling(key: string, on: boolean): void {
    this.state(key).refilling = on;
  }

  cursorOf(key: string): readonly unknown[] | undefined {
    return this.keys.get(key)?.cursor;
  }

  setCursor(key: string, cursor: readonly unknown[] | undefined): void {
    this.state(key).cursor = cursor;
  }

  /** True when a URL of the key settled back into the index is due again (see `wakeAt`). */
  isUrgent(key: string): boolean {
    return this.keys.get(key)?.urgent === true;
  }

  /** The index holds due URLs of the key, searchable now. */
  due(key: string): void {
    const s = this.state(key);
    const now = this.clock.now();
    s.dueAt ??= now;
    this.known(s, now);
  }

  /**
   * Due URLs of the key will be searchable at `at`: `wokenUp` returns the key then. `urgent`: a URL
   * the spout settled is due again then (a deferral that ends), worth a per-key query even when the
   * main queries cover many keys.
   */
  wakeAt(key: string, at: number, urgent: boolean): void {
    const s = this.state(key);
    if (urgent) s.urgent = true;
    if (s.wakeAt !== undefined && s.wakeAt <= at) return;
    s.wakeAt = at;
    this.wakes.push(at, key);
  }

  /** The keys whose wake-up time came (each marked due now), earliest first. */
  wokenUp(): string[] {
    const now = this.clock.now();
    const out: string[] = [];
    while ((this.wakes.peekPriority() ?? Number.POSITIVE_INFINITY) <= now) {
      const key = this.wakes.pop()!;
      const s = this.keys.get(key);
      if (!s || s.wakeAt === undefined || s.wakeAt > now) continue;
      s.wakeAt = undefined;
      this.due(key);
      out.push(key);
    }
    return out;
  }

  /** When the next wake-up is due, if any. */
  nextWake(): number | undefined {
    return this.wakes.peekPriority();
  }

  /**
   * A per-key query that started at `startedAt` found every due URL of the key it could see: the
   * work known then is in hand. An idle stretch that expected work gets no credit: there was none.
   */
  exhausted(key: string, startedAt: number): void {
    const s = this.keys.get(key);
    if (!s) return;
    if (s.dueAt !== undefined && s.dueAt <= startedAt) {
      s.dueAt = undefined;
      s.urgent = false;
    }
    if (s.dueAt === undefined) s.idleSince = undefined;
  }

  /** Buffered URLs of the key, or due ones in the index, are known from now (for the idle count). */
  buffered(key: string): void {
    this.known(this.state(key), this.clock.now());
  }

  /**
   * The key's fetch queue has nothing to fetch from `at` (its politeness delay over); `withWork` says
   * whether URLs of it are known (buffered or due in the index): from then on it is idle with work.
   */
  drained(key: string, at: number, withWork: boolean): void {
    const s = this.state(key);
    s.drainedAt = at;
    s.idleSince = withWork ? at : undefined;
  }

  /** A URL of the key went to the fetcher: its idle stretch (if any) ends and is counted. */
  fed(key: string): void {
    const s = this.keys.get(key);
    if (!s || s.drainedAt === undefined) return;
    if (s.idleSince !== undefined) this.idleWithWorkMs += Math.max(0, this.clock.now() - s.idleSince);
    s.drainedAt = undefined;
    s.idleSince = undefined;
  }

  private known(s: KeyState, at: number): void {
    if (s.drainedAt !== undefined && s.idleSince === undefined) s.idleSince = Math.max(s.drainedAt, at);
  }

  private state(key: string): KeyState {
    let s = this.keys.get(key);
    if (!s) {
      if (this.keys.size >= this.maxKeys) {
        // Forget the oldest key that is not being refilled (its refill must find its state).
        for (const [k, old] of this.keys) {
          if (old.refilling) continue;
          this.keys.delete(k);
          break;
        }
      }
      s = {
        dueAt: undefined,
        wakeAt: undefined,
        urgent: false,
        cursor: undefined,
        refilling: false,
        drainedAt: undefined,
        idleSince: undefined,
      };
      this.keys.set(key, s);
    }
    return s;
  }
}
