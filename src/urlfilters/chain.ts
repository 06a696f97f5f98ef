import { errorMessage } from '../util/errors.js';
import type { FilterHints, MetadataView, URLFilter, WarnLogger } from './types.js';
import { isFetchableHost, parseWebUrl } from './url.js';

/**
 * The scheme as the WHATWG parser reads it, without parsing the rest: the input is parsed only once,
 * by the first filter that needs it (usually the normaliser), and the output by the final check.
 */
const WEB_SCHEME = /^[\x00-\x20]*https?:/i;

/** The last step of every chain: only valid http(s) URLs with a host that can be resolved leave. */
const FINAL_CHECK: URLFilter = {
  name: '(http or https URL with a valid host)',
  filter: (_s, _m, url) => {
    const u = parseWebUrl(url);
    return u !== null && isFetchableHost(u.hostname) ? url : null;
  },
};

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
  /** Sees every URL a filter drops (debug logging). */
  readonly onDrop?: (filter: string, url: string) => void;
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
 *   does both checks.
 *
 * Each filter's drops are counted (`drops`), URLs known to be sitemaps skip the filters marked
 * `sitemapsPass`, and the requests of rendered pages (hint `subrequest`) those marked
 * `subrequestsPass`.
 *
 * (A memo of the URL-only filters across pages was measured: with the benchmark's 100,000 URLs its
 * Map lookups and copies cost more than the normaliser and regexes they saved.)
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
  private readonly steps: readonly URLFilter[];
  private readonly dropCounts: number[];
  private readonly logger: WarnLogger | undefined;
  private readonly onDrop: ((filter: string, url: string) => void) | undefined;
  private readonly failureCounts = new Map<URLFilter, number>();

  constructor(filters: readonly URLFilter[], options: ChainOptions = {}) {
    this.filters = [...filters];
    this.steps = [...filters, FINAL_CHECK];
    this.logger = options.logger;
    this.onDrop = options.onDrop;
    this.source = options.source ?? null;
    this.dropCounts = this.steps.map(() => 0);
  }

  /** How many times each filter threw, by name; for metrics. */
  get failures(): ReadonlyMap<string, number> {
    const byName = new Map<string, number>();
    for (const [f, n] of this.failureCounts) byName.set(f.name, (byName.get(f.name) ?? 0) + n);
    return byName;
  }

  /** URLs each filter dropped, by name (the scheme check and the final check included). */
  get drops(): ReadonlyMap<string, number> {
    const byName = new Map<string, number>();
    this.steps.forEach((f, i) => {
      if (this.dropCounts[i]! > 0) byName.set(f.name, (byName.get(f.name) ?? 0) + this.dropCounts[i]!);
    });
    if (this.schemeDrops > 0) byName.set('(http or https scheme)', this.schemeDrops);
    return byName;
  }

  private schemeDrops = 0;

  filter(
    sourceUrl: URL | null,
    sourceMetadata: MetadataView | null,
    url: string,
    hints?: FilterHints,
  ): string | null {
    if (!WEB_SCHEME.test(url)) {
      this.schemeDrops++;
      this.onDrop?.('(http or https scheme)', url);
      return null;
    }
    const sitemap = hints?.sitemap === true;
    const subrequest = hints?.subrequest === true;
    let current = url;
    const steps = this.steps;
    for (let i = 0; i < steps.length; i++) {
      const f = steps[i]!;
      if (sitemap && f.sitemapsPass) continue;
      if (subrequest && f.subrequestsPass) continue;
      let next: string | null | undefined;
      try {
        next = f.filter(sourceUrl, sourceMetadata, current, hints);
      } catch (e) {
        // A filter that throws keeps the URL as it was (and is reported).
        this.reportFailure(f, current, e);
        next = current;
      }
      // A filter written in plain JavaScript may answer undefined: that is a rejection too.
      if (typeof next !== 'string') return this.dropped(i, current);
      current = next;
    }
    return current;
  }

  private dropped(step: number, url: string): null {
    this.dropCounts[step]!++;
    this.onDrop?.(this.steps[step]!.name, url);
    return null;
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
    if (FINAL_CHECK.filter(null, null, current) === null)
      steps.push({ filter: FINAL_CHECK.name, result: null });
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
