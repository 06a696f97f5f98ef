import { GenerationMetrics } from '../../console/member-monitor.js';
import type { MetricsRegistry } from '../../metrics/registry.js';
import type { CrawlSnapshot, CrawlSummary } from '../../pipeline/crawler.js';
import { droppedLogLines } from '../../util/log.js';
import { Aggregate } from './aggregate.js';

/** What the tally needs of a generation's crawl loop. */
export type GenerationCrawl = { snapshot(): CrawlSnapshot; summary(): CrawlSummary };

/**
 * A member of an elastic crawl (`crawler run --join`, app/member.ts) crawls in generations, a crawl
 * loop each; this sums them into one crawl's counters and summary, for the member's own "crawl
 * stopped" line and, as a worker of `crawler run --join --workers N`, for what it reports to its
 * supervisor (worker.ts SupervisorLink). Each generation counts as one process of an Aggregate that
 * ended when the next began: its work stays counted, what it held in hand does not.
 */
export class GenerationTally {
  private readonly aggregate = new Aggregate();
  private current: { readonly key: number; readonly crawl: GenerationCrawl } | undefined;
  private generations = 0;
  /** The generations' metrics as one crawl's (what a worker reports to its supervisor). */
  readonly metrics = new GenerationMetrics();

  /** A generation's crawl was built; the one before it (if any) has stopped. */
  add(crawl: GenerationCrawl, metrics?: MetricsRegistry): void {
    this.endCurrent();
    if (metrics) void this.metrics.attach(metrics);
    const key = ++this.generations;
    this.aggregate.started(key, 0);
    this.current = { key, crawl };
  }

  /** Counters of every generation, what is in hand of the running one. */
  snapshot(): CrawlSnapshot {
    const c = this.current;
    if (c) this.aggregate.progress(c.key, c.crawl.snapshot());
    const { running: _, ...snapshot } = this.aggregate.totals();
    return snapshot;
  }

  /**
   * The generations' summaries summed. The process figures (CPU, memory) each generation reports are
   * the whole process's: the last one's stand for all (summing them would count the first ones again).
   */
  summary(): CrawlSummary {
    const c = this.current;
    const last = c?.crawl.summary();
    if (c && last) this.aggregate.ended(c.key, last, c.crawl.snapshot());
    const zero = { cpuUserMs: 0, cpuSystemMs: 0, maxRssMb: 0, logLinesDropped: 0 };
    const { workers: _w, restarts: _r, ...sum } = this.aggregate.summary(zero, 1, 0);
    const usage = process.resourceUsage();
    return {
      ...sum,
      cpuUserMs: last?.cpuUserMs ?? Math.round(usage.userCPUTime / 1000),
      cpuSystemMs: last?.cpuSystemMs ?? Math.round(usage.systemCPUTime / 1000),
      maxRssMb: last?.maxRssMb ?? Math.round(usage.maxRSS / 1024),
      logLinesDropped: droppedLogLines(),
    };
  }

  private endCurrent(): void {
    const c = this.current;
    if (!c) return;
    this.aggregate.ended(c.key, c.crawl.summary(), c.crawl.snapshot());
    this.aggregate.exited(c.key);
    this.current = undefined;
  }
}
