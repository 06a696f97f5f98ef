import type { Client } from '@opensearch-project/opensearch';
import { MD } from '../model/keys.js';
import { isoDate } from '../model/values.js';
import type { Clock } from '../util/clock.js';
import { errorMessage } from '../util/errors.js';
import type { Logger } from '../util/log.js';
import { NO_FENCE, type WriteFence } from './fence.js';
import { metadataField } from './status-doc.js';

/**
 * Makes URLs due now in the status index, batched into an `_update_by_query` every few seconds:
 * - the near-duplicates of a page whose content document was deleted or whose text changed away
 *   (FETCHED with `duplicate.of` = that page), so that one of them takes its place;
 * - given URLs (pages fetched before their host's soft-404 probes answered, which look like its
 *   "not found" page), so that they are judged again.
 * Their nextFetchDate becomes now and nothing else changes; a document being written at the same
 * time wins (conflicts proceed). Losing one of these (a crash) only means waiting for the URL's
 * own schedule.
 */
/** How long a deleted page is remembered (well past a refresh of the content index), and how many. */
const GONE_MS = 60_000;
const GONE_MAX = 20_000;

export class DueWriter {
  private canonicals = new Set<string>();
  private urls = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  /** URLs made due so far (documents updated), for tests and the summary. */
  made = 0;
  /** Pages whose content document was deleted lately, by when: searches may still return it. */
  private readonly gone = new Map<string, number>();

  private readonly clock: Clock;
  private readonly log: Logger;
  private readonly intervalMs: number;
  /** The crawl's lease: these are status writes too. */
  private readonly fence: WriteFence;

  constructor(
    private readonly client: Client,
    private readonly index: string,
    deps: { readonly clock: Clock; readonly log: Logger },
    options: { readonly intervalMs?: number; readonly fence?: WriteFence } = {},
  ) {
    this.clock = deps.clock;
    this.log = deps.log;
    this.intervalMs = options.intervalMs ?? 2000;
    this.fence = options.fence ?? NO_FENCE;
  }

  /** The near-duplicates of `url` become due. */
  duplicatesOf(url: string): void {
    this.canonicals.add(url);
    this.schedule();
  }

  /**
   * The content document of `url` was deleted: its near-duplicates become due, and for a while
   * (past the content index's refresh) `isGone` says so, since searches may still return it.
   */
  deleted(url: string): void {
    const now = this.clock.now();
    this.gone.delete(url);
    this.gone.set(url, now);
    for (const [u, at] of this.gone) {
      if (at > now - GONE_MS && this.gone.size <= GONE_MAX) break;
      this.gone.delete(u);
    }
    this.duplicatesOf(url);
  }

  /** True for a page whose content document was deleted lately (see `deleted`). */
  isGone(url: string): boolean {
    const at = this.gone.get(url);
    return at !== undefined && at > this.clock.now() - GONE_MS;
  }

  /** `url` becomes due. */
  url(url: string): void {
    this.urls.add(url);
    this.schedule();
  }

  /** Sends what is pending and waits for it. */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
    if (this.canonicals.size === 0 && this.urls.size === 0) return;
    const canonicals = [...this.canonicals];
    const urls = [...this.urls];
    this.canonicals = new Set();
    this.urls = new Set();
    this.running = this.send(canonicals, urls);
    await this.running;
  }

  close(): void {
    clearTimeout(this.timer);
  }

  private schedule(): void {
    if (this.canonicals.size + this.urls.size >= 1000) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), this.intervalMs);
  }

  private async send(canonicals: string[], urls: string[]): Promise<void> {
    const should: object[] = [];
    if (canonicals.length > 0) {
      should.push({
        bool: {
          filter: [
            { terms: { [metadataField(MD.duplicateOf)]: canonicals } },
            { term: { status: 'FETCHED' } },
          ],
        },
      });
    }
    if (urls.length > 0) should.push({ terms: { url: urls } });
    const admitted = this.fence.admit();
    if (admitted !== true && !(await admitted)) return;
    try {
      const res = await this.client.updateByQuery({
        index: this.index,
        conflicts: 'proceed',
        refresh: false,
        body: {
          query: { bool: { should, minimum_should_match: 1 } },
          script: {
            source: 'ctx._source.nextFetchDate = params.now',
            lang: 'painless',
            params: { now: isoDate(this.clock.now()) },
          },
        } as never,
      });
      this.made += Number((res.body as { updated?: number }).updated ?? 0);
    } catch (e) {
      this.log.warn(
        { canonicals: canonicals.length, urls: urls.length, err: errorMessage(e) },
        'could not make near-duplicates or soft-404 suspects due now; they come back on their own schedule',
      );
    }
  }
}
