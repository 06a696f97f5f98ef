import { errorMessage } from '../util/errors.js';
import type { MetadataView, URLFilter, WarnLogger } from './types.js';
import { isFetchableHost, parseWebUrl } from './url.js';

/**
 * The scheme as the WHATWG parser reads it, without parsing the rest: the input is parsed only once,
 * by the first filter that needs it (usually the normaliser), and the output by the final check.
 */
const WEB_SCHEME = /^[\x00-\x20]*https?:/i;

function isFetchable(url: string): boolean {
  const u = parseWebUrl(url);
  return u !== null && isFetchableHost(u.hostname);
}

/** One step of `URLFilterChain.trace`: what a filter returned, or that it threw. */
export interface TraceStep {
  readonly filter: string;
  readonly result: string | null;
  readonly error?: string;
}

export interface ChainOptions {
  /** Where a throwing filter is reported (once per filter). */
  readonly logger?: WarnLogger;
  /** The file the chain was loaded from, for start-up logs; `null` when built in code or empty. */
  readonly source?: string | null;
}

/**
 * The URL filters of a crawl, run in order on every seed (source `null`), outlink and redirect
 * target. It stops at the first filter that returns `null`.
 *
 * Whatever the filters say:
 * - only http and https URLs come in: any other scheme (`javascript:`, `mailto:`, `data:`, `ftp:`,
 *   `file:`...) or none is rejected before the first filter;
 * - only valid http and https URLs come out, with a host name that can be resolved (see
 *   `isFetchableHost`): the result is parsed after the last filter, so malformed URLs never pass
 *   and no normaliser can turn a URL into something the fetcher cannot fetch. An empty chain still
 *   does both checks. (Only the scheme is checked on the way in: parsing is left to the filters that
 *   need it, and BasicURLNormalizer can still repair `http://a.com&x=1`.)
 *
 * A filter that throws breaks its contract. The chain then keeps the URL as it was before that
 * filter, as StormCrawler does, so that a buggy normaliser does not silently lose the crawl; it
 * reports the failure once per filter (name, URL, error) and counts the rest in `failures`.
 * DIFFERS FROM STORMCRAWLER: StormCrawler also stops the chain there and returns the URL unfiltered;
 * here the remaining filters still run, so a later rejection (regex, host) still applies.
 *
 * Implements `URLFilter`, so a chain can be nested in another.
 */
export class URLFilterChain implements URLFilter {
  readonly name = 'URLFilters';
  readonly filters: readonly URLFilter[];
  readonly source: string | null;
  private readonly logger: WarnLogger | undefined;
  private readonly failureCounts = new Map<URLFilter, number>();

  constructor(filters: readonly URLFilter[], options: ChainOptions = {}) {
    this.filters = [...filters];
    this.logger = options.logger;
    this.source = options.source ?? null;
  }

  /** How many times each filter threw, by name; for metrics. */
  get failures(): ReadonlyMap<string, number> {
    const byName = new Map<string, number>();
    for (const [f, n] of this.failureCounts) byName.set(f.name, (byName.get(f.name) ?? 0) + n);
    return byName;
  }

  filter(sourceUrl: URL | null, sourceMetadata: MetadataView | null, url: string): string | null {
    if (!WEB_SCHEME.test(url)) return null;
    let current = url;
    for (const f of this.filters) {
      let next: string | null;
      try {
        next = f.filter(sourceUrl, sourceMetadata, current);
      } catch (e) {
        this.reportFailure(f, current, e);
        continue;
      }
      // A filter written in plain JavaScript may answer undefined: that is a rejection too.
      if (typeof next !== 'string') return null;
      current = next;
    }
    return isFetchable(current) ? current : null;
  }

  /**
   * Runs the chain like `filter`, recording each filter's result: for `crawler` commands that
   * explain why a URL is dropped. Slower; not for the hot path.
   */
  trace(sourceUrl: URL | null, sourceMetadata: MetadataView | null, url: string): TraceStep[] {
    const steps: TraceStep[] = [];
    if (!WEB_SCHEME.test(url)) return [{ filter: '(http or https scheme)', result: null }];
    let current = url;
    for (const f of this.filters) {
      try {
        const next = f.filter(sourceUrl, sourceMetadata, current);
        steps.push({ filter: f.name, result: typeof next === 'string' ? next : null });
        if (typeof next !== 'string') return steps;
        current = next;
      } catch (e) {
        steps.push({ filter: f.name, result: current, error: errorMessage(e) });
      }
    }
    if (!isFetchable(current)) steps.push({ filter: '(http or https URL with a valid host)', result: null });
    return steps;
  }

  private reportFailure(f: URLFilter, url: string, e: unknown): void {
    const count = (this.failureCounts.get(f) ?? 0) + 1;
    this.failureCounts.set(f, count);
    if (count > 1) return;
    this.logger?.warn(
      { filter: f.name, url, err: e },
      `URL filter ${f.name} threw; it is skipped for this URL (the URL is kept as it was before it). ` +
        'Only the first failure of each filter is logged',
    );
  }
}
