import type { Client } from '@opensearch-project/opensearch';
import { combine, processFamilies } from '../metrics/prometheus.js';
import { type MetricFamily, type MetricsRegistry, Registry } from '../metrics/registry.js';
import type { TransitionRecord } from '../model/transition.js';
import type { MemberRow } from '../opensearch/member-rows.js';
import { systemClock } from '../util/clock.js';
import { type LiveStatus, type Logger, liveStatus } from '../util/log.js';
import { Monitor, type MonitorConfig, type MonitorSource, originOf } from './monitor.js';
import { consoleSettings } from './server.js';
import { Tail, transitionEntry } from './state.js';

/**
 * A member's generations as one crawl: the counters and histograms of the generations that ended,
 * summed, plus the running one's families (its gauges are the member's now).
 */
export class GenerationMetrics {
  private current: MetricsRegistry | undefined;
  private ended: readonly MetricFamily[] = [];

  /** A generation's crawl was built: its metrics are read from now on, after those of the last. */
  async attach(metrics: MetricsRegistry): Promise<void> {
    const before = this.current;
    this.current = metrics;
    if (!before) return;
    const kept = (await before.collect()).filter((f) => f.type !== 'gauge');
    this.ended = await combine(this.ended, kept);
  }

  async collect(): Promise<MetricFamily[]> {
    return combine(this.ended, (await this.current?.collect()) ?? []);
  }
}

/**
 * The monitor of a member of an elastic crawl (`crawler run --join`, app/member.ts): its console
 * lists every member of the crawl (shards, rates, last heartbeat, shards lost and to whom) and its
 * metrics series carries the member's name. The member crawls in generations, each a crawl with
 * its own registry: the counters of the generations that ended are kept and added to the running
 * one's, so that the member's totals and rates go on across a handover.
 */
export class MemberMonitor {
  private readonly tail = new Tail<TransitionRecord>(30);
  private readonly own = new Registry();
  private monitor: Monitor | undefined;
  private readonly live: LiveStatus | undefined;
  private readonly generations = new GenerationMetrics();
  readonly onTransition = (r: TransitionRecord) => this.tail.push(r);

  constructor(
    private readonly config: MonitorConfig,
    private readonly log: Logger,
    private readonly member: { readonly id: string; rows(): Promise<MemberRow[]> },
  ) {
    // Bad console settings stop the command before anything starts.
    consoleSettings(config);
    this.live = liveStatus(log);
  }

  /** A generation's crawl was built (GenerationMetrics.attach). */
  attach(metrics: MetricsRegistry): Promise<void> {
    return this.generations.attach(metrics);
  }

  /** Starts the console and the series once the member joined (its client is open). */
  async start(client: Client): Promise<void> {
    const origin = originOf(0, 1, undefined, this.member.id);
    const since = systemClock.now();
    const crawl = () => this.generations.collect();
    const source: MonitorSource = {
      crawl,
      all: async () => [await crawl(), await this.own.collect(), await processFamilies()],
      readings: {
        readings: async () => [
          {
            key: 'self',
            families: [...(await crawl()), ...(await this.own.collect()), ...(await processFamilies())],
            origin,
            since,
          },
        ],
      },
      transitions: () => this.tail.all.map(transitionEntry),
      members: () => this.member.rows(),
    };
    this.monitor = new Monitor({
      config: this.config,
      log: this.log,
      clock: systemClock,
      client,
      source,
      registry: this.own,
      // Members count the status index only while a console is watched (not one count per member
      // every minute): the crawler_status_count gauges of an elastic crawl come from its consoles.
      instance: 1,
      live: this.live,
    });
    await this.monitor.start();
  }

  async stop(): Promise<void> {
    if (this.monitor) await this.monitor.stop();
    else await this.live?.end();
  }
}
