import type { PageFingerprint } from '../fingerprint/page.js';
import type { Candidate } from './decide.js';
import { lookupKeys } from './keys.js';

/**
 * Candidates indexed by what a page finds them by: the MinHash band keys of long texts, the exact
 * signature of short texts, and the document id (the page's own previous document). A page's lookup
 * costs a map read per key, however many candidates a group of pages brought back.
 */
export class CandidateSet {
  private readonly byKey = new Map<string, Candidate[]>();
  private readonly byId = new Map<string, Candidate>();

  add(c: Candidate): void {
    this.remove(c.id);
    this.byId.set(c.id, c);
    for (const k of keysOf(c)) {
      const list = this.byKey.get(k);
      if (list) list.push(c);
      else this.byKey.set(k, [c]);
    }
  }

  remove(id: string): void {
    const old = this.byId.get(id);
    if (!old) return;
    this.byId.delete(id);
    for (const k of keysOf(old)) {
      const list = this.byKey.get(k);
      if (!list) continue;
      const rest = list.filter((c) => c !== old);
      if (rest.length === 0) this.byKey.delete(k);
      else this.byKey.set(k, rest);
    }
  }

  byDocument(id: string): Candidate | undefined {
    return this.byId.get(id);
  }

  /** The candidates sharing a key (or the exact signature) with the fingerprint. */
  find(fp: PageFingerprint): Candidate[] {
    const out = new Set<Candidate>();
    for (const k of keysOf(fp)) for (const c of this.byKey.get(k) ?? []) out.add(c);
    return [...out];
  }

  get size(): number {
    return this.byId.size;
  }
}

const keysOf = lookupKeys;

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

  add(c: Candidate, now: number): void {
    this.expire(now);
    this.set.add(c);
    this.order.push({ id: c.id, at: now });
    this.latest.set(c.id, now);
  }

  find(fp: PageFingerprint, now: number): Candidate[] {
    this.expire(now);
    return this.set.find(fp);
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
