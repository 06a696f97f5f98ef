import { describe, expect, it } from 'vitest';
import { parseCacheSpec } from '../../../src/model/cache-spec.js';
import { DiscoveredCache } from '../../../src/model/discovered-cache.js';
import { ManualClock } from '../../../src/util/clock.js';

function cache(spec: string) {
  const clock = new ManualClock();
  return { cache: new DiscoveredCache(parseCacheSpec(spec, 'spec'), clock), clock };
}

describe('DiscoveredCache', () => {
  it('knows a URL only after it was put, and counts hits and misses', () => {
    const { cache: c } = cache('maximumSize=10');
    expect(c.has('a')).toBe(false);
    c.put('a');
    expect(c.has('a')).toBe(true);
    expect(c.has('a')).toBe(true);
    expect(c.stats()).toEqual({ hits: 2, misses: 1, size: 1 });
  });

  it('expireAfterAccess: an entry read within the period lives on', () => {
    const { cache: c, clock } = cache('expireAfterAccess=1h');
    c.put('a');
    clock.advanceMinutes(59);
    expect(c.has('a')).toBe(true);
    clock.advanceMinutes(59);
    expect(c.has('a')).toBe(true);
    clock.advanceMinutes(60);
    expect(c.has('a')).toBe(false);
    expect(c.size).toBe(0);
  });

  it('expireAfterWrite: reading does not extend the life of an entry', () => {
    const { cache: c, clock } = cache('expireAfterWrite=10m');
    c.put('a');
    clock.advanceMinutes(9);
    expect(c.has('a')).toBe(true);
    clock.advanceMinutes(1);
    expect(c.has('a')).toBe(false);
  });

  it('a new put restarts both periods', () => {
    const { cache: c, clock } = cache('expireAfterWrite=10m');
    c.put('a');
    clock.advanceMinutes(9);
    c.put('a');
    clock.advanceMinutes(9);
    expect(c.has('a')).toBe(true);
  });

  it('maximumSize evicts the least recently used URL', () => {
    const { cache: c } = cache('maximumSize=2');
    c.put('a');
    c.put('b');
    expect(c.has('a')).toBe(true);
    c.put('c');
    expect(c.has('b')).toBe(false);
    expect(c.has('a')).toBe(true);
    expect(c.has('c')).toBe(true);
    expect(c.size).toBe(2);
  });

  it('repeated hits on a recent URL (the home page of every page) keep eviction least recently used', () => {
    const { cache: c } = cache('maximumSize=4');
    for (const u of ['a', 'b', 'c', 'd']) c.put(u);
    for (let i = 0; i < 50; i++) expect(c.has('d')).toBe(true);
    expect(c.has('a')).toBe(true);
    expect(c.has('c')).toBe(true);
    c.put('e');
    c.put('f');
    expect(c.has('b')).toBe(false);
    expect(c.has('d')).toBe(false);
    for (const u of ['a', 'c', 'e', 'f']) expect(c.has(u)).toBe(true);
  });

  it('maximumSize=0 caches nothing', () => {
    const { cache: c } = cache('maximumSize=0');
    c.put('a');
    expect(c.has('a')).toBe(false);
  });

  it('expired entries are dropped when new ones come in', () => {
    const { cache: c, clock } = cache('maximumSize=100,expireAfterAccess=1m');
    for (let i = 0; i < 50; i++) c.put(`u${i}`);
    clock.advanceMinutes(2);
    c.put('fresh');
    expect(c.size).toBe(1);
  });
});
