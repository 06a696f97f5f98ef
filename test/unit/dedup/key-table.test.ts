import { describe, expect, it } from 'vitest';
import { KeyTable } from '../../../src/dedup/key-table.js';

/** The table's answers beside a plain reference multimap, through random puts and deletes. */
describe('key table', () => {
  it('answers as a map of lists does through many puts and deletes (colliding keys, growth, shrinking)', () => {
    const table = new KeyTable();
    const ref = new Map<number, number[]>();
    let seed = 7;
    const rand = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed % n;
    };
    // Few distinct keys, whatever the table's size homed at its last three slots or its first
    // three: one run that wraps around the table's end, with holes made on both sides of the wrap.
    const keyOf = () => (rand(10) << 20) | (rand(2) === 0 ? 0xfffff - rand(3) : rand(3));
    for (let step = 0; step < 8_000; step++) {
      const key = keyOf();
      const list = ref.get(key) ?? [];
      if (rand(3) > 0 || list.length === 0) {
        const value = rand(1000);
        table.put(key, value);
        list.push(value);
        ref.set(key, list);
      } else {
        const value = list.splice(rand(list.length), 1)[0]!;
        expect(table.delete(key, value)).toBe(true);
      }
      if (step % 97 === 0) {
        for (const [k, values] of ref) {
          const out: number[] = [];
          expect(table.get(k, out)).toBe(values.length);
          expect(out.sort()).toEqual([...values].sort());
        }
      }
    }
    expect(table.size).toBe([...ref.values()].reduce((n, l) => n + l.length, 0));
    // Emptied: every pair deletes once, then the table is empty and small again.
    for (const [k, values] of ref) for (const v of values) expect(table.delete(k, v)).toBe(true);
    expect(table.size).toBe(0);
    expect(table.delete(keyOf(), 1)).toBe(false);
    expect(table.get(keyOf(), [])).toBe(0);
  });

  it('keeps a pair stored twice until it is deleted twice', () => {
    const table = new KeyTable();
    table.put(5, 1);
    table.put(5, 1);
    table.put(5, 2);
    const out: number[] = [];
    table.get(5, out);
    expect(out.sort()).toEqual([1, 1, 2]);
    expect(table.delete(5, 1)).toBe(true);
    expect(table.delete(5, 1)).toBe(true);
    expect(table.delete(5, 1)).toBe(false);
    const rest: number[] = [];
    table.get(5, rest);
    expect(rest).toEqual([2]);
  });
});
