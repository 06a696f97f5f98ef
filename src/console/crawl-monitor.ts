import type { Client } from '@opensearch-project/opensearch';
import { processFamilies } from '../metrics/prometheus.js';
import type { MetricsRegistry } from '../metrics/registry.js';
import type { TransitionRecord } from '../model/transition.js';
import { systemClock } from '../util/clock.js';
import { type LiveStatus, type Logger, liveStatus } from '../util/log.js';
import { Monitor, type MonitorConfig, type MonitorSource, originOf } from './monitor.js';
import { consoleSettings } from './server.js';
import { Tail, transitionEntry } from './state.js';

/**
 * The monitor of a lone `crawler run` process (not a worker: its supervisor watches it): built
 * before the crawl, so that the crawl's transitions reach its tail (`onTransition`), started once
 * the crawl is built, stopped after the crawl (the last interval of the series is written then).
 */
export class CrawlMonitor {
  private readonly tail = new Tail<TransitionRecord>(30);
  private monitor: Monitor | undefined;
  private readonly live: LiveStatus | undefined;
  readonly onTransition = (r: TransitionRecord) => this.tail.push(r);

  constructor(
    private readonly config: MonitorConfig,
    private readonly log: Logger,
    private readonly share: { readonly instance: number; readonly instances: number },
  ) {
    // Bad console settings stop the command before anything starts.
    consoleSettings(config);
    this.live = liveStatus(log);
  }

  /** `crawl`: what the monitor reads of a built crawl (app/compose.ts's Crawl fits). */
  async start(crawl: { readonly metrics: MetricsRegistry; readonly client: Client }): Promise<void> {
    const registry = crawl.metrics;
    const origin = originOf(this.share.instance, this.share.instances, 0);
    const since = systemClock.now();
    const source: MonitorSource = {
      crawl: () => registry.collect(),
      all: async () => [await registry.collect(), await processFamilies()],
      readings: {
        readings: async () => [
          {
            key: 'self',
            families: [...(await registry.collect()), ...(await processFamilies())],
            origin,
            since,
          },
        ],
      },
      transitions: () => this.tail.all.map(transitionEntry),
    };
    this.monitor = new Monitor({
      config: this.config,
      log: this.log,
      clock: systemClock,
      client: crawl.client,
      source,
      registry,
      instance: this.share.instance,
      live: this.live,
    });
    await this.monitor.start();
  }

  async stop(): Promise<void> {
    if (this.monitor) await this.monitor.stop();
    else await this.live?.end();
  }
}
