import {
  AggregatorRegistry,
  collectDefaultMetrics,
  Registry as PromRegistry,
  prometheusContentType,
} from 'prom-client';
import type { MetricFamily } from './registry.js';

/*
 * The Prometheus side: prom-client's default process metrics (CPU, memory, event-loop delay, GC,
 * handles) and the text format. Families from several processes are summed by prom-client's own
 * aggregation (each family's `aggregator`): the supervisor of `crawler run --workers` serves its
 * workers' sum this way.
 */

export const PROMETHEUS_CONTENT_TYPE = prometheusContentType;

let defaults: PromRegistry | undefined;

/** This process's default metrics (started on first use; one event-loop monitor per process). */
export async function processFamilies(): Promise<MetricFamily[]> {
  if (!defaults) {
    defaults = new PromRegistry();
    collectDefaultMetrics({ register: defaults });
  }
  return (await defaults.getMetricsAsJSON()) as unknown as MetricFamily[];
}

/** Families of one or more processes in the Prometheus text format, equal series summed. */
export async function prometheusText(...sets: readonly (readonly MetricFamily[])[]): Promise<string> {
  return AggregatorRegistry.aggregate(sets as unknown as object[][]).metrics();
}

/** Families of several processes combined into one list (as `prometheusText` sums them). */
export async function combine(...sets: readonly (readonly MetricFamily[])[]): Promise<MetricFamily[]> {
  return (await AggregatorRegistry.aggregate(
    sets as unknown as object[][],
  ).getMetricsAsJSON()) as unknown as MetricFamily[];
}
