import type { Client } from '@opensearch-project/opensearch';
import { readMapping } from '../opensearch/indices.js';
import type { Clock } from '../util/clock.js';
import { errorMessage } from '../util/errors.js';
import type { Logger } from '../util/log.js';
import type { Point } from './points.js';

/** Points per bulk request. */
const CHUNK = 2000;
const DAY_MS = 86_400_000;

const errorType = (e: unknown) =>
  (e as { meta?: { body?: { error?: { type?: string } } } }).meta?.body?.error?.type;

/** One document of the metrics index: StormCrawler's shape, plus `crawl`, `instance` and `worker`. */
export interface SeriesDoc {
  /** The crawl the point is of: its status index (a cluster may hold several crawls' series). */
  readonly crawl: string;
  readonly name: string;
  readonly value: number;
  /** ISO-8601, UTC; one for every point of an interval. */
  readonly timestamp: string;
  readonly srcComponentId: string;
  /** The process's part of the crawl (instance + instances x worker), as Storm's task id. */
  readonly srcTaskId: number;
  readonly srcWorkerHost: string;
  readonly instance: number;
  /** Absent on a supervisor's own points (status counts). */
  readonly worker?: number;
}

/** Which process the points are from. */
export interface Origin {
  readonly instance: number;
  /** The worker's number (0 for a lone process); none for a supervisor. */
  readonly worker?: number;
  readonly task: number;
  readonly host: string;
  /** The member of an elastic crawl (`crawler run --join`) this process is. */
  readonly member?: string;
}

export interface SeriesWriterOptions {
  /**
   * opensearch.metrics.index.name: indices are BASE-yyyy-MM-dd (UTC), each with the alias BASE, so
   * that what reads the index pattern BASE (StormCrawler's "Crawl metrics" dashboard reads
   * `metrics`) finds every day.
   */
  readonly base: string;
  /** The crawl's name in each point: its status index (opensearch.status.index.name). */
  readonly crawl: string;
  /** metrics.retention.days; 0 = keep. */
  readonly retentionDays: number;
  /** Points kept at most while OpenSearch does not take them; the oldest go first beyond it. */
  readonly maxBuffered: number;
}

/** `BASE-yyyy-MM-dd` -> the day's start (ms), or undefined for any other name. */
export function dayOfIndex(base: string, index: string): number | undefined {
  if (!index.startsWith(`${base}-`)) return undefined;
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(index.slice(base.length + 1));
  if (!m) return undefined;
  const t = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return Number.isNaN(t) ? undefined : t;
}

/** The daily indices that retention deletes at `now`: whole days older than `days`. */
export function expiredIndices(base: string, names: readonly string[], days: number, now: number): string[] {
  if (days <= 0) return [];
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  return names.filter((n) => {
    const d = dayOfIndex(base, n);
    return d !== undefined && (today - d) / DAY_MS > days;
  });
}

/**
 * Writes points to the daily metrics indices, best effort: `add` never waits and never fails; points
 * wait in a bounded buffer until `flush` gets them acknowledged, and while OpenSearch does not take
 * them the oldest beyond `maxBuffered` are dropped and counted. One flush at a time. Each day's index
 * is created with mappings/metrics.json before its first point (explicit mappings, so the fields a
 * dashboard uses exist from the start). Failures are logged once when they start and once when they
 * end, never per point.
 */
export class SeriesWriter {
  private buffer: SeriesDoc[] = [];
  private readonly created = new Set<string>();
  private flushing: Promise<void> | undefined;
  private failing: string | undefined;
  private droppedAtFailure = 0;
  /** An index is named like the alias: said once. */
  private aliasWarned = false;
  /** Points dropped: buffer full, or refused by OpenSearch. */
  dropped = 0;
  written = 0;

  constructor(
    private readonly client: Client,
    private readonly options: SeriesWriterOptions,
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {}

  /** Points waiting to be written. */
  get buffered(): number {
    return this.buffer.length;
  }

  add(points: readonly Point[], at: number, origin: Origin): void {
    const timestamp = new Date(at).toISOString();
    for (const p of points) {
      this.buffer.push({
        crawl: this.options.crawl,
        name: p.name,
        value: p.value,
        timestamp,
        srcComponentId: p.component,
        srcTaskId: origin.task,
        srcWorkerHost: origin.host,
        instance: origin.instance,
        ...(origin.worker === undefined ? {} : { worker: origin.worker }),
        ...(origin.member === undefined ? {} : { member: origin.member }),
      });
    }
    const excess = this.buffer.length - this.options.maxBuffered;
    if (excess > 0) {
      this.buffer.splice(0, excess);
      this.dropped += excess;
    }
  }

  /** Sends what is buffered; resolves when done (written or kept for the next try), never rejects. */
  flush(): Promise<void> {
    if (this.flushing) return this.flushing.then(() => this.flush());
    if (this.buffer.length === 0) return Promise.resolve();
    this.flushing = this.send().finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  private async send(): Promise<void> {
    while (this.buffer.length > 0) {
      const batch = this.buffer.slice(0, CHUNK);
      try {
        for (const index of new Set(batch.map((d) => this.indexOf(d)))) await this.ensure(index);
        const body = `${batch.map((d) => `{"index":{"_index":"${this.indexOf(d)}"}}\n${JSON.stringify(d)}`).join('\n')}\n`;
        const res = await this.client.bulk({
          body: body as never,
          filter_path: ['errors', 'items.*.status', 'items.*.error.reason'],
        });
        this.buffer.splice(0, batch.length);
        const items = (res.body.items ?? []) as unknown as Record<
          string,
          { status: number; error?: unknown }
        >[];
        const refused = items.filter((i) => (Object.values(i)[0]?.status ?? 500) >= 300).length;
        this.written += batch.length - refused;
        this.dropped += refused;
        if (refused > 0) this.failed(`${refused} points refused`, false);
        else this.recovered();
      } catch (e) {
        this.failed(errorMessage(e), true);
        return;
      }
    }
  }

  private indexOf(d: SeriesDoc): string {
    return this.indexAt(Date.parse(d.timestamp));
  }

  private indexAt(t: number): string {
    return `${this.options.base}-${new Date(t).toISOString().slice(0, 10)}`;
  }

  /**
   * Creates today's index now, and tomorrow's in the last two hours of the day (UTC), so that no
   * index is created in the middle of a busy crawl: a new index is a cluster-state change, which on
   * a loaded node holds up the crawl's own writes and refreshes for a moment. Best effort: a
   * failure is retried by the next flush.
   */
  async prepare(): Promise<void> {
    const now = this.clock.now();
    const days = [now, ...(DAY_MS - (now % DAY_MS) < 2 * 3_600_000 ? [now + DAY_MS] : [])];
    for (const t of days) await this.ensure(this.indexAt(t)).catch(() => undefined);
  }

  private async ensure(index: string): Promise<void> {
    if (this.created.has(index)) return;
    const body = readMapping('metrics') as unknown as Record<string, unknown>;
    try {
      await this.client.indices
        .create({ index, body: { ...body, aliases: { [this.options.base]: {} } } as never })
        .catch(async (e: unknown) => {
          // An index named like the alias (an older crawler's "metrics"): the day's index without it.
          if (errorType(e) !== 'invalid_alias_name_exception') throw e;
          this.aliasRefused(e);
          await this.client.indices.create({ index, body: body as never });
        });
    } catch (e) {
      if (errorType(e) !== 'resource_already_exists_exception') throw e;
    }
    if (this.created.size > 8) this.created.clear();
    this.created.add(index);
  }

  private failed(reason: string, kept: boolean): void {
    if (this.failing !== undefined) return;
    this.failing = reason;
    this.droppedAtFailure = this.dropped;
    this.log.warn(
      { err: reason, index: `${this.options.base}-*`, buffered: this.buffer.length },
      kept
        ? `metrics series: OpenSearch did not take the points; up to ${this.options.maxBuffered} are kept and sent again (the crawl goes on)`
        : 'metrics series: OpenSearch refused some points; they are dropped (the crawl goes on)',
    );
  }

  private recovered(): void {
    if (this.failing === undefined) return;
    this.failing = undefined;
    const lost = this.dropped - this.droppedAtFailure;
    this.log.info({ dropped: lost }, `metrics series written again (${lost} points dropped meanwhile)`);
  }

  private aliasRefused(e: unknown): void {
    if (this.aliasWarned) return;
    this.aliasWarned = true;
    this.log.warn(
      { err: errorMessage(e) },
      `metrics series: an index is named "${this.options.base}", so the daily indices cannot have that alias ` +
        '(dashboards reading the pattern find only that index): delete or rename it',
    );
  }

  /**
   * The daily job: deletes this series' daily indices older than metrics.retention.days (only names
   * BASE-yyyy-MM-dd; any other index matching BASE-* is left alone), and gives the alias BASE to
   * every daily index that lacks it (those of an older crawler). A failure is logged, never thrown.
   */
  async enforceRetention(): Promise<string[]> {
    const { base, retentionDays } = this.options;
    try {
      const res = await this.client.cat.indices({ index: `${base}-*`, format: 'json', h: 'index' } as never);
      const names = ((res.body ?? []) as unknown as { index: string }[]).map((r) => r.index);
      const expired = expiredIndices(base, names, retentionDays, this.clock.now());
      const kept = names.filter((n) => dayOfIndex(base, n) !== undefined && !expired.includes(n));
      if (kept.length > 0) {
        await this.client.indices
          .putAlias({ index: kept.join(','), name: base })
          .catch((e: unknown) =>
            errorType(e) === 'invalid_alias_name_exception' ? this.aliasRefused(e) : Promise.reject(e),
          );
      }
      if (expired.length > 0) {
        await this.client.indices.delete({ index: expired.join(',') });
        this.log.info(
          { deleted: expired },
          `metrics indices older than ${retentionDays} days deleted (metrics.retention.days)`,
        );
      }
      return expired;
    } catch (e) {
      this.log.warn(
        { err: errorMessage(e) },
        'metrics retention: old metrics indices could not be deleted; trying again in an hour',
      );
      return [];
    }
  }
}
