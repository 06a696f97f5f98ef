import { bool, int, num, oneOf } from '../define.js';

/** Politeness and concurrency of the fetch stage (StormCrawler's FetcherBolt keys). */
export const fetcherKeys = {
  'fetcher.server.delay': num(
    1.0,
    'seconds between the end of one fetch and the start of the next on a queue',
    0,
  ),
  'fetcher.server.min.delay': num(0.0, 'seconds between fetches on a queue that has more than one thread', 0),
  'fetcher.server.delay.force': bool(
    false,
    'a robots.txt Crawl-delay shorter than fetcher.server.delay is raised to it',
  ),
  'fetcher.queue.mode': oneOf(
    ['byHost', 'byDomain', 'byIP'],
    'byHost',
    'what one politeness queue stands for',
  ),
  'fetcher.threads.per.queue': int(1, 'concurrent fetches per queue', 1),
  'fetcher.threads.number': int(50, 'concurrent fetches in the whole process', 1),
  'fetcher.max.urls.in.queues': int(
    5000,
    'URLs queued or in fetch at most; the spout waits beyond it (-1 = no bound; not advised)',
    -1,
  ),
  'fetcher.timeout.queue': num(
    -1,
    'seconds a URL may wait in its queue before it is released unfetched; -1 = no limit',
  ),
  'fetcher.max.crawl.delay': num(30, 'largest robots.txt Crawl-delay (seconds) accepted'),
  'fetcher.max.crawl.delay.force': bool(
    false,
    'false: URLs of a host asking for more are ERROR crawl_delay; true: the delay is capped at fetcher.max.crawl.delay',
  ),
  'fetcher.max.retry.after': num(
    300,
    'longest Retry-After (seconds) of a 429 or 503 that is honoured; beyond it the URL is a FETCH_ERROR',
    0,
  ),
  'fetcher.backoff.factor': num(
    2,
    "a failure of a host (5xx, 429, no answer) multiplies its queue's delay by this; a success divides it again",
    1,
  ),
  'fetcher.backoff.max.delay': num(60, 'longest delay (seconds) between fetches that failures lead to', 0),
  'fetcher.host.down.after': int(
    3,
    'failures to reach a host in a row (refused, DNS, TLS, timeout, reset) that make it down; 0 = never',
    0,
  ),
  'fetcher.host.down.backoff': num(
    60,
    'seconds a host that went down is left alone before one URL probes it',
    0,
  ),
  'fetcher.host.down.max.backoff': num(
    86400,
    'longest pause (seconds) of a down host; each failed probe multiplies it by fetcher.backoff.factor',
    0,
  ),
} as const;
