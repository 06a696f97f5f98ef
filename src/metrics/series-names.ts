/*
 * How a metric of the registry is named in the metrics index. StormCrawler's names where it has one,
 * so its dashboards (and ours, docker/dashboards/metrics.ndjson) read the series; every other
 * `crawler_*` metric by one rule (README "Monitoring" lists them). Of prom-client's default process
 * metrics only the few below are written.
 */

/** How a family becomes points: a counter's increase, a gauge's value, a histogram's mean. */
export interface SeriesName {
  /** The point's name; for a labelled metric, from the label's value. */
  readonly name: (label: string | undefined) => string;
  /** StormCrawler's srcComponentId: the stage the metric belongs to. */
  readonly component: string;
  /** Values are multiplied by this (seconds written as ms). */
  readonly scale?: number;
  /** Counters: also write the increase per second under this name. */
  readonly perSecond?: string;
}

const fixed = (name: string, component: string, extra: Partial<SeriesName> = {}): SeriesName => ({
  name: () => name,
  component,
  ...extra,
});
const prefixed = (prefix: string, component: string): SeriesName => ({
  name: (label) => `${prefix}${label ?? ''}`,
  component,
});
const MS = { scale: 1000 };

const KNOWN: Readonly<Record<string, SeriesName>> = {
  crawler_pages_fetched_total: fixed('fetcher_counter.fetched', 'fetch', {
    perSecond: 'fetcher_average_persec.fetched_perSec',
  }),
  crawler_fetched_bytes_total: fixed('fetcher_counter.bytes_fetched', 'fetch', {
    perSecond: 'fetcher_average_persec.bytes_fetched_perSec',
  }),
  crawler_http_responses_total: prefixed('fetcher_counter.status_', 'fetch'),
  crawler_fetches_in_flight: fixed('activethreads', 'fetch'),
  crawler_fetch_queue_urls: fixed('in_queues', 'fetch'),
  crawler_fetch_queues: fixed('num_queues', 'fetch'),
  crawler_fetch_duration_seconds: fixed('fetcher_average_perdoc.fetch_time', 'fetch', MS),
  crawler_hosts: prefixed('hosts.', 'fetch'),
  crawler_deferred_total: prefixed('deferred.', 'fetch'),
  crawler_spout_query_duration_seconds: fixed('spout_query_time_msec', 'spout', MS),
  crawler_urls_in_flight: fixed('beingProcessed', 'spout'),
  crawler_status_updates_total: prefixed('status_updates.', 'status'),
  crawler_errors_total: prefixed('errors.', 'status'),
  crawler_status_writes_pending: fixed('waitAck', 'status'),
  crawler_opensearch_bulk_duration_seconds: { ...prefixed('opensearch.bulk_msec.', 'opensearch'), ...MS },
  crawler_opensearch_up: fixed('opensearch.up', 'opensearch'),
  crawler_opensearch_unreachable_seconds: fixed('opensearch.unreachable_sec', 'opensearch'),
  crawler_status_count: prefixed('status.count.', 'status_metrics'),
  crawler_urls_due: prefixed('status.due.', 'status_metrics'),
  process_resident_memory_bytes: fixed('process.rss_bytes', '__system'),
  nodejs_heap_size_used_bytes: fixed('process.heap_used_bytes', '__system'),
  nodejs_eventloop_lag_p99_seconds: fixed('process.eventloop_delay_p99_msec', '__system', MS),
  process_cpu_seconds_total: fixed('process.cpu_msec', '__system', MS),
};

/** The series name of a family, or undefined when it is not written (other default metrics). */
export function seriesName(metric: string): SeriesName | undefined {
  const known = KNOWN[metric];
  if (known) return known;
  if (!metric.startsWith('crawler_')) return undefined;
  let base = metric.slice('crawler_'.length).replace(/_total$/, '');
  const seconds = base.endsWith('_seconds');
  if (seconds) base = `${base.slice(0, -'_seconds'.length)}_msec`;
  return {
    name: (label) => (label === undefined ? base : `${base}.${label}`),
    component: 'crawler',
    ...(seconds ? MS : {}),
  };
}

/**
 * Every name the known metrics write, a labelled one as PREFIX* (for checking the dashboards'
 * queries): what `seriesName` gives the table above, and the rates written beside counters.
 */
export function knownSeriesNames(): string[] {
  return Object.values(KNOWN).flatMap((s) => {
    const fixedName = s.name(undefined);
    const labelled = s.name('\u0000');
    const own = labelled === fixedName ? fixedName : `${labelled.replace('\u0000', '')}*`;
    return [own, ...(s.perSecond ? [s.perSecond] : [])];
  });
}
