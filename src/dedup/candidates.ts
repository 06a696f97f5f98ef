import { BANDS } from '../fingerprint/minhash.js';
import type { Candidate } from './decide.js';
import { KeyTable } from './key-table.js';
import { memoryKeys } from './keys.js';

interface Entry {
  readonly candidate: Candidate;
  readonly keys: readonly number[];
  /** Its number in the key table. */
  readonly slot: number;
}

/**
 * Candidates indexed by what a page finds them by: the MinHash band keys of long texts, the exact
 * signature of short texts (as memoryKeys gives them), and the document id (the page's own previous
 * document). A page's lookup costs a probe of a typed table per key (key-table.ts), however many
 * candidates a group of pages brought back, and adding or removing one allocates nothing per key.
 */
export class CandidateSet {
  private readonly table: KeyTable;
  private readonly byId = new Map<string, Entry>();
  /** Candidates by their number in the table; numbers of removed ones are reused. */
  private readonly slots: (Candidate | undefined)[] = [];
  private readonly free: number[] = [];
  private readonly found: number[] = [];

  /** `expected`: about how many candidates it will hold (a group's lookup knows). */
  constructor(expected = 0) {
    this.table = new KeyTable(expected * BANDS);
  }

  /** `keys`: the candidate's memoryKeys when the caller has them already. */
  add(c: Candidate, keys: readonly number[] = memoryKeys(c)): void {
    this.remove(c.id);
    const slot = this.free.pop() ?? this.slots.length;
    this.slots[slot] = c;
    this.byId.set(c.id, { candidate: c, keys, slot });
    // A key twice in one candidate's list (two bands hashing alike) is stored twice and removed twice.
    for (const k of keys) this.table.put(k, slot);
  }

  remove(id: string): void {
    const old = this.byId.get(id);
    if (!old) return;
    this.byId.delete(id);
    for (const k of old.keys) this.table.delete(k, old.slot);
    this.slots[old.slot] = undefined;
    this.free.push(old.slot);
  }

  byDocument(id: string): Candidate | undefined {
    return this.byId.get(id)?.candidate;
  }

  /** The candidates sharing a key (`memoryKeys` of the page's fingerprint) with the page, each once. */
  find(keys: readonly number[], out: Candidate[] = []): Candidate[] {
    const found = this.found;
    found.length = 0;
    for (const k of keys) this.table.get(k, found);
    for (const slot of found) {
      const c = this.slots[slot]!;
      if (!out.includes(c)) out.push(c);
    }
    return out;
  }

  get size(): number {
    return this.byId.size;
  }
}

/**
 * The canonicals this process decided recently: their documents may not be searchable yet (the
 * content index refreshes every few seconds, and the bulk writer sends every few), so a duplicate
 * fetched right after its canonical is found here. Entries live `ttlMs` (well past a refresh),
 * at most `max` of them.
 */
export class RecentCanonicals {
  private readonly set = new CandidateSet();
  private readonly order: { id: string; at: number }[] = [];
  private head = 0;
  /** When each id was added last: an older entry of the queue no longer removes it. */
  private readonly latest = new Map<string, number>();

  constructor(
    private readonly ttlMs = 30_000,
    private readonly max = 10_000,
  ) {}

  add(c: Candidate, now: number, keys?: readonly number[]): void {
    this.expire(now);
    this.set.add(c, keys);
    this.order.push({ id: c.id, at: now });
    this.latest.set(c.id, now);
  }

  /** As CandidateSet.find, appended to `out`. */
  find(keys: readonly number[], now: number, out: Candidate[] = []): Candidate[] {
    this.expire(now);
    return this.set.find(keys, out);
  }

  /** A page that is no longer a canonical (a duplicate now, or deleted). */
  forget(id: string): void {
    this.set.remove(id);
    this.latest.delete(id);
  }

  get size(): number {
    return this.set.size;
  }

  private expire(now: number): void {
    while (this.head < this.order.length) {
      const e = this.order[this.head]!;
      if (e.at > now - this.ttlMs && this.order.length - this.head <= this.max) break;
      this.head++;
      // An id added again since is younger: keep it.
      if (this.latest.get(e.id) === e.at) {
        this.latest.delete(e.id);
        this.set.remove(e.id);
      }
    }
    if (this.head > 1024 && this.head * 2 > this.order.length) {
      this.order.splice(0, this.head);
      this.head = 0;
    }
  }
}
