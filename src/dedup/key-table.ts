import { MIN_TABLE_CAPACITY, tableCapacity } from '../util/table-capacity.js';

/**
 * A multimap of small integer keys (memoryKeys: 30-bit hashes, well mixed) to small integer values
 * (entry numbers), in two typed arrays with open addressing and linear probing: a key may be stored
 * several times with different values (pages that share a band). Deletion shifts the rest of a run
 * back (no tombstones), so a long crawl's adds and removes never slow the probes down.
 *
 * Why not a Map of arrays: the recent canonicals hold 30 keys for each of up to 10,000 pages, and in
 * a crawl's profile the Map's hashing, its deleted entries and the arrays behind each key cost as
 * much as the fingerprints themselves; these arrays are 8 bytes a key and allocate nothing per page.
 */
export class KeyTable {
  private keys: Int32Array;
  /** The value + 1 of each slot; 0: empty. */
  private values: Int32Array;
  private used = 0;

  /** `expected`: about how many pairs it will hold (it grows past that, at half load). */
  constructor(expected = 0) {
    const capacity = tableCapacity(expected);
    this.keys = new Int32Array(capacity);
    this.values = new Int32Array(capacity);
  }

  /** Stores `value` under `key` (a pair stored twice is there twice, and takes two deletes). */
  put(key: number, value: number): void {
    if (2 * (this.used + 1) > this.keys.length) this.resize(this.keys.length * 2);
    this.place(key, value + 1);
    this.used++;
  }

  /** Removes the pair (once); false when it was not there. */
  delete(key: number, value: number): boolean {
    const keys = this.keys;
    const values = this.values;
    const mask = keys.length - 1;
    let i = key & mask;
    for (;;) {
      const v = values[i]!;
      if (v === 0) return false;
      if (v === value + 1 && keys[i] === key) break;
      i = (i + 1) & mask;
    }
    // Backward shift: a later pair of the run moves into the hole unless its home lies after it.
    for (let j = (i + 1) & mask; values[j] !== 0; j = (j + 1) & mask) {
      const home = keys[j]! & mask;
      const stays = i <= j ? i < home && home <= j : i < home || home <= j;
      if (stays) continue;
      keys[i] = keys[j]!;
      values[i] = values[j]!;
      i = j;
    }
    values[i] = 0;
    this.used--;
    if (this.keys.length > MIN_TABLE_CAPACITY && 8 * this.used < this.keys.length)
      this.resize(this.keys.length / 2);
    return true;
  }

  /** Appends the values stored under `key` to `out`; returns how many. */
  get(key: number, out: number[]): number {
    const keys = this.keys;
    const values = this.values;
    const mask = keys.length - 1;
    let n = 0;
    for (let i = key & mask; values[i] !== 0; i = (i + 1) & mask) {
      if (keys[i] === key) {
        out.push(values[i]! - 1);
        n++;
      }
    }
    return n;
  }

  get size(): number {
    return this.used;
  }

  private place(key: number, stored: number): void {
    const mask = this.keys.length - 1;
    let i = key & mask;
    while (this.values[i] !== 0) i = (i + 1) & mask;
    this.keys[i] = key;
    this.values[i] = stored;
  }

  private resize(capacity: number): void {
    const oldKeys = this.keys;
    const oldValues = this.values;
    this.keys = new Int32Array(capacity);
    this.values = new Int32Array(capacity);
    for (let j = 0; j < oldKeys.length; j++) if (oldValues[j] !== 0) this.place(oldKeys[j]!, oldValues[j]!);
  }
}
