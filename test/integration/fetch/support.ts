import type { FetcherOptions } from '../../../src/fetch/fetcher-ports.js';

/**
 * Fetcher options for tests against local servers: no delays between fetches of a host, 10 threads,
 * redirections followed, no sitemap discovery, and the default host health policy; `o` replaces
 * whole fields.
 */
export const fetcherOptions = (o: Partial<FetcherOptions> = {}): FetcherOptions => ({
  queue: { delayMs: 0, minDelayMs: 0, threadsPerQueue: 1, maxThreadsRules: [] },
  mode: 'byHost',
  threads: 10,
  maxUrlsInQueues: 100,
  queueTimeoutMs: -1,
  crawlDelay: { serverDelayMs: 0, maxCrawlDelayMs: 30_000, forceMax: false, forceServerDelay: false },
  prefix: 'protocol.',
  redirectionsAllowed: true,
  sitemapDiscovery: false,
  hosts: {
    factor: 2,
    maxDelayMs: 60_000,
    maxRetryAfterMs: 300_000,
    downAfter: 3,
    downBackoffMs: 60_000,
    downMaxBackoffMs: 86_400_000,
  },
  ...o,
});
