import { ageOf, FRESH_SHARE, type Instant, type WriteFence } from '../../opensearch/fence.js';
import type { ShareLease } from '../../opensearch/lease.js';
import { sendToSupervisor, type ToWorker } from './messages.js';

/*
 * `crawler run --workers N`: the supervisor holds the lease, the workers write. The supervisor tells
 * its workers each time a renewal confirmed the lease; a worker's writes go while that confirmation
 * is younger than two thirds of the TTL (both clocks are the machine's, so the instants compare), and
 * wait otherwise, asking for a renewal. A supervisor that stalled therefore stalls its workers' writes
 * too; one that finds its lease lost kills them (supervisor.ts abandon).
 */

/** How often a waiting worker asks again (a renewal failed, or the supervisor is stalled). */
const ASK_AGAIN_MS = 1000;

/** A worker's fence: the supervisor's lease, as its messages tell it. */
export class RelayedFence implements WriteFence {
  private confirmed: Instant = { wall: Number.NEGATIVE_INFINITY, mono: Number.NEGATIVE_INFINITY };
  private readonly waiters = new Set<() => void>();

  /** Listens to the supervisor's messages from now (before the crawl is built: it writes seeds). */
  constructor(
    private readonly ttlMs: number,
    private readonly channel: NodeJS.EventEmitter = process,
  ) {
    channel.on('message', this.heard);
  }

  /** Stops listening: an IPC listener left behind would keep the worker from exiting. */
  close(): void {
    this.channel.off('message', this.heard);
  }

  private readonly heard = (message: ToWorker): void => {
    if (message.type !== 'lease') return;
    this.confirmed = message.at;
    for (const wake of [...this.waiters]) wake();
  };

  admit(): true | Promise<boolean> {
    if (this.fresh()) return true;
    return this.waitForConfirmation();
  }

  private fresh(): boolean {
    return ageOf(this.confirmed) < this.ttlMs * FRESH_SHARE;
  }

  /** Never false: a lease lost is the supervisor's to act on (it kills the workers). */
  private async waitForConfirmation(): Promise<boolean> {
    while (!this.fresh()) {
      sendToSupervisor({ type: 'lease-ask' });
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          this.waiters.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, ASK_AGAIN_MS);
        timer.unref();
        this.waiters.add(wake);
      });
    }
    return true;
  }
}

/** The supervisor's side: what it sends a worker about its lease, now and at each renewal. */
export function leaseMessage(lease: ShareLease): ToWorker {
  return { type: 'lease', at: lease.confirmedAt };
}
