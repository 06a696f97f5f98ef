/** What the supervisor does next about `--once`. */
export type OnceStep = 'check' | 'finish' | 'later' | undefined;

/**
 * `--once` over several workers. A worker's links can make URLs of another worker's share due, so
 * no worker may end on its own: each reports idle when it finds nothing left in its share, and busy
 * when it takes a URL again. When all are idle, every worker is asked to check (Crawler
 * `stillFinished`: it took nothing since it reported idle, and after writing everything and a
 * refresh it still finds nothing due); when every one says so, the crawl is over.
 *
 * Why that is safe: when the last worker reported idle, every write of every worker had been
 * acknowledged (an idle worker has nothing in flight and nothing pending); since then none took a
 * URL, so none wrote anything; each worker's check refreshes after all of those writes and so sees
 * every URL they made due. A busy report, a worker that died, or a "no" voids the round.
 */
export class OnceCoordinator {
  private readonly idle: boolean[];
  /** Workers that ended cleanly on their own: finished for good. */
  private readonly ended: boolean[];
  private round = 0;
  private checking = false;
  private readonly answers = new Map<number, boolean>();

  constructor(private readonly workers: number) {
    this.idle = Array.from({ length: workers }, () => false);
    this.ended = Array.from({ length: workers }, () => false);
  }

  reportIdle(worker: number): OnceStep {
    this.idle[worker] = true;
    return this.allIdle() && !this.checking ? 'check' : undefined;
  }

  reportBusy(worker: number): void {
    this.idle[worker] = false;
    this.void();
  }

  /** A worker's process died (a new one will start) : not idle, and it answers no check. */
  replaced(worker: number): void {
    this.idle[worker] = false;
    this.void();
  }

  /** A worker ended cleanly without being asked: it counts as finished from now on. */
  endedOnItsOwn(worker: number): OnceStep {
    this.ended[worker] = true;
    this.idle[worker] = true;
    this.answers.set(worker, true);
    if (this.checking) return this.conclude();
    return this.allIdle() ? 'check' : undefined;
  }

  /** Starts a round: every worker still running is to be sent `check` with the round returned. */
  startRound(): number {
    this.round++;
    this.checking = true;
    this.answers.clear();
    this.ended.forEach((e, w) => {
      if (e) this.answers.set(w, true);
    });
    return this.round;
  }

  /** A worker's answer. 'finish': tell every worker to stop; 'later': ask again in a while. */
  checked(worker: number, round: number, finished: boolean): OnceStep {
    if (!this.checking || round !== this.round) return undefined;
    this.answers.set(worker, finished);
    return this.conclude();
  }

  /** Whether every worker is idle now (a round may start). */
  allIdle(): boolean {
    return this.idle.every(Boolean);
  }

  private conclude(): OnceStep {
    if (this.answers.size < this.workers) return undefined;
    this.checking = false;
    if ([...this.answers.values()].every(Boolean)) return 'finish';
    // A "no" from a worker that stays idle (its query failed, say) gets no new idle report: ask again.
    return this.allIdle() ? 'later' : undefined;
  }

  private void(): void {
    if (!this.checking) return;
    this.checking = false;
    this.answers.clear();
  }
}
