import type { CheerioAPI } from 'cheerio/slim';
import { errorMessage } from '../../util/errors.js';
import type { ParseContext, ParseFilter } from './types.js';

/** A failure of one filter on one page. */
export interface FilterFailure {
  readonly filter: string;
  readonly message: string;
}

/** The configured parse filters, run in order on every parsed page and sitemap. */
export class ParseFilters {
  static readonly none = new ParseFilters([]);

  readonly filters: readonly ParseFilter[];
  /** True if any filter asks for a DOM: only then is one built. */
  readonly needsDom: boolean;
  /** True if any filter asks for the main text. */
  readonly needsMainText: boolean;

  /** Settles when every filter finished its background set-up; rejects with the first failure. */
  readonly ready: Promise<void>;

  constructor(
    filters: readonly ParseFilter[],
    /** The file they were loaded from, for start-up logs; null when built in code. */
    readonly source: string | null = null,
  ) {
    this.filters = [...filters];
    this.needsDom = this.filters.some((f) => f.needsDom === true);
    this.needsMainText = this.filters.some((f) => f.needsMainText === true);
    this.ready = Promise.all(this.filters.map((f) => f.ready)).then(() => undefined);
    // Awaiting `ready` still sees a failure; nobody awaiting it must not crash the process.
    this.ready.catch(() => undefined);
  }

  /**
   * Runs every filter; stops at the first that throws and reports it (the page then ends ERROR).
   * Filters that need a DOM get `doc`, the others null.
   */
  run(url: string, doc: CheerioAPI | null, parse: ParseContext): FilterFailure | undefined {
    for (const f of this.filters) {
      try {
        f.filter(url, f.needsDom ? doc : null, parse);
      } catch (e) {
        return { filter: f.name, message: errorMessage(e) };
      }
    }
    return undefined;
  }
}
