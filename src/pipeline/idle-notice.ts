import type { Clock } from '../util/clock.js';
import type { Logger } from '../util/log.js';
import { count } from '../util/plural.js';
import type { UrlSource } from './ports.js';

/** When the next URL is due and how many are scheduled, as the source said when the crawl went idle. */
export interface NothingDue {
  readonly nextDueAt: string | undefined;
  readonly scheduled: number;
}

/** The line a continuous crawl says once when nothing is due. */
export function nothingDueLine(n: NothingDue): string {
  return n.nextDueAt === undefined
    ? 'nothing due and nothing scheduled: every URL is done for good or refused (crawler stats counts them)'
    : `nothing due; next URL due at ${n.nextDueAt} (${count(n.scheduled, 'URL')} scheduled)`;
}

export const WORK_AGAIN_LINE = 'URLs are due again: crawling';

/** A next due date closer than this is work about to appear, not an idle crawl. */
const DUE_SOON_MS = 5_000;

/**
 * A continuous crawl that runs out of due URLs says so once, with when the next one is due, and
 * again when work appears; not at every empty query. The lines are notices (`notice: true`): shown
 * whole on a terminal and listed on the console with the warnings, since a person watching a crawl
 * that fetches nothing needs to know why.
 */
export class IdleNotice {
  private idle = false;
  private said: NothingDue | undefined;

  constructor(
    private readonly source: Pick<UrlSource, 'nextDue'>,
    private readonly log: Pick<Logger, 'info'>,
    private readonly clock: Clock,
    /** Said after "nothing due and nothing scheduled" when it explains it (every URL refused). */
    private readonly why: () => string | undefined = () => undefined,
  ) {}

  /** What was said when the crawl went idle; undefined while it works. */
  get current(): NothingDue | undefined {
    return this.idle ? this.said : undefined;
  }

  /** A query found nothing due and the crawl holds no URL. */
  nothingDue(): void {
    if (this.idle || !this.source.nextDue) return;
    this.idle = true;
    this.source.nextDue().then(
      ({ at, scheduled }) => {
        // Work came while the source was asked: nothing to say.
        if (!this.idle) return;
        // A URL due now that the query did not return (a seed not searchable yet, a status write
        // not yet sent): the crawl is not idle; asked again at the next empty query.
        if (at !== undefined && at <= this.clock.now() + DUE_SOON_MS) {
          this.idle = false;
          return;
        }
        const n = { nextDueAt: at === undefined ? undefined : new Date(at).toISOString(), scheduled };
        this.said = n;
        this.log.info({ notice: true, ...n }, nothingDueLine(n));
        const why = n.nextDueAt === undefined ? this.why() : undefined;
        if (why !== undefined) this.log.info({ notice: true }, why);
      },
      // Asked again at the next empty query.
      () => {
        this.idle = false;
      },
    );
  }

  /** The crawl took a URL. */
  working(): void {
    if (!this.idle) return;
    this.idle = false;
    if (this.said === undefined) return;
    this.said = undefined;
    this.log.info({ notice: true }, WORK_AGAIN_LINE);
  }
}
