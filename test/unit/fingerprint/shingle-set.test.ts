import { describe, expect, it } from 'vitest';
import { ShingleCounts, ShingleSet } from '../../../src/fingerprint/shingle-set.js';

describe('the shingle set', () => {
  it('says whether a hash is new, grows past its first size, and empties on reset', () => {
    const set = new ShingleSet().reset();
    const added: boolean[] = [];
    for (let i = 0; i < 20_000; i++) added.push(set.add(i * 2654435761));
    expect(added.every(Boolean)).toBe(true);
    for (let i = 0; i < 20_000; i++) expect(set.add(i * 2654435761)).toBe(false);
    set.reset();
    expect(set.add(0)).toBe(true);
    expect(set.add(0)).toBe(false);
  });

  it('forgets the last text on reset, whatever size the next one is expected to have', () => {
    const set = new ShingleSet().reset(50_000);
    for (let i = 1; i <= 50_000; i++) set.add(i * 2654435761);
    for (const expected of [10, 100, 50_000]) {
      set.reset(expected);
      for (let i = 1; i <= 300; i++) expect(set.add(i * 2654435761)).toBe(true);
      expect(set.add(0)).toBe(true);
      for (let i = 1; i <= 300; i++) expect(set.add(i * 2654435761)).toBe(false);
    }
  });
});

describe('the shingle counts', () => {
  it('counts each hash (0 too) across growth, and starts again on reset', () => {
    const counts = new ShingleCounts().reset();
    for (let round = 1; round <= 3; round++)
      for (let i = 0; i < 5_000; i++) expect(counts.bump(i * 2654435761)).toBe(round);
    counts.reset(10);
    expect(counts.bump(2654435761)).toBe(1);
    expect(counts.bump(0)).toBe(1);
    expect(counts.bump(0)).toBe(2);
  });

  it('counts again from a small table once a large one is released', () => {
    const counts = new ShingleCounts().reset(200_000);
    for (let i = 1; i <= 200_000; i++) counts.bump(i * 2654435761);
    counts.release(1_000);
    counts.reset(100);
    for (let round = 1; round <= 2; round++)
      for (let i = 1; i <= 3_000; i++) expect(counts.bump(i * 2654435761)).toBe(round);
  });
});
