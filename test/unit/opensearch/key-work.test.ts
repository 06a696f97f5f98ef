import { describe, expect, it } from 'vitest';
import { KeyWork } from '../../../src/opensearch/spout/key-work.js';
import { ManualClock } from '../../../src/util/clock.js';

describe('what the spout knows of each key: due work, wake-ups and idle time', () => {
  it('counts the time a drained queue waited for a URL while due URLs of its key were known', () => {
    const clock = new ManualClock(1000);
    const w = new KeyWork(clock);
    w.due('a');
    w.drained('a', 1000, w.hasDue('a'));
    clock.advance(40);
    w.fed('a');
    expect(w.idleWithWorkMs).toBe(40);
    // Fed again with no idle stretch: nothing more.
    clock.advance(100);
    w.fed('a');
    expect(w.idleWithWorkMs).toBe(40);
  });

  it('counts nothing for a queue idle with no work known, nor before its politeness delay ended', () => {
    const clock = new ManualClock(1000);
    const w = new KeyWork(clock);
    w.drained('a', 1000, false);
    clock.advance(500);
    w.fed('a');
    // Drained with work at 1500, but its delay runs until 1800: fed at 1700, it was not idle.
    w.due('b');
    w.drained('b', 1800, true);
    clock.advance(200);
    w.fed('b');
    expect(w.idleWithWorkMs).toBe(0);
    w.drained('b', 1800, true);
    clock.advance(150);
    w.fed('b');
    expect(w.idleWithWorkMs).toBe(50);
  });

  it('counts from when work became known, and gives no credit when a query finds the work was not there', () => {
    const clock = new ManualClock(0);
    const w = new KeyWork(clock);
    w.drained('a', 0, false);
    clock.advance(100);
    w.buffered('a');
    clock.advance(30);
    w.fed('a');
    expect(w.idleWithWorkMs).toBe(30);
    w.due('b');
    w.drained('b', clock.now(), true);
    clock.advance(50);
    w.exhausted('b', clock.now() - 10);
    expect(w.hasDue('b')).toBe(false);
    w.fed('b');
    expect(w.idleWithWorkMs).toBe(30);
  });

  it('wakes a key up when its work comes due, earliest first, once per key', () => {
    const clock = new ManualClock(0);
    const w = new KeyWork(clock);
    w.wakeAt('a', 2000, true);
    w.wakeAt('b', 1000, false);
    w.wakeAt('a', 3000, false);
    expect(w.wokenUp()).toEqual([]);
    expect(w.nextWake()).toBe(1000);
    clock.advance(2500);
    expect(w.wokenUp()).toEqual(['b', 'a']);
    expect(w.hasDue('a')).toBe(true);
    expect(w.isUrgent('a')).toBe(true);
    expect(w.isUrgent('b')).toBe(false);
    clock.advance(1000);
    expect(w.wokenUp()).toEqual([]);
    // A query that found everything due when it started ends the urgency.
    w.exhausted('a', clock.now());
    expect(w.isUrgent('a')).toBe(false);
  });

  it('remembers a bounded number of keys', () => {
    const w = new KeyWork(new ManualClock(0), 3);
    for (const k of ['a', 'b', 'c', 'd']) w.due(k);
    expect(w.size).toBe(3);
    expect(w.hasDue('a')).toBe(false);
    expect(w.hasDue('d')).toBe(true);
  });
});
