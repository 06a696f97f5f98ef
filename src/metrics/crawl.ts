import { DEFER_CAUSE, ERROR_CAUSE, ERROR_SOURCE, MD } from '../model/keys.js';
import type { Metadata } from '../model/metadata.js';
import { STATUSES } from '../model/status.js';
import type { CrawlSnapshot } from '../pipeline/crawl-report.js';
import type { CrawlMetrics } from '../pipeline/metrics.js';
import type { ClusterHealth, CrawlObserver } from '../pipeline/ports.js';
import { FETCH_EXCEPTION } from '../protocol/http/errors.js';
import { droppedLogLines } from '../util/log.js';
import {
  type Aggregator,
  type LabelSet,
  type MetricRead,
  type MetricsRegistry,
  Registry,
} from './registry.js';

/*
 * The crawl's own metrics: what the crawl loop already counts is read when the registry is
 * collected (nothing added to the hot path); what it does not count is observed through small hooks
 * (a fetch's answer, a bulk request, a spout query, an error's cause).
 */

const seconds = (ms: number) => ms / 1000;

/** error.cause, fetch.exception and error.source values, and HTTP classes of answers that were errors. */
const ERROR_LABEL: LabelSet = {
  name: 'cause',
  values: [
    ...Object.values(ERROR_CAUSE),
    ...Object.values(FETCH_EXCEPTION),
    ...Object.values(ERROR_SOURCE),
    'http.3xx',
    'http.4xx',
    'http.5xx',
  ],
};
const DEFER_LABEL: LabelSet = { name: 'cause', values: Object.values(DEFER_CAUSE) };
const STATUS_LABEL: LabelSet = { name: 'status', values: STATUSES };
const CLASS_LABEL: LabelSet = { name: 'class', values: ['1xx', '2xx', '3xx', '4xx', '5xx'] };
const HOST_LABEL: LabelSet = { name: 'state', values: ['queued', 'backing_off', 'down'] };
const BULK_LABEL: LabelSet = { name: 'index', values: ['status', 'content', 'transitions'] };
/** Buckets (seconds) of a fetch, and of a request to OpenSearch. */
const FETCH_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const OPENSEARCH_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * What the crawl loop counts itself or holds now, read when collected, in this order on /metrics:
 * help, bounded label, how a supervisor sums it (counters end in _total, the rest are gauges).
 */
const READ = {
  crawler_pages_fetched_total: ['pages fetched (200, on to parsing)'],
  crawler_fetched_bytes_total: ['bytes of the pages fetched'],
  crawler_discovered_total: ['links found (before the DISCOVERED cache)'],
  crawler_status_updates_total: ['status events of URLs taken from the spout, by new status', STATUS_LABEL],
  crawler_deferred_total: ['URLs put back unfetched, by defer.cause', DEFER_LABEL],
  crawler_log_lines_dropped_total: ['transition log lines dropped because stderr could not keep up'],
  crawler_fetches_in_flight: ['fetches running now'],
  crawler_fetch_queue_urls: ['URLs queued in the fetcher, not fetched yet'],
  crawler_fetch_queues: ['fetch queues (hosts, domains or IPs)'],
  crawler_hosts: ['fetch queues, and the hosts among them backing off or down', HOST_LABEL],
  crawler_urls_in_flight: ['URLs taken from the spout and not settled yet'],
  crawler_parsing: ['pages being parsed or waiting for a parser'],
  crawler_status_writes_pending: ['status writes accepted and not acknowledged yet'],
  crawler_opensearch_up: ['1 while OpenSearch answers, 0 during an outage', undefined, 'min'],
  crawler_opensearch_unreachable_seconds: [
    'how long OpenSearch has not answered (0 while it does)',
    undefined,
    'max',
  ],
} satisfies Record<string, ReadDef>;
type ReadDef = [help: string, label?: LabelSet, aggregator?: Aggregator];

/** The bounded label of an ERROR or FETCH_ERROR: its cause, else the class of the answer, else its stage. */
export function errorCauseLabel(md: Metadata): string {
  const cause = md.getFirstValue(MD.errorCause) ?? md.getFirstValue(MD.fetchException);
  if (cause !== undefined) return cause;
  const code = md.getFirstValue(MD.fetchStatusCode);
  if (code !== undefined && /^[1-5]\d\d$/.test(code)) return `http.${code[0]}xx`;
  return md.getFirstValue(MD.errorSource) ?? 'other';
}

/** What the crawl loop must offer to be measured (Crawler fits). */
export interface MeasuredCrawl {
  readonly metrics: CrawlMetrics;
  snapshot(): CrawlSnapshot;
}

/** The crawl's registry and its hooks; `attach` once the crawl loop exists. */
export interface CrawlMeters {
  readonly registry: MetricsRegistry;
  /** For the crawl loop (CrawlerParts.observe). */
  readonly observe: CrawlObserver;
  /** For a bulk writer of `index` (BulkWriterOptions.onRequest). */
  bulk(index: 'status' | 'content' | 'transitions'): (ms: number) => void;
  /** For the spout (SpoutOptions.onQuery). */
  readonly spoutQuery: (ms: number) => void;
  /** Registers what the crawl loop counts itself and what it holds now. */
  attach(crawl: MeasuredCrawl, health?: ClusterHealth): void;
}

export function crawlMeters(registry: MetricsRegistry = new Registry()): CrawlMeters {
  const responses = registry.counter({
    name: 'crawler_http_responses_total',
    help: 'HTTP answers by status class',
    label: CLASS_LABEL,
  });
  const fetchTime = registry.histogram({
    name: 'crawler_fetch_duration_seconds',
    help: 'time from sending a request to the end of its answer',
    buckets: FETCH_BUCKETS,
  });
  const errors = registry.counter({
    name: 'crawler_errors_total',
    label: ERROR_LABEL,
    help: 'URLs that ended ERROR or FETCH_ERROR, by error.cause, fetch.exception, HTTP class or stage',
  });
  const bulk = registry.histogram({
    name: 'crawler_opensearch_bulk_duration_seconds',
    help: 'bulk requests OpenSearch answered, by index',
    buckets: OPENSEARCH_BUCKETS,
    label: BULK_LABEL,
  });
  const spout = registry.histogram({
    name: 'crawler_spout_query_duration_seconds',
    help: 'spout queries of the status index',
    buckets: OPENSEARCH_BUCKETS,
  });
  return {
    registry,
    observe: {
      response(code, ms) {
        responses.inc(`${Math.floor(code / 100)}xx`);
        fetchTime.observe(seconds(ms));
      },
      error(md) {
        errors.inc(errorCauseLabel(md));
      },
    },
    bulk: (index) => (ms) => bulk.observe(index, seconds(ms)),
    spoutQuery: (ms) => spout.observe(seconds(ms)),
    attach: (crawl, health) => attachCrawl(registry, crawl, health),
  };
}

function attachCrawl(registry: MetricsRegistry, crawl: MeasuredCrawl, health?: ClusterHealth): void {
  const m = crawl.metrics;
  // One snapshot per collection, read by every gauge below (it walks the fetch queues once).
  let s: CrawlSnapshot = crawl.snapshot();
  registry.beforeCollect(() => {
    s = crawl.snapshot();
  });
  const reads: Record<keyof typeof READ, MetricRead> = {
    crawler_pages_fetched_total: () => m.fetched,
    crawler_fetched_bytes_total: () => m.bytes,
    crawler_discovered_total: () => m.discovered,
    crawler_status_updates_total: () => m.byStatus,
    crawler_deferred_total: () => m.deferred,
    crawler_log_lines_dropped_total: droppedLogLines,
    crawler_fetches_in_flight: () => s.fetching,
    crawler_fetch_queue_urls: () => s.queued,
    crawler_fetch_queues: () => s.hosts,
    crawler_hosts: () => [
      ['queued', s.hosts],
      ['backing_off', s.hostsBackingOff],
      ['down', s.hostsDown],
    ],
    crawler_urls_in_flight: () => s.inFlight,
    crawler_parsing: () => s.parsing,
    crawler_status_writes_pending: () => s.writesPending,
    crawler_opensearch_up: () => (health?.unreachableMs() === undefined ? 1 : 0),
    crawler_opensearch_unreachable_seconds: () => (health?.unreachableMs() ?? 0) / 1000,
  };
  for (const [name, [help, label, aggregator]] of Object.entries(READ) as [keyof typeof READ, ReadDef][]) {
    const type = name.endsWith('_total') ? 'counter' : 'gauge';
    registry.readOf(
      type,
      { name, help, ...(label && { label }), ...(aggregator && { aggregator }) },
      reads[name],
    );
  }
}
