import { describe, expect, it } from 'vitest';
import { InFlight } from '../../../src/opensearch/spout/in-flight.js';
import { UrlBuffer } from '../../../src/opensearch/spout/url-buffer.js';
import { ManualClock } from '../../../src/util/clock.js';

describe('spout buffer', () => {
  it('serves keys round-robin and skips URLs already buffered', () => {
    const b = new UrlBuffer<{ url: string }>();
    for (const [k, u] of [
      ['a', 'a1'],
      ['a', 'a2'],
      ['a', 'a3'],
      ['b', 'b1'],
      ['c', 'c1'],
      ['c', 'c2'],
    ]) {
      b.add(k!, { url: u! });
    }
    expect(b.add('a', { url: 'a1' })).toBe(false);
    const order: string[] = [];
    for (let item = b.next(); item; item = b.next()) order.push(item.url);
    expect(order).toEqual(['a1', 'b1', 'c1', 'a2', 'c2', 'a3']);
    expect(b.size).toBe(0);
  });
});

describe('in-flight URLs and the purgatory', () => {
  it('blocks a URL while in flight and for the purgatory time after it settled', () => {
    const clock = new ManualClock(0);
    const f = new InFlight(30_000, clock);
    f.add('u');
    expect(f.blocks('u')).toBe(true);
    expect(f.settle('u')).toBe(true);
    expect(f.settle('u')).toBe(false);
    f.refreshed(1);
    clock.advance(29_999);
    expect(f.blocks('u')).toBe(true);
    clock.advance(1);
    expect(f.blocks('u')).toBe(false);
  });

  it('keeps a settled URL out only until a query shows its acknowledged update (its version or a later one)', () => {
    const clock = new ManualClock(0);
    const f = new InFlight(30_000, clock);
    f.add('u');
    // In flight: blocked whatever the index shows, even the update that settles it.
    expect(f.blocks('u', 7)).toBe(true);
    f.settle('u', 7);
    // The index before its refresh: the document before the update.
    expect(f.blocks('u', 6)).toBe(true);
    // No version known (not a query's hit): the purgatory holds.
    expect(f.blocks('u')).toBe(true);
    // The refresh made the update visible: free at once, long before the purgatory time.
    expect(f.blocks('u', 7)).toBe(false);
    expect(f.inPurgatory).toBe(0);
    f.add('v');
    f.settle('v', 3);
    expect(f.blocks('v', 4)).toBe(false);
  });

  it('an acknowledged update not seen yet outlives the purgatory time until a refresh that started after it completed', () => {
    const clock = new ManualClock(0);
    const f = new InFlight(30_000, clock);
    f.add('u');
    f.settle('u', 5);
    expect(f.needsRefresh()).toBe(false);
    clock.advance(60_000);
    // The refresh is late (a busy cluster): a stale hit is still stale, whatever the time.
    expect(f.blocks('u', 4)).toBe(true);
    expect(f.needsRefresh()).toBe(true);
    // A refresh that started when the URL settled may have started before the write.
    f.refreshed(0);
    expect(f.needsRefresh()).toBe(true);
    f.refreshed(1);
    expect(f.needsRefresh()).toBe(false);
    expect(f.inPurgatory).toBe(0);
  });

  it('an acknowledged update a refresh made searchable leaves at once, before the purgatory time', () => {
    const clock = new ManualClock(0);
    const f = new InFlight(30_000, clock);
    f.add('u');
    f.settle('u', 5);
    clock.advance(1500);
    f.refreshed(1000);
    f.prune();
    expect(f.inPurgatory).toBe(0);
    expect(f.blocks('u')).toBe(false);
  });

  it('a URL given up unchanged (no version) stays out for the purgatory time, whatever a query shows', () => {
    const clock = new ManualClock(0);
    const f = new InFlight(30_000, clock);
    f.add('u');
    f.settle('u');
    f.refreshed(1);
    expect(f.blocks('u', 99)).toBe(true);
    clock.advance(30_000);
    expect(f.blocks('u', 99)).toBe(false);
  });

  it('past the purgatory time, keeps a URL without a version from query hits until a refresh started after it settled', () => {
    const clock = new ManualClock(1000);
    const f = new InFlight(2000, clock);
    f.add('u');
    f.settle('u');
    clock.advance(5000);
    expect(f.holds('u')).toBe(false);
    expect(f.needsRefresh()).toBe(true);
    expect(f.blocks('u')).toBe(true);
    f.refreshed(1001);
    expect(f.needsRefresh()).toBe(false);
    expect(f.blocks('u')).toBe(false);
  });

  it('prunes entries past their purgatory time whose write a refresh made visible', () => {
    const clock = new ManualClock(0);
    const f = new InFlight(1000, clock);
    for (const u of ['a', 'b']) {
      f.add(u);
      f.settle(u);
      clock.advance(600);
    }
    f.prune();
    expect(f.inPurgatory).toBe(2);
    f.refreshed(clock.now());
    f.prune();
    expect(f.inPurgatory).toBe(1);
  });
});
