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

  it('past the purgatory time, keeps a URL from query hits until a refresh started after it settled', () => {
    const clock = new ManualClock(1000);
    const f = new InFlight(2000, clock);
    f.add('u');
    f.settle('u');
    expect(f.needsRefresh()).toBe(false);
    clock.advance(5000);
    // No refresh since it settled: a query may still show its state from before the write.
    expect(f.holds('u')).toBe(false);
    expect(f.needsRefresh()).toBe(true);
    expect(f.blocks('u')).toBe(true);
    // Started in the same millisecond: it may have started before the write was acknowledged.
    f.refreshed(1000);
    expect(f.blocks('u')).toBe(true);
    f.refreshed(1001);
    expect(f.needsRefresh()).toBe(false);
    expect(f.blocks('u')).toBe(false);
    expect(f.inPurgatory).toBe(0);
  });

  it('prunes purgatory entries past their time whose write a refresh made visible', () => {
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
