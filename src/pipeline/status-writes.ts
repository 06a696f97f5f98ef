import type { StatusEvent, StatusUpdate, StatusUpdater } from '../model/status-updater.js';
import type { Outlink } from '../parse/types.js';
import { errorMessage } from '../util/errors.js';
import type { Logger } from '../util/log.js';
import type { Acknowledged, AcknowledgedWrite, StatusStore, StatusStoreStats, WriteResult } from './ports.js';

/** What a write the store accepted becomes: `done` resolves once it settled (it never rejects). */
export interface Accepted<T> {
  readonly done: Promise<T>;
}

/**
 * The crawl's status writes: the status rules (src/model) applied in the loop, the result handed to
 * the status store (which only writes), and each acknowledged write published once to the
 * subscribers (the transition log and index, the content deleter, adoption, a worker's supervisor).
 *
 * Contract: `settle` and `discover` resolve once the store accepted their writes (they wait while it
 * is full: the backpressure of the whole crawl), to what resolves once the writes settled. A URL
 * enters the rules' DISCOVERED cache only once its write was acknowledged, so a failed write never
 * hides a URL. Subscribers must not throw; one that does is logged and the write stands.
 */
export class StatusWrites {
  readonly stats: StatusStoreStats = { written: 0, existing: 0, skippedCached: 0, failed: 0 };
  private readonly subscribers: ((write: AcknowledgedWrite) => void)[] = [];
  private pendingWrites = 0;
  private found = 0;

  constructor(
    private readonly d: {
      readonly rules: Pick<StatusUpdater, 'apply' | 'acknowledged' | 'knowsDiscovered'>;
      readonly store: StatusStore;
      readonly log: Logger;
    },
  ) {}

  /** Told each write the store acknowledged that changed the index (not a DISCOVERED that found the URL known). */
  subscribe(listener: (write: AcknowledgedWrite) => void): void {
    this.subscribers.push(listener);
  }

  /**
   * The event that settles a URL the source emitted. `done` resolves to what the status index
   * acknowledged, or undefined when nothing was acknowledged (the write failed for good, and the
   * URL keeps its previous state; or the rules had nothing to write).
   */
  async settle(event: StatusEvent): Promise<Accepted<Acknowledged | undefined>> {
    const accepted = await this.accept(event, false);
    return { done: accepted.done.then((s) => s.ack) };
  }

  /**
   * Links found by a page, written as DISCOVERED (those the rules know are skipped by URL, before
   * an event is built; none after `closed`). Undefined when none needed a write; else `done`
   * resolves to true once every link was stored, false when one failed for good (the page that
   * found them is then given up, so that it is fetched again and its links found again).
   */
  async discover(links: readonly Outlink[], closed?: () => boolean): Promise<Accepted<boolean> | undefined> {
    const writes: Promise<Settled>[] = [];
    for (const l of links) {
      if (closed?.()) break;
      // Most links of a crawl point at URLs stored recently: skipped by URL, before their metadata
      // is built or an event allocated.
      if (this.skipDiscovered(l.url)) continue;
      const accepted = await this.accept({ url: l.url, status: 'DISCOVERED', metadata: l.metadata }, true);
      writes.push(accepted.done);
    }
    if (writes.length === 0) return undefined;
    return { done: Promise.all(writes).then((all) => all.every((s) => s.stored)) };
  }

  /** A DISCOVERED URL (a seed, an injected line); resolves once accepted. */
  async inject(event: StatusEvent): Promise<void> {
    await this.accept(event, true);
  }

  /** True when a DISCOVERED write of `url` would change nothing (the rules' cache); counted as skipped. */
  skipDiscovered(url: string): boolean {
    if (!this.d.rules.knowsDiscovered(url)) return false;
    this.stats.skippedCached++;
    return true;
  }

  /** Writes accepted and not settled yet. */
  get pending(): number {
    return this.pendingWrites;
  }

  /**
   * Writes of found links not settled yet, counted from the call (so also those still waiting for
   * room): what a shutdown deadline leaves unwritten.
   */
  get pendingFound(): number {
    return this.found;
  }

  /** Waits for room, applies the rules, hands the update to the store. */
  private async accept(event: StatusEvent, found: boolean): Promise<Accepted<Settled>> {
    const d = this.d;
    if (found) this.found++;
    let update: StatusUpdate | 'skipped-cached';
    try {
      await d.store.ready();
      update = d.rules.apply(event);
    } catch (e) {
      if (found) this.found--;
      throw e;
    }
    if (update === 'skipped-cached') {
      this.stats.skippedCached++;
      if (found) this.found--;
      return NOTHING_TO_WRITE;
    }
    this.pendingWrites++;
    const u = update;
    return { done: d.store.write(u).then((result) => this.settled(u, result, found)) };
  }

  /** Each acknowledged write to every subscriber, once. */
  private publish(write: AcknowledgedWrite): void {
    for (const s of this.subscribers) {
      try {
        s(write);
      } catch (e) {
        // What follows an acknowledged write (transition log, deletion, adoption) broke: a bug,
        // logged rather than left to crash the process as an unhandled rejection.
        this.d.log.error(
          { url: write.update.url, status: write.update.status, err: errorMessage(e) },
          'after an acknowledged status write; the write stands',
        );
      }
    }
  }

  private settled(update: StatusUpdate, result: WriteResult, found: boolean): Settled {
    const d = this.d;
    // Whatever the subscribers do, the URL is settled and the write no longer pending.
    this.pendingWrites--;
    if (found) this.found--;
    if (!result.ok) {
      this.stats.failed++;
      // Shutdown gave it up: the crawl counts and reports these in one line.
      if (!result.closed)
        d.log.warn(
          { url: update.url, status: update.status, httpStatus: result.status, err: result.error },
          found
            ? 'status update of a discovered URL failed; the page that links to it is given up ' +
                'unchanged and fetched again when due, so the link is found again'
            : 'status update failed; the URL keeps its previous state and comes back when due',
        );
      return FAILED;
    }
    this.stats.written++;
    d.rules.acknowledged(update.url);
    // A DISCOVERED that lost to an existing document changed nothing: no transition to publish.
    if (result.existed) this.stats.existing++;
    else this.publish({ update, key: result.key, created: result.created });
    return {
      stored: true,
      ack: { version: result.version, nextFetchDate: update.nextFetchDate, key: result.key },
    };
  }
}

/** How a write settled: stored (or nothing to store), with what was acknowledged when written. */
interface Settled {
  readonly stored: boolean;
  readonly ack?: Acknowledged;
}

const FAILED: Settled = { stored: false };
const NOTHING_TO_WRITE: Accepted<Settled> = { done: Promise.resolve({ stored: true }) };
