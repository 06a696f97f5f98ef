import type { Candidate } from './decide.js';
import { memoryKeys } from './keys.js';

interface Entry {
  readonly candidate: Candidate;
  readonly keys: readonly number[];
}

/**
 * Candidates indexed by what a page finds them by: the MinHash band keys of long texts, the exact
 * signature of short texts (as memoryKeys gives them), and the document id (the page's own previous
 * document). A page's lookup costs a map read per key, however many candidates a group of pages
 * brought back. A key holds its one candidate itself, and a list only when two share it: almost
 * every key of a page is its own, and a list per key (30 per page, in the recent canonicals) was
 * most of what the judge allocated.
 */
export class CandidateSet {
  private readonly byKey = new Map<number, Candidate | Candidate[]>();
  private readonly byId = new Map<string, Entry>();

  /** `keys`: the candidate's memoryKeys when the caller has them already. */
  add(c: Candidate, keys: readonly number[] = memoryKeys(c)): void {
    this.remove(c.id);
    this.byId.set(c.id, { candidate: c, keys });
    for (const k of keys) {
      const held = this.byKey.get(k);
      if (held === undefined) this.byKey.set(k, c);
      else if (Array.isArray(held)) held.push(c);
      else this.byKey.set(k, [held, c]);
    }
  }

  remove(id: string): void {
    const old = this.byId.get(id);
    if (!old) return;
    this.byId.delete(id);
    for (const k of old.keys) {
      const held = this.byKey.get(k);
      if (held === old.candidate) this.byKey.delete(k);
      else if (Array.isArray(held)) {
        const at = held.indexOf(old.candidate);
        if (at >= 0) held.splice(at, 1);
        if (held.length === 1) this.byKey.set(k, held[0]!);
      }
    }
  }

  byDocument(id: string): Candidate | undefined {
    return this.byId.get(id)?.candidate;
  }

  /** The candidates sharing a key (`memoryKeys` of the page's fingerprint) with the page, each once. */
  find(keys: readonly number[], out: Candidate[] = []): Candidate[] {
    // Most pages share no key with anything: no set is made for them.
    let seen: Set<Candidate> | undefined;
    for (const k of keys) {
      const held = this.byKey.get(k);
      if (held === undefined) continue;
      seen ??= new Set(out);
      for (const c of Array.isArray(held) ? held : [held]) {
        if (seen.has(c)) continue;
        seen.add(c);
        out.push(c);
      }
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
