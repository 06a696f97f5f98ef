import { tableCapacity } from '../util/table-capacity.js';

/**
 * A set of 32-bit shingle hashes for one fingerprint at a time (well mixed already: a key's low bits
 * choose its slot): open addressing in one Int32Array, 0 meaning an empty slot (the key 0 is kept
 * apart). It keeps its room between texts (no allocation per page), but each text uses only a table
 * of twice its expected size, emptied by `reset`: the probes then fall in a few kilobytes that the
 * emptying has just brought into the cache. (A table of the largest text's size, emptied by a
 * generation stamp per slot, missed the cache on most probes in a crawl, where other work evicts it
 * between pages: a fingerprint cost twice as much in a crawl's profile as in a loop over the same
 * texts.)
 */
export class ShingleSet {
  private table = new Int32Array(tableCapacity(0));
  private mask = this.table.length - 1;
  private size = 0;
  private hasZero = false;

  /** Empties the set for about `expected` hashes (it grows past that) and returns it. */
  reset(expected = 0): this {
    this.empty(tableCapacity(expected));
    this.size = 0;
    this.hasZero = false;
    return this;
  }

  /** Adds a hash; false when it was in the set already. */
  add(key: number): boolean {
    key |= 0;
    if (key === 0) {
      if (this.hasZero) return false;
      this.hasZero = true;
      return true;
    }
    if (2 * (this.size + 1) > this.mask + 1) this.grow();
    const table = this.table;
    const mask = this.mask;
    for (let i = key & mask; ; i = (i + 1) & mask) {
      const k = table[i]!;
      if (k === 0) {
        table[i] = key;
        this.size++;
        return true;
      }
      if (k === key) return false;
    }
  }

  /** Doubles the part of the table in use, placing its keys again. */
  private grow(): void {
    const old = this.table.slice(0, this.mask + 1);
    this.empty(2 * old.length);
    const table = this.table;
    const mask = this.mask;
    for (const key of old) {
      if (key === 0) continue;
      let i = key & mask;
      while (table[i] !== 0) i = (i + 1) & mask;
      table[i] = key;
    }
  }

  /** Uses the first `capacity` slots of the table (a larger one if it has fewer), all empty. */
  private empty(capacity: number): void {
    if (this.table.length < capacity) this.table = new Int32Array(capacity);
    else this.table.fill(0, 0, capacity);
    this.mask = capacity - 1;
  }
}

/**
 * How often each 32-bit shingle hash occurred in one text so far (one text at a time, like
 * ShingleSet): open addressing in one Int32Array of (key, count) slots, a key and its count in one
 * cache line, 0 meaning an empty slot (the key 0 counted apart). For the whole body's bag
 * signature (body.ts): the k-th occurrence of a shingle is a value of its own there.
 */
export class ShingleCounts {
  private table = new Int32Array(2 * tableCapacity(0));
  private mask = this.table.length / 2 - 1;
  private size = 0;
  private zeros = 0;

  /** Empties it for about `expected` hashes (it grows past that) and returns it. */
  reset(expected = 0): this {
    this.empty(tableCapacity(expected));
    this.size = 0;
    this.zeros = 0;
    return this;
  }

  /** Counts one more occurrence of `key` and returns how many there are now (1 the first time). */
  bump(key: number): number {
    key |= 0;
    if (key === 0) return ++this.zeros;
    if (2 * (this.size + 1) > this.mask + 1) this.grow();
    const table = this.table;
    const mask = this.mask;
    for (let i = key & mask; ; i = (i + 1) & mask) {
      const k = table[2 * i]!;
      if (k === 0) {
        table[2 * i] = key;
        table[2 * i + 1] = 1;
        this.size++;
        return 1;
      }
      if (k === key) return ++table[2 * i + 1]!;
    }
  }

  /** Doubles the part of the table in use, placing its slots again. */
  private grow(): void {
    const old = this.table.slice(0, 2 * (this.mask + 1));
    this.empty(old.length);
    const table = this.table;
    const mask = this.mask;
    for (let o = 0; o < old.length; o += 2) {
      const key = old[o]!;
      if (key === 0) continue;
      let i = key & mask;
      while (table[2 * i] !== 0) i = (i + 1) & mask;
      table[2 * i] = key;
      table[2 * i + 1] = old[o + 1]!;
    }
  }

  /** Lets a table grown for more than `expected` hashes go, for a small one (bounded memory between pages). */
  release(expected: number): void {
    if (this.table.length <= 2 * tableCapacity(expected)) return;
    this.table = new Int32Array(2 * tableCapacity(0));
    this.mask = this.table.length / 2 - 1;
  }

  /** Uses the first `capacity` slots of the table (a larger one if it has fewer), all empty. */
  private empty(capacity: number): void {
    if (this.table.length < 2 * capacity) this.table = new Int32Array(2 * capacity);
    else this.table.fill(0, 0, 2 * capacity);
    this.mask = capacity - 1;
  }
}
