export interface CrawlDelayPolicy {
  /** fetcher.server.delay in ms. */
  readonly serverDelayMs: number;
  /** fetcher.max.crawl.delay in ms; negative = no maximum. */
  readonly maxCrawlDelayMs: number;
  /** fetcher.max.crawl.delay.force: cap instead of refusing. */
  readonly forceMax: boolean;
  /** fetcher.server.delay.force: never go below fetcher.server.delay. */
  readonly forceServerDelay: boolean;
}

export type CrawlDelayDecision =
  /** Keep the queue's delay as it is. */
  | { readonly kind: 'keep' }
  /** Set the queue's delay to this many ms. */
  | { readonly kind: 'set'; readonly delayMs: number }
  /** The host asks for more than we accept: the URL ends ERROR with error.cause crawl_delay. */
  | { readonly kind: 'refuse' };

/**
 * What a robots.txt Crawl-delay does to a politeness queue (StormCrawler's FetcherBolt rules): a
 * delay above the maximum refuses the URL, or is capped when forced; a delay below
 * fetcher.server.delay lowers the queue's delay unless fetcher.server.delay.force.
 */
export function decideCrawlDelay(
  robotsDelayMs: number | undefined,
  queueDelayMs: number,
  p: CrawlDelayPolicy,
): CrawlDelayDecision {
  if (robotsDelayMs === undefined || !(robotsDelayMs > 0) || robotsDelayMs === queueDelayMs)
    return { kind: 'keep' };
  if (p.maxCrawlDelayMs >= 0 && robotsDelayMs > p.maxCrawlDelayMs) {
    return p.forceMax ? { kind: 'set', delayMs: p.maxCrawlDelayMs } : { kind: 'refuse' };
  }
  if (robotsDelayMs < p.serverDelayMs && p.forceServerDelay) return { kind: 'set', delayMs: p.serverDelayMs };
  return { kind: 'set', delayMs: robotsDelayMs };
}
