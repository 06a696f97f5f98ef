/**
 * A set of 32-bit shingle hashes for one fingerprint at a time (well mixed already: a key's low bits
 * choose its slot): open addressing with a generation
 * stamp per slot, so `reset` costs nothing and the table keeps its size between texts (no
 * allocation per page). It grows at half load.
 */
export class ShingleSet {
  private keys = new Int32Array(4096);
  private stamps = new Uint32Array(4096);
  private generation = 0;
  private size = 0;

  /** Empties the set (in O(1)) and returns it. */
  reset(): this {
    this.generation++;
    if (this.generation === 0xffffffff) {
      this.stamps.fill(0);
      this.generation = 1;
    }
    this.size = 0;
    return this;
  }

  /** Adds a hash; false when it was in the set already. */
  add(key: number): boolean {
    key |= 0;
    if (2 * (this.size + 1) > this.keys.length) this.grow();
    const mask = this.keys.length - 1;
    const gen = this.generation;
    for (let i = key & mask; ; i = (i + 1) & mask) {
      if (this.stamps[i] !== gen) {
        this.stamps[i] = gen;
        this.keys[i] = key;
        this.size++;
        return true;
      }
      if (this.keys[i] === key) return false;
    }
  }

  private grow(): void {
    const oldKeys = this.keys;
    const oldStamps = this.stamps;
    const gen = this.generation;
    this.keys = new Int32Array(oldKeys.length * 2);
    this.stamps = new Uint32Array(oldKeys.length * 2);
    const mask = this.keys.length - 1;
    for (let j = 0; j < oldKeys.length; j++) {
      if (oldStamps[j] !== gen) continue;
      const key = oldKeys[j]!;
      let i = key & mask;
      while (this.stamps[i] === gen) i = (i + 1) & mask;
      this.stamps[i] = gen;
      this.keys[i] = key;
    }
  }
}
