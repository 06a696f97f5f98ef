import { describe, expect, it } from 'vitest';
import { type CrawlDelayPolicy, decideCrawlDelay } from '../../../src/fetch/crawl-delay.js';

const policy: CrawlDelayPolicy = {
  serverDelayMs: 1000,
  maxCrawlDelayMs: 30_000,
  forceMax: false,
  forceServerDelay: false,
};

describe('robots.txt Crawl-delay', () => {
  it('no or zero delay keeps the queue as it is', () => {
    expect(decideCrawlDelay(undefined, 1000, policy)).toEqual({ kind: 'keep' });
    expect(decideCrawlDelay(0, 1000, policy)).toEqual({ kind: 'keep' });
    expect(decideCrawlDelay(1000, 1000, policy)).toEqual({ kind: 'keep' });
  });

  it('a delay within the maximum becomes the queue delay', () => {
    expect(decideCrawlDelay(5000, 1000, policy)).toEqual({ kind: 'set', delayMs: 5000 });
  });

  it('a delay of 60 s is refused (ERROR crawl_delay) above the 30 s maximum', () => {
    expect(decideCrawlDelay(60_000, 1000, policy)).toEqual({ kind: 'refuse' });
  });

  it('with fetcher.max.crawl.delay.force the delay is capped at the maximum', () => {
    expect(decideCrawlDelay(60_000, 1000, { ...policy, forceMax: true })).toEqual({
      kind: 'set',
      delayMs: 30_000,
    });
  });

  it('a shorter delay than fetcher.server.delay lowers it unless fetcher.server.delay.force', () => {
    expect(decideCrawlDelay(500, 1000, policy)).toEqual({ kind: 'set', delayMs: 500 });
    expect(decideCrawlDelay(500, 1000, { ...policy, forceServerDelay: true })).toEqual({
      kind: 'set',
      delayMs: 1000,
    });
  });

  it('a negative maximum accepts any delay', () => {
    expect(decideCrawlDelay(3_600_000, 1000, { ...policy, maxCrawlDelayMs: -1 })).toEqual({
      kind: 'set',
      delayMs: 3_600_000,
    });
  });
});
